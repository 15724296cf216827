#include "matches/merge.hpp"

#include <fstream>
#include <map>

#include <fmt/format.h>

#include "common/error.hpp"
#include "matches/state.hpp"

namespace matches {

MergedGames merge_result_files(const std::vector<std::string>& files) {
    MergedGames out;
    std::map<int, GameRecord> games;
    for (const std::string& file : files) {
        std::ifstream in(file);
        if (!in) throw common::InputError(fmt::format("merge: cannot read '{}'", file));
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(in);
        } catch (const nlohmann::json::exception& e) {
            throw common::InputError(fmt::format("merge: '{}' is not JSON ({})", file, e.what()));
        }
        if (!j.is_object() || !j.contains("settings") || !j.contains("games") || !j["games"].is_array())
            throw common::InputError(fmt::format("merge: '{}' is not a loa-match result file", file));
        if (out.settings.is_null()) {
            out.settings = j["settings"];
            (void)settings_from_json(out.settings);  // a bad settings block fails here, named
            out.event = j.value("event", "loa-match");
        } else if (!same_match(out.settings, j["settings"])) {
            throw common::InputError(fmt::format("merge: '{}' is from another match than '{}'", file, files.front()));
        }
        for (const auto& g : j["games"]) {
            GameRecord record = game_from_json(g);
            const auto [it, inserted] = games.emplace(record.index, record);
            if (!inserted && it->second.moves != record.moves)
                throw common::InputError(fmt::format("merge: game {} differs between files", record.index + 1));
        }
    }
    for (auto& [index, g] : games) out.games.push_back(std::move(g));
    return out;
}

}  // namespace matches
