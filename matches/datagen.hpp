// Training data for a learned evaluation: self-play games at a fixed search budget, each
// position written with the search's score, its best move and the game's result.
//
// The file is text, one position a line, all from the side to move's point of view:
//     <position text> | <score> | <best move> | <result>
// (position text as loa reads it, the side to move last; score in the evaluation's centi-units;
// result 1, 0.5 or 0 for the side to move), and '#' lines the trainer skips: a header naming
// the settings, then each game between "# game N" and "# end N <result>". A run resumed on its
// file keeps the complete games and plays on from the first missing one (a game cut by a kill
// is played again); games are written in order, so that -j 1 and -j 8 write the same file.
//
// Each game: an opening from the list (in turn), then `random_plies` uniformly random legal
// plies (seeded per game), then the engine against itself to the end. The opening and random
// plies are not searched and not written. Of the searched positions, left out and counted:
// the first `skip_plies` (still near the chance moves), positions whose best move is a capture
// (the evaluation of a position with a capture pending says little), and decisive scores (a
// proven result, or |score| > `max_abs_score`: the search knows more than an evaluation can
// learn; `keep_decisive` writes them with the score as the search gave it, a proven one at
// |score| >= 29871, beyond every evaluation, so that a trainer can take the proof for the
// label), and tactical positions: those where the engine's quiescence search at a full window
// finds a line of captures for the side to move that it values above standing pat.
//
// The engine must search a fixed budget (depth= or nodes=) on one thread: the same settings
// then give the same file, on any number of threads (-j) and across resumes.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "loa/rules.hpp"
#include "matches/engine_spec.hpp"
#include "matches/openings.hpp"

namespace matches {

struct DatagenSettings {
    EngineSpec engine;                // in-process, with a fixed budget (depth= or nodes=)
    std::vector<Opening> openings;    // played in turn; at least one
    std::string openings_name = "standard start";  // named in the header
    int random_plies = 4;
    int games = 100;                  // the file holds games 1 .. games when the run ends
    // A part of a run (a Slurm task's): the file holds games first_game + 1 .. games only, and
    // its header says so, so that it is never taken for a whole run's file.
    bool part = false;
    int first_game = 0;
    std::uint64_t seed = 1;
    int threads = 1;
    int skip_plies = 8;
    bool keep_captures = false;
    bool keep_tactical = false;       // keep positions whose quiescence value is not their static evaluation
    bool keep_decisive = false;       // keep proven results and |score| > max_abs_score, their score as searched
    int max_abs_score = 2000;
    int max_plies = 500;              // a game still going then is a draw (adjudicated, counted)
    loa::RuleSet rules;
    // Raised (by a signal handler): no game starts after it; the games before the first one
    // not played are written, and the run ends (interrupted). nullptr: never.
    const std::atomic<bool>* stop = nullptr;
    // After each write (one or more games, in order): the games in the file, the positions this run wrote.
    std::function<void(int games_done, std::uint64_t written)> on_progress;
};

struct DatagenCounts {
    int games = 0;                  // played by this run (resumed games not counted)
    int resumed_games = 0;          // complete games found in the file
    int black_wins = 0, white_wins = 0, draws = 0, adjudicated = 0;
    std::uint64_t positions = 0;    // searched
    std::uint64_t written = 0;
    std::uint64_t skipped_early = 0;  // searched positions within skip_plies of the random plies
    std::uint64_t skipped_capture = 0, skipped_decisive = 0;
    std::uint64_t skipped_tactical = 0;  // quiescence search changes the score (a capture pending)
    std::uint64_t kept_decisive = 0;     // written with a decisive score (keep_decisive), among `written`
    bool interrupted = false;            // stopped by `stop` before the last game
};

// Throws InputError when `s` cannot make data: an external engine, one limited by time or on
// several threads, the tactical filter with an engine that has no quiescence search (MCTS,
// qsearch=off), no openings, counts out of range.
void check_datagen_settings(const DatagenSettings& s);

// The header line of a file made with `s` (what a resumed run must match).
std::string datagen_header(const DatagenSettings& s);

// Plays the games missing from `path` (created when missing) and appends them, holding a
// common::FileLock on it. Throws InputError, touching nothing, when `path` is not a regular datagen
// file of these settings (another file is never overwritten), another run holds it, or the
// engine is external, limited by time or on several threads.
DatagenCounts generate_training_data(const DatagenSettings& s, const std::string& path);

// Joins the files of parts (made with `part`, in the order of their games, together covering
// the games from those already in `out` to whole.games) onto the end of `out` (created when
// missing), as one run of `whole` would have written them. `out` is replaced at once: written
// whole beside it and renamed over it, so that a failure or a kill leaves it as it was. Throws
// InputError, touching nothing, when a part is not complete, not of these settings or leaves a
// gap, or `out` is not a data file of these settings or is a symbolic link.
struct JoinedParts {
    int games = 0;       // in `out` now
    int part_games = 0;  // of the parts, and their results and position lines:
    int black_wins = 0, white_wins = 0, draws = 0;
    std::uint64_t positions = 0;
};
JoinedParts join_datagen_parts(const DatagenSettings& whole, const std::vector<std::string>& parts, const std::string& out);

// The complete games in `path`, a data file of the settings `s` (0 when there is no file);
// throws InputError when it is another file.
int datagen_games_in(const DatagenSettings& s, const std::string& path);

// One position line: "<position text> | <score> | <move> | <result>".
struct TrainingPosition {
    std::string position, move;
    int score = 0;
    double result = 0.5;
};
// Parses a position line; throws InputError naming the fault.
TrainingPosition parse_training_line(const std::string& line);

}  // namespace matches
