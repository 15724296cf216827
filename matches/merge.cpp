#include "matches/merge.hpp"

#include <cerrno>
#include <map>
#include <set>

#include <fmt/format.h>

#include "common/bounded_io.hpp"
#include "common/error.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "matches/state.hpp"

namespace matches {

MergedGames merge_result_files(const std::vector<std::string>& files) {
    MergedGames out;
    std::map<int, GameRecord> games;
    for (const std::string& file : files) {
        const std::string text = common::read_file(file, common::MaxRecordFile, "merge");
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(text);
        } catch (const nlohmann::json::exception& e) {
            throw common::InputError(fmt::format("merge: '{}' is not JSON ({})", file, e.what()));
        }
        // docs/results keeps runs' summaries; their games are in git's history.
        if (j.is_object() && j.contains("games_archived") && j["games_archived"].is_object())
            throw common::InputError(fmt::format("merge: '{}' is the summary of a run whose games are archived: "
                                                 "scripts/results-archive.py restore {} writes the whole file",
                                                 file, j["games_archived"].value("path", file)));
        if (!j.is_object() || !j.contains("settings") || !j.contains("games") || !j["games"].is_array())
            throw common::InputError(fmt::format("merge: '{}' is not a loa-match result file", file));
        MatchSettings settings;
        try {
            settings = settings_from_json(j["settings"]);
        } catch (const common::InputError& e) {
            throw common::InputError(fmt::format("merge: '{}': {}", file, e.what()));
        }
        if (out.settings.is_null()) {
            out.settings = j["settings"];
            out.event = j.value("event", "loa-match");
        } else if (!same_match(out.settings, j["settings"])) {
            throw common::InputError(fmt::format("merge: '{}' is from another match than '{}'", file, files.front()));
        }
        if (files.size() == 1) {
            out.single_run = j;
            out.single_run.erase("games");
        }
        for (std::size_t i = 0; i < j["games"].size(); ++i) {
            GameRecord record;
            try {
                record = game_from_json(j["games"][i]);
                check_scheduled(settings, record);
            } catch (const common::InputError& e) {
                throw common::InputError(fmt::format("merge: '{}', record {} of its games: {}", file, i + 1, e.what()));
            }
            const auto [it, inserted] = games.emplace(record.index, record);
            if (!inserted && it->second.moves != record.moves)
                throw common::InputError(fmt::format("merge: game {} differs between files", record.index + 1));
        }
    }
    for (auto& [index, g] : games) out.games.push_back(std::move(g));
    return out;
}

void keep_recorded_decisions(const nlohmann::json& run, const MatchSettings& s, MatchResult& result) {
    if (!run.is_object()) return;
    auto bad = [](const std::string& what) { return common::InputError(fmt::format("result file: {}", what)); };
    if (const auto it = run.find("scheduled_games"); it != run.end()) {
        if (!it->is_number_integer() || it->get<long long>() < static_cast<long long>(result.games.size()) ||
            it->get<long long>() > 2'000'000'000)
            throw bad("'scheduled_games' must be an integer no smaller than the number of games");
        result.scheduled_games = it->get<int>();
    }
    if (const auto it = run.find("stopped_by_sprt"); it != run.end()) {
        if (!it->is_boolean()) throw bad("'stopped_by_sprt' must be true or false");
        result.stopped_by_sprt = it->get<bool>();
    }
    // The order the run counted its games (a single run's file): the plot replays it.
    if (const auto it = run.find("counting_order"); it != run.end()) {
        std::set<int> present, seen;
        for (const GameRecord& g : result.games) present.insert(g.index + 1);
        if (!it->is_array() || it->size() != result.games.size())
            throw bad("'counting_order' must list every game once, by number");
        for (const nlohmann::json& number : *it) {
            if (!number.is_number_integer() || !present.count(number.get<int>()) || !seen.insert(number.get<int>()).second)
                throw bad("'counting_order' must list every game once, by number");
            result.counting_order.push_back(number.get<int>() - 1);
        }
    }
    if (!s.sprt) return;
    const auto pairings = run.find("pairings");
    if (pairings == run.end()) return;
    if (!pairings->is_array() || pairings->size() != result.pairings.size())
        throw bad(fmt::format("'pairings' must list the match's {} pairings", result.pairings.size()));
    for (std::size_t i = 0; i < result.pairings.size(); ++i) {
        const nlohmann::json& x = (*pairings)[i];
        if (!x.is_object() || !x.contains("sprt") || !x["sprt"].is_object()) continue;
        const nlohmann::json& sprt = x["sprt"];
        PairingStats& p = result.pairings[i];
        const auto recorded = sprt.find("decision");
        if (recorded != sprt.end() && !recorded->is_string()) throw bad("an SPRT 'decision' must be a string");
        const std::string decision = recorded == sprt.end() ? "continue" : recorded->get<std::string>();
        if (decision == "continue") {
            p.decision = SprtDecision::Continue;
            p.decision_llr = 0;
            p.decision_games = 0;
            continue;
        }
        const SprtDecision d = decision == to_string(SprtDecision::AcceptH1)   ? SprtDecision::AcceptH1
                               : decision == to_string(SprtDecision::AcceptH0) ? SprtDecision::AcceptH0
                                                                              : throw bad(fmt::format("unknown SPRT decision '{}'", decision));
        const auto llr = sprt.find("decision_llr"), games = sprt.find("decision_games");
        if (llr == sprt.end() || games == sprt.end() || !llr->is_number() || !games->is_number_integer())
            throw bad("a decided pairing needs 'decision_llr' and 'decision_games'");
        const double at = llr->get<double>();
        const long long counted = games->get<long long>();  // a decision needs a whole pair
        if (sprt_decision(at, *s.sprt) != d || counted < 2 || counted > p.games.games())
            throw bad(fmt::format("pairing {}'s recorded decision does not fit its bounds or its games", i + 1));
        p.decision = d;
        p.decision_llr = at;
        p.decision_games = counted;
    }
}

}  // namespace matches
