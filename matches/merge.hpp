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
};

// Reads loa-match result files (--json). Throws InputError when a file is not one, when the
// files belong to different matches, or when one game differs between two files.
MergedGames merge_result_files(const std::vector<std::string>& files);

}  // namespace matches
