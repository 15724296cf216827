// MultiPV: the best N root moves, each with its own score and principal variation, depth by
// depth. Line k at depth d is a search of depth d that leaves out the first moves of lines
// 1..k-1 (SearchLimits::excluded_root_moves), so each line's score is what a single search of
// that depth finds among the moves that are left: with an exact search (no pruning, no table)
// the k-th best minimax value, tested against the rules oracle. The lines of a depth are
// reported together once all are found, ordered by score (a table or a pruned search can rate
// a later line above an earlier one; the order then follows the scores, as GUIs expect).
//
// Each line's search deepens from depth 1 again, as one search of the same `go`
// (SearchLimits::same_search: the table, history and killers carry over, nothing is aged),
// which costs more than one search of N lines would: MultiPV is for analysis.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "common/search/limits.hpp"
#include "common/search/search.hpp"

namespace search {

// The clock of a line's search, as the whole MultiPV search's timer sees it: the time already
// spent comes first, and the timer decides between depths only (a line is never cut short by
// an iteration-end decision, only by the timer's hard limit).
class LineTimer final : public SearchTimer {
public:
    LineTimer(SearchTimer& whole, double offset_ms) : whole_(whole), offset_ms_(offset_ms) {}
    bool stop_after_iteration(const IterationReport&) override { return false; }
    bool must_stop(double elapsed_ms) const override { return whole_.must_stop(elapsed_ms + offset_ms_); }
    double target_ms() const override { return whole_.target_ms(); }

private:
    SearchTimer& whole_;
    double offset_ms_;
};

// Searches `root` for `lines` lines (>= 1; fewer when the root has fewer moves) within `limits`
// (depth, nodes, times, the stop flag and the timer hold for the whole search; the timer
// decides between depths). `on_depth` gets each depth's lines, best first, multipv 1..n: all
// of them, or, when a limit stops the search inside a depth, the lines that depth completed
// (line 1 of a depth is a search of every move, so it is worth more than the depth before).
// The result is the best of the last lines reported, with that line's own search result (its
// move, score, PV); nodes, seldepth and time count every search run, the other statistics are
// the last line 1's. Stopped before any line was complete, the result is the interrupted
// first line's (a legal move, as a single search stopped early gives). `S` is a searcher
// (Searcher, ParallelSearcher) with search(root, limits, history) -> SearchResult.
template <class S>
SearchResult<typename S::Move> search_multipv(
    S& searcher, const typename S::Position& root, const SearchLimits& limits, std::span<const std::uint64_t> history,
    int lines, const std::function<void(const std::vector<Iteration<typename S::Move>>&)>& on_depth = {}) {
    using Move = typename S::Move;
    const Stopwatch clock;
    std::optional<SearchResult<Move>> best;
    SearchStats total;
    int root_moves = 0;  // for the timer: the lines found, 1 only when the root has a single move
    bool first_search = true;
    const int max_depth = limits.depth > 0 ? std::min(limits.depth, MaxPly - 2) : MaxPly - 2;
    for (int depth = 1; depth <= max_depth; ++depth) {
        // The caller's own exclusions (UCI's searchmoves) hold for every line.
        std::vector<std::uint16_t> excluded(limits.excluded_root_moves.begin(), limits.excluded_root_moves.end());
        std::vector<SearchResult<Move>> found;  // this depth's complete lines, in the order searched
        bool stopped = false;
        for (int k = 0; k < std::max(1, lines); ++k) {
            const double elapsed = clock.elapsed_ms();
            // The limits of the whole search, checked before each line as a search checks
            // them before each node; but the first line always starts, as a one-line search
            // does, so that a search stopped at once still has a legal move to play (the
            // searcher stops within its first nodes and names one).
            const bool nothing_to_play = !best && k == 0;
            if (!nothing_to_play &&
                ((limits.stop && limits.stop->load(std::memory_order_relaxed)) ||
                 (limits.hard_time_ms > 0 && elapsed >= limits.hard_time_ms) || (limits.nodes > 0 && total.nodes >= limits.nodes) ||
                 (limits.timer && limits.timer->must_stop(elapsed)))) {
                stopped = true;
                break;
            }
            SearchLimits line = limits;
            line.depth = depth;
            line.excluded_root_moves = excluded;
            line.same_search = limits.same_search || !first_search;
            line.soft_time_ms = 0;  // between depths only, below
            // (A first line started past the hard limit still gets one: 0 would mean none.)
            if (limits.hard_time_ms > 0) line.hard_time_ms = std::max(limits.hard_time_ms - elapsed, 0.001);
            if (limits.nodes > 0) line.nodes = limits.nodes - total.nodes;
            std::optional<LineTimer> timer;
            line.timer = limits.timer ? &timer.emplace(*limits.timer, elapsed) : nullptr;
            SearchResult<Move> r = searcher.search(root, line, history);
            first_search = false;
            total.nodes += r.stats.nodes;
            total.seldepth = std::max(total.seldepth, r.stats.seldepth);
            if (r.best_move == Move::none()) break;  // every move is in a line already (or none at all)
            // A search ends before its depth when a limit stopped it, or when the game is decided
            // within the depth it reached (more depth cannot change that).
            const bool complete = r.depth == depth || (r.depth > 0 && is_decisive(r.score) && plies_to_end(r.score) <= r.depth);
            if (!complete) {
                if (!best && k == 0) best = std::move(r);  // nothing better to play
                stopped = true;
                break;
            }
            excluded.push_back(r.best_move.raw());
            found.push_back(std::move(r));
        }
        if (found.empty()) break;
        root_moves = std::max(root_moves, static_cast<int>(found.size()));
        std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.score > b.score; });
        const double now = clock.elapsed_ms();
        std::vector<Iteration<Move>> reported;
        for (std::size_t i = 0; i < found.size(); ++i) {
            Iteration<Move> it = found[i].iterations.back();
            it.depth = depth;
            it.multipv = static_cast<int>(i) + 1;
            it.nodes = total.nodes;
            it.time_ms = now;
            reported.push_back(std::move(it));
        }
        if (on_depth) on_depth(reported);
        best = std::move(found.front());
        best->depth = depth;
        best->iterations.assign(1, reported.front());
        if (stopped) break;
        if (limits.soft_time_ms > 0 && now >= limits.soft_time_ms) break;
        if (limits.timer && limits.timer->stop_after_iteration({depth, best->score, best->best_move.raw(), root_moves, now})) break;
        // Every line decided within the depth: more depth changes nothing.
        if (std::ranges::all_of(reported, [&](const auto& it) { return is_decisive(it.score) && plies_to_end(it.score) <= depth; }))
            break;
    }
    SearchResult<Move> result = best ? std::move(*best) : SearchResult<Move>{};
    result.stats.nodes = total.nodes;
    result.stats.seldepth = total.seldepth;
    result.stats.time_ms = clock.elapsed_ms();
    return result;
}

}  // namespace search
