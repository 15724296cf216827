// Turns a clock situation into a time plan for one move, and watches the search while it runs.
//
// Two policies, a switch (search key timeman=classic|tournament) so that they can be compared:
//  classic:    a fixed slice of what is left (1/30, or 1/moves-to-go) plus most of the
//              increment; no new iteration after 0.6 of the slice, a hard stop at 2.5 slices
//              (at most a third of what is left).
//  tournament: for long sudden-death games (the Computer Olympiad's 30 minutes a side): the
//              slice comes from the moves a game of this length still expects; after each
//              iteration the target grows when the best move has just changed or the score has
//              dropped, and shrinks when one move has stayed best for several iterations; a
//              single legal move is played at once.
// Both keep a fixed overhead back for the process and the protocol, and the hard limit is a
// fraction of what is left, so that the engine never loses on time.
//
// Pondering: a search started with `ponder` set has no time limit until ponderhit(); from then
// on the plan counts from the start of the search (time spent pondering is a head start), so an
// engine that has already searched long enough answers at once.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "common/search/config.hpp"
#include "common/search/limits.hpp"
#include "common/search/score.hpp"

namespace search {

struct ClockLimits {
    int depth = 0;
    std::uint64_t nodes = 0;
    double move_time_ms = 0;   // fixed time per move
    double time_left_ms = -1;  // sudden death: < 0 when not given
    double increment_ms = 0;
    int moves_to_go = 0;       // 0: unknown, sudden death
    bool infinite = false;
    bool ponder = false;       // think on the opponent's time until ponderhit()
    // The game's estimate of the moves the side to move still has to make (tournament plan);
    // 0: unknown, taken as 30. It comes from the game side: only the game knows how long its
    // games last.
    double expected_moves_left = 0;
};

class TimeManager final : public SearchTimer {
public:
    TimeManager(const ClockLimits& clock, double overhead_ms, TimePolicy policy, const TimeTuning& tuning = {})
        : clock_(clock),
          policy_(policy),
          // A fixed time a move is not tuned: no new iteration after 0.45 of it, whatever tm_start.
          start_fraction_(clock.move_time_ms > 0 ? 0.6 : tuning.start_percent / 100.0),
          max_slices_(tuning.max_slice_percent / 100.0),
          stable_factor_(tuning.stable_percent / 100.0),
          pondering_(clock.ponder) {
        if (clock.move_time_ms > 0) {
            maximum_ms_ = std::max(1.0, clock.move_time_ms - overhead_ms);
            optimum_ms_ = 0.45 * maximum_ms_ / start_fraction_;  // no new iteration after 0.45 of the time
            timed_ = true;
        } else if (clock.time_left_ms >= 0) {
            plan_sudden_death(std::max(0.0, clock.time_left_ms - overhead_ms));
            timed_ = true;
        }
        timed_ = timed_ && !clock.infinite;
    }

    // The limits for Searcher::search: depth and nodes from the clock, this object as the
    // timer when time counts.
    SearchLimits limits() {
        SearchLimits l;
        l.depth = clock_.depth;
        l.nodes = clock_.nodes;
        if (timed_) l.timer = this;
        return l;
    }

    double optimum_ms() const { return optimum_ms_; }
    double maximum_ms() const { return maximum_ms_; }
    bool timed() const { return timed_; }
    void ponderhit() { pondering_.store(false, std::memory_order_relaxed); }

    double target_ms() const override { return timed_ ? optimum_ms_ : 0; }

    bool must_stop(double elapsed_ms) const override {
        return !pondering_.load(std::memory_order_relaxed) && elapsed_ms >= maximum_ms_;
    }

    bool stop_after_iteration(const IterationReport& it) override {
        // The tournament plan shapes a clock's time; a fixed time a move stays as asked.
        const bool tournament = policy_ == TimePolicy::Tournament && clock_.move_time_ms <= 0;
        // Stability is followed while pondering too, so that it is known at ponderhit.
        const double stability = tournament ? stability_factor(it) : 1.0;
        if (pondering_.load(std::memory_order_relaxed)) return false;
        if (tournament && it.root_moves == 1) return true;  // nothing to choose
        const double target = optimum_ms_ * stability;
        // The next iteration takes about as long as everything so far, times the branching
        // factor: starting it past start_fraction_ of the target would overshoot.
        return it.elapsed_ms >= std::min(start_fraction_ * target, maximum_ms_);
    }

