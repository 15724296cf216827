// The PGN a match writes its games to (--pgn). Games are appended to what the file holds, as
// fastchess's and cutechess's PGN output is: nothing written before the run is touched. A run
// resumed from its state file cuts the file back to where its own records began (the state
// file records it) and writes the games it keeps, so that the game of a half-played pair, or
// a record torn by a kill, is neither left twice nor left half.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "matches/state.hpp"

namespace matches {

// Where the records of a run writing to `path` begin: `recorded` (from the state file of the
// run being resumed) when it names the same file, else the file's end now (0 when missing).
// Throws InputError, leaving the file alone, when it is not a regular file or is shorter than
// recorded (it changed under the run).
PgnStart pgn_start_of_run(const std::string& path, const std::optional<PgnStart>& recorded);

// Throws InputError unless what follows `start.offset` is this run's own records only: records
// of games in `saved` (the state file's), each as write_record writes it, the last one perhaps
// cut short by a kill. Only then may restart_pgn_at cut it away.
void check_own_records(const PgnStart& start, const std::vector<GameRecord>& saved, const std::string& event);

// Cuts the file back to `start.offset` (the run's own records only) and appends `records`.
void restart_pgn_at(const PgnStart& start, std::string_view records);

// Appends `records` (created when missing), after a newline when the file does not end with
// one, so that a record never runs into the text before it. Checked writes (append_to_file).
void append_pgn(const std::string& path, std::string_view records);

}  // namespace matches
