// Persistence of a match: the settings that identify it, finished games as JSON, the state
// file that makes an interrupted run resumable, and the result files that shards write and
// `loa-match merge` combines.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "matches/match.hpp"

namespace matches {

// What must be equal for two runs to be parts of one match (the shard aside).
nlohmann::ordered_json settings_json(const MatchSettings& s);
// Rebuilds the settings a result file was made with (engines, pairings, SPRT); openings are
// not needed to recount finished games.
MatchSettings settings_from_json(const nlohmann::json& j);
bool same_match(const nlohmann::json& a, const nlohmann::json& b);

nlohmann::ordered_json game_json(const GameRecord& g);
GameRecord game_from_json(const nlohmann::json& j);  // replays the moves; throws InputError

// State file: the settings on the first line, then one finished game a line (JSON Lines), so
// that a crash loses at most the game being written.
class StateFile {
public:
    StateFile(std::string path, const MatchSettings& s);
    // Games of an earlier interrupted run of the same match, only whole game pairs (a half-
    // played pair is played again), each game once (a game written again by a later run
    // replaces the earlier record), in schedule order. The file is rewritten to hold exactly
    // those, so that a line cut short by a kill is gone before new lines follow it. Throws
    // InputError when the file belongs to another match.
    std::vector<GameRecord> load() const;
    void append(const GameRecord& g);
    void remove() const;
    const std::string& path() const { return path_; }

private:
    std::string path_;
    nlohmann::ordered_json settings_;
};

}  // namespace matches
