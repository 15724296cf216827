// MultiPV: the best N root moves, each with its own score and principal variation, depth by
// depth. Line k at depth d is a search of depth d that leaves out the first moves of lines
// 1..k-1 (SearchLimits::excluded_root_moves), so each line's score is what a single search of
// that depth finds among the moves that are left: with an exact search (no pruning, no table)
// the k-th best minimax value, tested against the rules oracle. The lines of a depth are
// reported together once all are found, ordered by score (a table or a pruned search can rate
// a later line above an earlier one; the order then follows the scores, as GUIs expect).
//
// Each line's search deepens from depth 1 again (its table, history and killers warm from the
// lines before), which costs more than one search of N lines would: MultiPV is for analysis.
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
// an iteration-end decision, only by the hard limit).
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
// (depth, nodes and times for the whole search; the timer decides between depths). `on_depth`
// gets each completed depth's lines, best first, multipv 1..n. The result is line 1 of the
// deepest completed depth, its statistics those of every search run; its iterations are line
// 1's. Stopped before its first depth was complete, the result is the interrupted first line's
// (a legal move, as a single search stopped early gives). `S` is a searcher (Searcher,
// ParallelSearcher) with search(root, limits, history) -> SearchResult.
template <class S>
SearchResult<typename S::Move> search_multipv(
    S& searcher, const typename S::Position& root, const SearchLimits& limits, std::span<const std::uint64_t> history,
    int lines, const std::function<void(const std::vector<Iteration<typename S::Move>>&)>& on_depth = {}) {
    using Move = typename S::Move;
    const Stopwatch clock;
    SearchResult<Move> best;
    bool have_depth = false;
    SearchStats total;
    const int max_depth = limits.depth > 0 ? std::min(limits.depth, MaxPly - 2) : MaxPly - 2;
    for (int depth = 1; depth <= max_depth; ++depth) {
        std::vector<std::uint16_t> excluded;
        std::vector<Iteration<Move>> found;
        std::optional<SearchResult<Move>> first;
        bool stopped = false;
        for (int k = 0; k < std::max(1, lines); ++k) {
            SearchLimits line = limits;
            line.depth = depth;
            line.excluded_root_moves = excluded;
            line.soft_time_ms = 0;  // between depths only, below
            const double elapsed = clock.elapsed_ms();
            if (limits.hard_time_ms > 0) {
                if (elapsed >= limits.hard_time_ms) {
                    stopped = true;
                    break;
                }
                line.hard_time_ms = limits.hard_time_ms - elapsed;
            }
            if (limits.nodes > 0) {
                if (total.nodes >= limits.nodes) {
                    stopped = true;
                    break;
                }
                line.nodes = limits.nodes - total.nodes;
            }
            std::optional<LineTimer> timer;
            if (limits.timer) line.timer = &timer.emplace(*limits.timer, elapsed);
            SearchResult<Move> r = searcher.search(root, line, history);
            total.nodes += r.stats.nodes;
            total.seldepth = std::max(total.seldepth, r.stats.seldepth);
            if (r.best_move == Move::none()) break;  // every move is in a line already (or none at all)
            // A search ends before its depth when a limit stopped it, or when the game is decided
            // within the depth it reached (more depth cannot change that).
            const bool complete = r.depth == depth || (r.depth > 0 && is_decisive(r.score) && plies_to_end(r.score) <= r.depth);
            if (!complete) {
                if (!have_depth && k == 0) best = std::move(r);  // nothing better to play
                stopped = true;
                break;
            }
            Iteration<Move> it = r.iterations.back();
            it.depth = depth;
            found.push_back(std::move(it));
            excluded.push_back(r.best_move.raw());
            if (k == 0) first = std::move(r);
        }
        if (stopped || found.empty()) break;  // a depth is reported whole or not at all
        std::stable_sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.score > b.score; });
        const double now = clock.elapsed_ms();
        for (std::size_t i = 0; i < found.size(); ++i) {
            found[i].multipv = static_cast<int>(i) + 1;
            found[i].nodes = total.nodes;
            found[i].time_ms = now;
        }
        if (on_depth) on_depth(found);
        best = std::move(*first);
        best.depth = depth;
        best.score = found.front().score;
        best.pv = found.front().pv;
        best.best_move = best.pv.empty() ? best.best_move : best.pv.front();
        best.iterations.assign(1, found.front());
        have_depth = true;
        if (limits.soft_time_ms > 0 && now >= limits.soft_time_ms) break;
        if (limits.timer && limits.timer->stop_after_iteration({depth, best.score, best.best_move.raw(),
                                                                static_cast<int>(found.size()), now}))
            break;
        // Every line decided within the depth: more depth changes nothing.
        if (std::ranges::all_of(found, [&](const auto& it) { return is_decisive(it.score) && plies_to_end(it.score) <= depth; }))
            break;
    }
    best.stats.nodes = total.nodes;
    best.stats.seldepth = total.seldepth;
    best.stats.time_ms = clock.elapsed_ms();
    return best;
}

}  // namespace search
