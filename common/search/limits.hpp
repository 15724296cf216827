// What ends a search: depth, nodes, time, or an external stop flag; and where the game itself
// ends by its length.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <span>

namespace search {

// What the search tells its timer after each completed iteration.
struct IterationReport {
    int depth = 0;
    int score = 0;
    std::uint16_t best_move = 0;  // raw move
    int root_moves = 0;           // legal moves at the root
    double elapsed_ms = 0;
};

// A time manager the search consults (see time_manager.hpp): after every iteration whether to
// start another, and every 256 nodes whether to stop at once.
class SearchTimer {
public:
    virtual ~SearchTimer() = default;
    virtual bool stop_after_iteration(const IterationReport& it) = 0;
    virtual bool must_stop(double elapsed_ms) const = 0;
    // The time this move is planned to take, for work done before the search (a solver) that
    // must take only a share of it; 0: no plan.
    virtual double target_ms() const { return 0; }
    // For a search that can stop at any moment (MCTS) instead of between iterations: it tells
    // the timer what it found at each report, and asks at every step whether the planned time
    // (as those reports shape it) has passed. The defaults plan nothing: must_stop alone.
    virtual void anytime_report(const IterationReport&) {}
    virtual bool anytime_stop(double /*elapsed_ms*/) const { return false; }
};

struct SearchLimits {
    int depth = 0;                // 0: no depth limit (MaxPly)
    std::uint64_t nodes = 0;      // 0: none; checked on every node, so fixed-node searches are deterministic
    double soft_time_ms = 0;      // 0: none; no new iteration starts after this
    double hard_time_ms = 0;      // 0: none; the search stops as soon as it sees this
    const std::atomic<bool>* stop = nullptr;  // external stop (protocol threads)
    SearchTimer* timer = nullptr;              // a time manager, checked besides the times above
    // > 0: a game-length rule draws the game this many plies below the root, unless a move
    // decides it first (what the rules say at that ply). 0: no such rule.
    int game_plies_left = 0;
    // Root moves (raw) the search leaves out: the best of the others is found, as MultiPV's
    // second and later lines need (multipv.hpp). The caller keeps the moves alive during the
    // search; the searcher forgets them when it returns.
    std::span<const std::uint16_t> excluded_root_moves;
    // A further search of the same question (MultiPV's later lines and depths): the tables
    // are neither aged nor marked as a new search, and the killers are kept.
    bool same_search = false;
};

class Stopwatch {
public:
    Stopwatch() : start_(std::chrono::steady_clock::now()) {}
    double elapsed_ms() const {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    }

private:
    std::chrono::steady_clock::time_point start_;
};

}  // namespace search
