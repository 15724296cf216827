// Result files of one match (shards, partial runs) combined into one set of games.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "matches/match.hpp"

namespace matches {

struct MergedGames {
    nlohmann::json settings;   // of the first file
    std::string event;
    std::vector<GameRecord> games;  // each game once, in schedule order
    nlohmann::json single_run;  // when one file was read: its result, without the games
};

// Reads loa-match result files (--json). Throws InputError when a file is not one, when the
// files belong to different matches, or when one game differs between two files.
MergedGames merge_result_files(const std::vector<std::string>& files);

// The SPRT decisions are the first crossings of a bound in the order the games were counted,
// which a result file's games (in schedule order) no longer show: a recount of the file replays
// them in schedule order. For the result of one run this puts back what the run itself
// recorded: each pairing's decision (with its LLR and game count), the games it scheduled and
// whether its SPRT stopped it. Shards of one match have no common counting order, and keep the
// schedule order's decisions. Throws InputError when the record does not fit the games.
void keep_recorded_decisions(const nlohmann::json& single_run, const MatchSettings& s, MatchResult& result);

}  // namespace matches
