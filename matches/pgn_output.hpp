// The PGN a match writes its games to (--pgn). Games are appended to what the file holds, as
// fastchess's and cutechess's PGN output is: nothing written before the run is touched. A run
// resumed from its state file cuts the file back to where its own records began (the state
// file records it) and writes the games it keeps, so that the game of a half-played pair, or
// a record torn by a kill, is neither left twice nor left half. A device (/dev/stdout) is
// written in place, from its start.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "matches/game_runner.hpp"

namespace matches {

// Where a run's records begin in one PGN, and the event they were written with.
struct PgnStart {
    std::string path;  // absolute
    std::uintmax_t offset = 0;
    std::string event;
};

// The starts a run has recorded, by absolute path (a run resumed once with another --pgn
// keeps the first file's start). Kept as JSON in the state file's first line.
using PgnStarts = std::map<std::string, PgnStart>;
PgnStarts pgn_starts_from_json(const nlohmann::json& j);  // malformed entries are skipped
nlohmann::ordered_json pgn_starts_json(const PgnStarts& starts);

// The start of this run's records in `path`, writing with `event`; `saved`: the games of the
// run being resumed (its state file), `recorded` the starts it recorded (`legacy_state`: its
// state file records none, being older than them).
// - A file with a recorded start: that start, once the file is checked to hold nothing after
//   it but records of `saved` as they were written (the last one perhaps cut short by a kill).
// - A file without one, resumed from a state file written before starts were recorded (games
//   saved, no starts at all): offset 0 when the whole file is such records (those versions
//   rewrote the file), else refused.
// - Otherwise the file's end now (0 when missing).
// Throws InputError, leaving the file alone, when it is not this run's to cut: shorter than
// recorded, or other text after the start.
PgnStart pgn_start_of_run(const std::string& path, const std::string& event, const PgnStarts& recorded, bool legacy_state,
                          const std::vector<GameRecord>& saved);

// A start for a run that has written nothing yet: the end of `path` now (0 when missing); a
// device's or FIFO's: 0.
PgnStart pgn_end(const std::string& path, const std::string& event);

// Throws InputError unless what follows `start.offset` is records of `saved` only, as written
// with `start.event` (the last one perhaps cut short): what restart_pgn_at may cut away.
void check_own_records(const PgnStart& start, const std::vector<GameRecord>& saved);

// Cuts the file back to `start.offset` and appends `records`.
void restart_pgn_at(const PgnStart& start, std::string_view records);

// Appends `records` (created when missing), after a newline when the file does not end with
// one, so that a record never runs into the text before it. Checked writes (append_to_file).
void append_pgn(const std::string& path, std::string_view records);

}  // namespace matches
