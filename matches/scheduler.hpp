// A match's schedule and the workers that play it, apart from the game loop (game_runner.hpp)
// and from the bookkeeping of resumes and results (run_match in match.cpp).
#pragma once

#include <map>
#include <vector>

#include "matches/match.hpp"

namespace matches {

// One pair of games (colours swapped, one opening) of one pairing: what a worker plays at once.
struct Job {
    int pairing;      // index into the pairing list
    int pair;         // pair number within the pairing (it picks the opening)
    int global_pair;  // position in the whole schedule
    bool half_played = false;  // a resumed pair whose first game the interrupted run had counted
};

struct Schedule {
    std::vector<Job> jobs;         // in the order the workers take them
    int scheduled_games = 0;       // this shard's games, resumed ones included
    bool stopped_by_sprt = false;  // a pair is left out because its pairing had decided
};

// The pairs this shard plays, the pairings interleaved so that every pairing advances at the
// same pace, within max_pairs; pairs `done_in_pair` holds whole (a resume) are left out, and so
// are the new pairs of a pairing whose SPRT had decided (in `pairings`).
Schedule make_schedule(const MatchSettings& settings, const std::vector<PairingStats>& pairings,
                       const std::map<int, int>& done_in_pair);

// What the workers leave: the games they finished (all of them only with keep_games).
struct Played {
    std::vector<GameRecord> games;
    int count = 0;
};

// Plays `jobs` on settings.concurrency threads, each with its own players. Every finished game
// is counted into `pairings` under one lock (and the SPRT updated), then handed to the
// callbacks. Stops early on an interrupt (the games in play are dropped), on the decision of a
// match's single pairing, or on a worker's failure, which is rethrown once all have stopped.
Played play_schedule(const MatchSettings& settings, const MatchCallbacks& callbacks, const std::vector<Job>& jobs,
                     std::vector<PairingStats>& pairings, bool& stopped_by_sprt);

}  // namespace matches
