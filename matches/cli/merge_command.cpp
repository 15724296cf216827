#include <fstream>
#include <map>

#include <fmt/format.h>

#include "common/error.hpp"
#include "matches/cli/commands.hpp"
#include "matches/plot.hpp"
#include "matches/records.hpp"
#include "matches/report.hpp"
#include "matches/state.hpp"

namespace matches::cli {
namespace {

// loa-match merge: one result from the result files of shards or partial runs of one match.
int merge_results(const std::vector<std::string>& files, const std::string& json_path, const std::string& pgn_path,
                  const std::string& plot_path) {
    nlohmann::json first_settings;
    MatchSettings s;
    std::map<int, GameRecord> games;
    for (const std::string& file : files) {
        std::ifstream in(file);
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(in);
        } catch (const nlohmann::json::exception& e) {
            throw common::InputError(fmt::format("merge: '{}' is not JSON ({})", file, e.what()));
        }
        if (!j.contains("settings") || !j.contains("games"))
            throw common::InputError(fmt::format("merge: '{}' is not a loa-match result file", file));
        if (first_settings.is_null()) {
            first_settings = j["settings"];
            s = settings_from_json(first_settings);
            s.event = j.value("event", "loa-match");
        } else if (!same_match(first_settings, j["settings"])) {
            throw common::InputError(fmt::format("merge: '{}' is from another match than '{}'", file, files.front()));
        }
        for (const auto& g : j["games"]) {
            GameRecord record = game_from_json(g);
            const auto [it, inserted] = games.emplace(record.index, record);
            if (!inserted && it->second.moves != record.moves)
                throw common::InputError(fmt::format("merge: game {} differs between files", record.index + 1));
        }
    }
    MatchResult result;
    for (auto& [index, g] : games) result.games.push_back(std::move(g));
    result.scheduled_games = static_cast<int>(result.games.size());
    tally(s, result);
    fmt::print("Merged {} files: {} games\n{}", files.size(), result.games.size(), summary(s, result));
    if (!json_path.empty()) {
        std::ofstream out(json_path);
        out << result_json(s, result) << '\n';
        fmt::print("Result written to {}\n", json_path);
    }
    if (!pgn_path.empty()) {
        std::ofstream out(pgn_path);
        for (const GameRecord& g : result.games) write_record(out, g, s.event);
        fmt::print("Games written to {}\n", pgn_path);
    }
    if (!plot_path.empty()) {
        write_plot(s, result, plot_path);
        fmt::print("Plot written to {}\n", plot_path);
    }
    return 0;
}

}  // namespace

Command add_merge_command(CLI::App& app) {
    struct Options {
        std::vector<std::string> files;
        std::string json, pgn, plot;
    };
    auto o = std::make_shared<Options>();
    CLI::App* merge = app.add_subcommand("merge", "Combine the result files of shards (or runs) of one match");
    merge->add_option("files", o->files, "Result files written with --json")->required()->check(CLI::ExistingFile);
    merge->add_option("--json", o->json, "Write the merged result");
    merge->add_option("--pgn", o->pgn, "Write the merged games");
    merge->add_option("--plot", o->plot, "Draw the merged match");
    return {merge, [o] { return merge_results(o->files, o->json, o->pgn, o->plot); }};
}

}  // namespace matches::cli