    // An anytime search stops at its target itself: there is no next iteration to overshoot.
    // A fixed time a move is used whole; a clock's target grows and shrinks with the reports
    // as the iterations' does.
    void anytime_report(const IterationReport& it) override {
        const bool tournament = policy_ == TimePolicy::Tournament && clock_.move_time_ms <= 0;
        anytime_factor_ = tournament ? stability_factor(it) : 1.0;
        anytime_single_move_ = tournament && it.root_moves == 1;
    }
    bool anytime_stop(double elapsed_ms) const override {
        if (!timed_ || pondering_.load(std::memory_order_relaxed)) return false;
        if (anytime_single_move_) return true;
        const double target = clock_.move_time_ms > 0 ? maximum_ms_ : std::min(optimum_ms_ * anytime_factor_, maximum_ms_);
        return elapsed_ms >= target;
    }

private:
    void plan_sudden_death(double left) {
        const double inc = clock_.increment_ms;
        if (policy_ == TimePolicy::Classic) {
            const double moves = clock_.moves_to_go > 0 ? std::min(clock_.moves_to_go, 30) : 30;
            const double slice = left / moves + 0.8 * inc;
            optimum_ms_ = std::max(1.0, slice);
            maximum_ms_ = std::max(1.0, std::min(2.5 * slice, left / 3 - 5));
        } else {
            const double expected = clock_.expected_moves_left > 0 ? std::max(1.0, clock_.expected_moves_left) : 30.0;
            const double moves = clock_.moves_to_go > 0 ? std::min<double>(clock_.moves_to_go, expected) : expected;
            const double slice = left / moves + 0.8 * inc;
            optimum_ms_ = std::max(1.0, slice);
            maximum_ms_ = std::max(1.0, std::min(max_slices_ * slice, 0.3 * left));
        }
        optimum_ms_ = std::min(optimum_ms_, maximum_ms_);
    }

    // > 1 after a change of the best move (decaying over the next iterations) or a drop of the
    // score; < 1 once the same move has been best for four iterations in a row.
    double stability_factor(const IterationReport& it) {
        const bool changed = iterations_ > 0 && it.best_move != last_best_;
        instability_ = instability_ * 0.5 + (changed ? 1.0 : 0.0);
        stable_iterations_ = changed || iterations_ == 0 ? 1 : stable_iterations_ + 1;
        double drop_factor = 1.0;
        if (iterations_ > 0 && !is_decisive(it.score) && !is_decisive(last_score_)) {
            const Score drop = last_score_ - it.score;
            drop_factor = drop >= 80 ? 1.6 : drop >= 30 ? 1.3 : 1.0;
        }
        last_best_ = it.best_move;
        last_score_ = it.score;
        ++iterations_;
        const double stable_factor = stable_iterations_ >= 4 && it.depth >= 6 ? stable_factor_ : 1.0;
        return std::clamp((1.0 + 0.8 * instability_) * drop_factor * stable_factor, 0.4, 3.0);
    }

    ClockLimits clock_;
    TimePolicy policy_;
    double start_fraction_, max_slices_, stable_factor_;  // TimeTuning's, as fractions
    std::atomic<bool> pondering_;
    bool timed_ = false;
    double optimum_ms_ = 0;
    double maximum_ms_ = 0;
    // what the last iterations said (tournament policy)
    int iterations_ = 0;
    std::uint16_t last_best_ = 0;
    Score last_score_ = 0;
    double instability_ = 0;
    int stable_iterations_ = 0;
    double anytime_factor_ = 1.0;  // the stability factor of the last anytime report
    bool anytime_single_move_ = false;
};

}  // namespace search
