// Persistence of a match: the settings that identify it, finished games as JSON, the state
// file that makes an interrupted run resumable, and the result files that shards write and
// `loa-match merge` combines.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "matches/match.hpp"
#include "matches/pgn_output.hpp"

namespace matches {

// What must be equal for two runs to be parts of one match (the shard aside).
nlohmann::ordered_json settings_json(const MatchSettings& s);
// Rebuilds the settings a result file was made with (engines, pairings, SPRT); openings are
// not needed to recount finished games.
MatchSettings settings_from_json(const nlohmann::json& j);
bool same_match(const nlohmann::json& a, const nlohmann::json& b);

nlohmann::ordered_json game_json(const GameRecord& g);
GameRecord game_from_json(const nlohmann::json& j);  // replays the moves; throws InputError

// The finished games of a state file's game lines (after the settings line), each game once
// (a later record of the same game replaces an earlier one and takes its place), in the
// order the run counted them; a line that is not JSON (cut short by a kill) is skipped. A
// record that is not a game of match `s` (check_scheduled), or not a game at all, is refused:
// InputError names `source` (e.g. "state file 'x.state'") and the line.
std::vector<GameRecord> saved_games(const std::vector<std::string_view>& lines, const MatchSettings& s, const std::string& source);
// Only the games whose pair is complete, in the same order.
std::vector<GameRecord> whole_pairs(const std::vector<GameRecord>& games);

// Refuses (InputError) to let a run write its result over `path` when a file is there that is
// not a result of the same match (`settings`: settings_json; the same shard too, unless
// `any_shard`: merge's result is the whole match): another match's result, or a file of the
// user's, is never replaced.
void check_result_path(const std::string& path, const nlohmann::json& settings, const std::string& option, bool any_shard);

// State file: the settings on the first line, then one finished game a line (JSON Lines), so
// that a crash loses at most the game being written.
class StateFile {
public:
    StateFile(std::string path, const MatchSettings& s);
    // Where the run's records begin in its PGN files (matches/pgn_output.hpp), as the file's
    // first line records them; none when there is no file, or its first line (written by a
    // version before them) holds none.
    std::optional<PgnStarts> recorded_pgn_starts() const;
    // The starts the first line holds from now on: load_all and append write them, save_header
    // rewrites the line of an existing file (call it after load_all accepted the file).
    void set_pgn_starts(const PgnStarts& starts);
    void save_header() const;
    // Games of an earlier interrupted run of the same match (saved_games): whole pairs, and the
    // finished game of each half-played pair (run_match plays that pair again and counts
    // neither of its old games; a pairing whose SPRT had decided still finishes it, as the
    // uninterrupted run would have). In the order the run counted them (the file's order; the
    // schedule's only with -j 1): replayed in that order, every SPRT decision is the one the
    // run took. The file is rewritten to hold exactly those, in that order, so that a line cut
    // short by a kill is gone before new lines follow it. Throws InputError when the file
    // belongs to another match.
    std::vector<GameRecord> load_all() const;
    // load_all()'s whole pairs only: the games to count, record and report.
    std::vector<GameRecord> load() const;
    // Appends a finished game (with the settings line first in a new file). Throws InputError
    // naming the file and the cause when the write fails (a full disk); the file then ends
    // with its last whole line, as before the call.
    void append(const GameRecord& g);
    // Deletes the file, but only if it is recognisably a state file of this program (or
    // missing): anything else at the path throws InputError and is left alone.
    void remove() const;
    const std::string& path() const { return path_; }

private:
    std::string path_;
    MatchSettings match_;
    nlohmann::ordered_json settings_;
};

}  // namespace matches
