// A match or tournament: the schedule of game pairs, the worker threads that play them, and
// the running statistics. Each game pair plays one opening twice with colours swapped. With
// fixed-depth or fixed-node engines, every game is a function of its pair number alone
// (players are reset before each game), so results do not depend on -j.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "matches/engine_spec.hpp"
#include "matches/game_runner.hpp"
#include "matches/openings.hpp"
#include "matches/sprt.hpp"

namespace matches {

enum class Format { RoundRobin, Gauntlet };  // with two engines both are one match

struct MatchSettings {
    std::vector<EngineSpec> engines;
    Format format = Format::RoundRobin;
    int games = 20;  // per pairing; rounded up to whole pairs
    int concurrency = 1;
    loa::RuleSet rules;
    std::vector<Opening> openings;
    std::optional<SprtSettings> sprt;
    Adjudication adjudication;
    int shard_index = 0, shard_count = 1;
    // > 0: this run plays only the shard's first max_pairs game pairs (a round of a Slurm run
    // with an SPRT); not part of the match's identity, so a later run with a larger limit
    // resumes from the same state file.
    int max_pairs = 0;
    std::string event = "loa-match";
    std::string openings_source;  // how the openings were made, for resume and merge checks
    std::string openings_digest;  // what they are (openings_digest()); empty: not checked
    std::string sprt_text;        // as given
    std::string start_name = "standard";
    bool test_vs_base = false;  // --test/--base: the first engine is the change, the second its base

    const std::string& engine_name(int i) const { return engines[static_cast<std::size_t>(i)].name; }
};

struct PairingStats {
    int first = 0, second = 0;  // engine indices; counts are from the first engine's view
    Trinomial games;
    Pentanomial pairs;
    double llr = 0;  // over every game counted
    // The SPRT's decision is taken once, when the LLR first crosses a bound, and kept: games
    // that were in flight then (-j > 1) are still counted above and may move the LLR on.
    SprtDecision decision = SprtDecision::Continue;
    double decision_llr = 0;
    std::int64_t decision_games = 0;  // games of the whole pairs counted when it was taken
};

// Recomputes a pairing's LLR after a game; takes the decision when a bound is first crossed.
void update_sprt(PairingStats& stats, const SprtSettings& sprt);

struct MatchResult {
    std::vector<GameRecord> games;  // in schedule order; empty when the callbacks keep them
    int finished_games = 0;         // resumed ones included (games.size() when kept here)
    std::vector<PairingStats> pairings;
    int scheduled_games = 0;
    bool stopped_by_sprt = false;
    bool interrupted = false;  // the interrupt flag stopped it: games in play then were dropped
    // Game indices in the order the run counted them (the order games finished, resumed ones
    // first): the order its SPRT decided in, which a plot or a check replays. Empty when not
    // known (games merged from shards).
    std::vector<int> counting_order;
};

// A game being played, as its worker sees it after each move.
struct GameInPlay {
    int worker = 0;
    int index = 0;  // 0-based game number in the schedule
    std::string black, white;
    const loa::Game* game = nullptr;
};

struct MatchCallbacks {
    std::function<void(const GameRecord&, const PairingStats&)> on_game;  // under the result lock
    // When a game begins (its 0-based number, White's name, Black's), under the result lock:
    // the "Started game" lines of cutechess-cli's and fastchess's output.
    std::function<void(int, const std::string&, const std::string&)> on_start;
    // Raised (by a signal handler) to stop the run: the moves being chosen end at once, the
    // games in play are dropped, engines are stopped; the state so far can be resumed.
    const std::atomic<bool>* interrupt = nullptr;
    // False when on_game keeps every game elsewhere (the state file): the run then holds no
    // finished game, only the pairings' counts, so that its memory stays flat however many
    // games it plays; the result's `games` is empty and the caller reads the records back
    // where it needs them.
    bool keep_games = true;
    // After every move of every game, on the worker's thread (no lock held): what a live view
    // of the games in play reads.
    std::function<void(const GameInPlay&)> on_move;
};

// The pairings of a match (one for two engines), in schedule order, with empty counts.
std::vector<PairingStats> pairings_of(const MatchSettings& settings);

// Games this shard of the match plays in all (resumed ones included), within max_pairs.
int scheduled_games(const MatchSettings& settings);

// The most games a match may schedule (its pairings' games together): game numbers stay far
// inside an int, and a record's game number is checked against it.
inline constexpr long long MaxScheduledGames = 1'000'000'000;
inline constexpr std::size_t MaxEngines = 1000;
// Throws common::InputError when the schedule (games per pairing times pairings) has more, or
// the match more than MaxEngines engines.
void check_schedule_size(const MatchSettings& settings);

// Throws common::InputError, saying why, when `game` cannot be a game of this match: a game
// number beyond its schedule, a pair number that is not its game's, another shard's game,
// players other than the schedule's in their colours, moves after the end, or a result the
// rules do not give (for a game the rules ended). What a resume, a merge and the web board
// check every record against, so that a stray record is refused rather than counted.
void check_scheduled(const MatchSettings& settings, const GameRecord& game);

// Plays the schedule; game pairs whose two games are in `already_played` (a resumed run) are
// not played again.
MatchResult run_match(const MatchSettings& settings, const MatchCallbacks& callbacks,
                      const std::vector<GameRecord>& already_played = {});

// Recomputes every pairing's counts (and SPRT state) from finished games and leaves the games
// in schedule order: what resume and merge rely on to give exactly the numbers of one
// uninterrupted run. The SPRT decisions (taken at the first crossing of a bound) replay the
// games in schedule order, or in the order given (a state file's: the order a run counted them).
enum class SprtReplay { ScheduleOrder, GivenOrder };
void sort_into_schedule_order(std::vector<GameRecord>& games);  // by game number
void tally(const MatchSettings& settings, MatchResult& result, SprtReplay replay = SprtReplay::ScheduleOrder);
// Counts every pairing again from the games (as tally), keeping the SPRT decisions the run took
// while playing: games may finish in another order than the schedule's, so a replay in schedule
// order could cross a bound the run never crossed.
void recount(const MatchSettings& settings, MatchResult& result, SprtReplay replay = SprtReplay::ScheduleOrder);

// Adds one game to a pairing's counts; pair results are counted when both games are in.
void add_game(PairingStats& stats, const GameRecord& game, const std::string& first_name,
              std::vector<GameRecord>& pending_pair_games);

}  // namespace matches
