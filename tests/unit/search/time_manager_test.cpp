// The time manager: the classic plan is the formula the in-process players always used; the
// tournament plan follows the game length and the search's stability; pondering holds every
// limit until ponderhit; and the UCI front end answers a pondering search only after
// ponderhit or stop.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "common/search/time_manager.hpp"
#include "loa/engine/frontends.hpp"
#include "loa/engine/gtp_clock.hpp"
#include "loa/engine/session.hpp"
#include "loa/game.hpp"

namespace search {
namespace {

ClockLimits sudden_death(double left_ms, double inc_ms = 0, double expected_moves = 0) {
    ClockLimits c;
    c.time_left_ms = left_ms;
    c.increment_ms = inc_ms;
    c.expected_moves_left = expected_moves;
    return c;
}

// The expected moves of a LOA game that has lasted `plies` plies under the given rules (a game
// picked up mid-way: only the ply count matters).
double expected_moves_after(int plies, const loa::RuleSet& rules = {}) {
    return loa::expected_moves_left(loa::Game(loa::Position::start(), rules, plies));
}

IterationReport report(int depth, int score, std::uint16_t best, double elapsed, int root_moves = 30) {
    return {depth, score, best, root_moves, elapsed};
}

TEST(TimeManager, ClassicIsTheOldSlice) {
    // slice = left / 30 + 0.8 inc; no new iteration after 0.6 slice; hard min(2.5 slice, left/3 - 5).
    TimeManager tm(sudden_death(30'000, 500), 0, TimePolicy::Classic);
    const double slice = 30'000.0 / 30 + 400;
    EXPECT_DOUBLE_EQ(tm.optimum_ms(), slice);
    EXPECT_DOUBLE_EQ(tm.maximum_ms(), 2.5 * slice);
    EXPECT_FALSE(tm.stop_after_iteration(report(5, 0, 1, 0.59 * slice)));
    EXPECT_TRUE(tm.stop_after_iteration(report(6, 0, 1, 0.61 * slice)));
    EXPECT_FALSE(tm.must_stop(2.49 * slice));
    EXPECT_TRUE(tm.must_stop(2.5 * slice));
    // Little time left and a large increment: the hard limit is a third of what is left.
    TimeManager low(sudden_death(600, 1000), 0, TimePolicy::Classic);
    EXPECT_DOUBLE_EQ(low.maximum_ms(), 600.0 / 3 - 5);
    // The overhead is kept back.
    TimeManager with_overhead(sudden_death(30'000), 30, TimePolicy::Classic);
    EXPECT_DOUBLE_EQ(with_overhead.optimum_ms(), (30'000.0 - 30) / 30);
}

// An anytime search (MCTS) stops at its target, not 0.6 of it: there is no next iteration to
// overshoot. A fixed time a move is used whole; a clock's target follows the reports' stability
// as the iterations' does; a single legal move stops at once; pondering never stops.
TEST(TimeManager, AnAnytimeSearchStopsAtItsTarget) {
    TimeManager tm(sudden_death(60'000, 0, 30), 0, TimePolicy::Tournament);
    const double target = tm.optimum_ms();
    tm.anytime_report(report(3, 10, 7, 1));
    EXPECT_FALSE(tm.anytime_stop(0.9 * target));
    // A new best move and a dropped score stretch it, as after an iteration.
    tm.anytime_report(report(4, -100, 9, 2));
    ASSERT_GT(tm.maximum_ms(), 1.5 * target);
    EXPECT_FALSE(tm.anytime_stop(1.5 * target));
    EXPECT_TRUE(tm.anytime_stop(tm.maximum_ms()));
    TimeManager single(sudden_death(60'000), 0, TimePolicy::Tournament);
    single.anytime_report(report(1, 0, 7, 1, /*root_moves=*/1));
    EXPECT_TRUE(single.anytime_stop(0.5));
    ClockLimits fixed;
    fixed.move_time_ms = 1000;
    TimeManager per_move(fixed, 30, TimePolicy::Tournament);
    per_move.anytime_report(report(3, 0, 7, 1));
    EXPECT_FALSE(per_move.anytime_stop(960));
    EXPECT_TRUE(per_move.anytime_stop(970));
    ClockLimits pondering = sudden_death(60'000);
    pondering.ponder = true;
    TimeManager ponder(pondering, 0, TimePolicy::Tournament);
    ponder.anytime_report(report(3, 0, 7, 1));
    EXPECT_FALSE(ponder.anytime_stop(1e9));
    ponder.ponderhit();
    EXPECT_TRUE(ponder.anytime_stop(ponder.maximum_ms()));
    // The default timer plans nothing.
    struct Plain final : SearchTimer {
        bool stop_after_iteration(const IterationReport&) override { return false; }
        bool must_stop(double) const override { return false; }
    } plain;
    plain.anytime_report(report(1, 0, 1, 1));
    EXPECT_FALSE(plain.anytime_stop(1e12));
}

TEST(TimeManager, NoClockNoTimer) {
    ClockLimits depth_only;
    depth_only.depth = 7;
    TimeManager tm(depth_only, 30, TimePolicy::Tournament);
    EXPECT_FALSE(tm.timed());
    EXPECT_EQ(tm.limits().timer, nullptr);
    EXPECT_EQ(tm.limits().depth, 7);
    ClockLimits infinite = sudden_death(1000);
    infinite.infinite = true;
    EXPECT_EQ(TimeManager(infinite, 30, TimePolicy::Classic).limits().timer, nullptr);
}

TEST(TimeManager, TournamentSpendsMoreEarlyAndNeverTooMuch) {
    const double half_hour = 30 * 60 * 1000.0;
    TimeManager opening(sudden_death(half_hour, 0, 32), 50, TimePolicy::Tournament);
    TimeManager late(sudden_death(half_hour, 0, 12), 50, TimePolicy::Tournament);
    EXPECT_NEAR(opening.optimum_ms(), (half_hour - 50) / 32, 1e-6);
    EXPECT_NEAR(late.optimum_ms(), (half_hour - 50) / 12, 1e-6);  // at least 12 moves expected
    for (const TimeManager* tm : {&opening, &late}) {
        EXPECT_LE(tm->maximum_ms(), 0.3 * (half_hour - 50) + 1e-9);
        EXPECT_LE(tm->optimum_ms(), tm->maximum_ms());
    }
    // Whatever the ply, a move never gets more than 30% of what is left: sudden death is
    // never lost on time by the plan (each move leaves at least 70%).
    for (double moves : {0.0, 0.5, 1.0, 2.0, 12.0, 32.0, 100.0}) {
        TimeManager tm(sudden_death(1000, 0, moves), 0, TimePolicy::Tournament);
        EXPECT_LE(tm.maximum_ms(), 300.0) << moves;
    }
    // Unknown game length: 30 moves.
    EXPECT_NEAR(TimeManager(sudden_death(30'000), 0, TimePolicy::Tournament).optimum_ms(), 1000, 1e-9);
}

// The tm_* keys move the constants the plans above were written with, and the defaults are them
// (`full` plays the values SPSA tuned, preset token `tuned`).
TEST(TimeManager, TuningKeysMoveTheConstants) {
    EXPECT_EQ(variant::parse_variant("preset=pvs+tt").time_tuning, TimeTuning{});
    EXPECT_EQ(variant::parse_variant("preset=full,tm_start=60,tm_max=400,tm_stable=60").time_tuning, TimeTuning{});
    const TimeTuning tuned = variant::parse_variant("preset=full,tm_start=50,tm_max=250,tm_stable=80").time_tuning;
    const double left = 60'000;
    TimeManager standard(sudden_death(left, 0, 22), 0, TimePolicy::Tournament);
    TimeManager changed(sudden_death(left, 0, 22), 0, TimePolicy::Tournament, tuned);
    const double slice = left / 22;
    EXPECT_DOUBLE_EQ(standard.optimum_ms(), slice);
    EXPECT_DOUBLE_EQ(changed.optimum_ms(), slice);
    EXPECT_DOUBLE_EQ(standard.maximum_ms(), 4.0 * slice);   // tm_max=400
    EXPECT_DOUBLE_EQ(changed.maximum_ms(), 2.5 * slice);    // tm_max=250
    // No new iteration past tm_start of the target: 0.55 of the slice is past 0.5, not 0.6.
    EXPECT_FALSE(standard.stop_after_iteration(report(1, 20, 7, 0.55 * slice)));
    EXPECT_TRUE(changed.stop_after_iteration(report(1, 20, 7, 0.55 * slice)));
    // One move best throughout: from depth 6 on the target is tm_stable of the slice, so 0.38
    // slice is past 0.6 x 0.6 (the defaults) but not past 0.5 x 0.8 (tuned).
    auto stopped_at = [&](const TimeTuning& tuning) {
        TimeManager tm(sudden_death(left, 0, 22), 0, TimePolicy::Tournament, tuning);
        for (int d = 1; d <= 12; ++d)
            if (tm.stop_after_iteration(report(d, 20, 7, 0.38 * slice))) return d;
        return 0;
    };
    EXPECT_EQ(stopped_at(TimeTuning{}), 6);
    EXPECT_EQ(stopped_at(tuned), 0);
    EXPECT_THROW(variant::parse_variant("tm_max=50"), common::InputError);
}

TEST(TimeManager, LoaExpectsFewerMovesAsTheGameGoesOn) {
    // The game side's estimate: 24 moves at the start, 0.4 of a move less per ply, at least
    // 8; a ply limit caps it at the moves the side to move can still make.
    EXPECT_DOUBLE_EQ(expected_moves_after(0), 24);
    EXPECT_DOUBLE_EQ(expected_moves_after(20), 16);
    EXPECT_DOUBLE_EQ(expected_moves_after(40), 8);
    EXPECT_DOUBLE_EQ(expected_moves_after(120), 8);
    loa::RuleSet limited;
    limited.ply_limit = 50;
    EXPECT_DOUBLE_EQ(expected_moves_after(40, limited), 5);   // 10 plies left: 5 of ours
    EXPECT_DOUBLE_EQ(expected_moves_after(49, limited), 1);   // the last ply is ours
}

TEST(TimeManager, TournamentExtendsOnInstabilityAndCutsWhenOneMoveDominates) {
    const double left = 60'000;
    // Stable best move from depth 1 to 8: the target shrinks once it has held four iterations
    // (from depth 6 on), so the search stops earlier than the plain slice would.
    TimeManager stable(sudden_death(left, 0, 22), 0, TimePolicy::Tournament);
    const double slice = stable.optimum_ms();
    int stopped_at = 0;
    for (int d = 1; d <= 12 && !stopped_at; ++d)
        if (stable.stop_after_iteration(report(d, 20, 7, 0.4 * slice + d))) stopped_at = d;
    EXPECT_EQ(stopped_at, 6);  // 0.4 slice >= 0.6 * 0.6 slice once the move has held from depth 3 to 6

    // The best move changes every iteration: the same elapsed time is no reason to stop.
    TimeManager unstable(sudden_death(left, 0, 22), 0, TimePolicy::Tournament);
    EXPECT_FALSE(unstable.stop_after_iteration(report(1, 20, 1, 0)));
    for (int d = 2; d <= 12; ++d)
        EXPECT_FALSE(unstable.stop_after_iteration(report(d, 20, static_cast<std::uint16_t>(d), 0.7 * slice))) << d;
    EXPECT_TRUE(unstable.stop_after_iteration(report(13, 20, 99, unstable.maximum_ms())));

    // A score drop of 80 centi-units extends the target too.
    TimeManager dropping(sudden_death(left, 0, 22), 0, TimePolicy::Tournament);
    EXPECT_FALSE(dropping.stop_after_iteration(report(1, 100, 5, 0)));
    EXPECT_FALSE(dropping.stop_after_iteration(report(2, 20, 5, 0.7 * slice)));

    // One legal move: played at once.
    TimeManager forced(sudden_death(left, 0, 22), 0, TimePolicy::Tournament);
    EXPECT_TRUE(forced.stop_after_iteration(report(1, 0, 3, 0.1, 1)));
}

TEST(TimeManager, TournamentLeavesAFixedTimeAMoveAsAsked) {
    // Under movetime both policies stop at the same points: the tournament plan shapes only a
    // clock's time, and a single legal move still gets its search.
    ClockLimits c;
    c.move_time_ms = 1000;
    TimeManager classic(c, 30, TimePolicy::Classic), tournament(c, 30, TimePolicy::Tournament);
    EXPECT_DOUBLE_EQ(tournament.maximum_ms(), classic.maximum_ms());
    for (int d = 1; d <= 12; ++d) {
        const auto it = report(d, 20, 7, 40.0 * d, d == 1 ? 1 : 30);  // the same move best throughout
        EXPECT_EQ(tournament.stop_after_iteration(it), classic.stop_after_iteration(it)) << d;
    }
    EXPECT_TRUE(classic.stop_after_iteration(report(11, 20, 7, 440)));  // 0.45 of the time: no new iteration
}

TEST(TimeManager, TournamentFollowsStabilityWhilePondering) {
    // Four iterations of the same best move while pondering: at ponderhit the move already
    // dominates, and the shrunk target stops the search where a fresh plan would go on.
    const double left = 60'000;
    ClockLimits c = sudden_death(left, 0, 22);
    c.ponder = true;
    TimeManager pondered(c, 0, TimePolicy::Tournament);
    const double slice = pondered.optimum_ms();
    for (int d = 1; d <= 6; ++d) EXPECT_FALSE(pondered.stop_after_iteration(report(d, 20, 7, 0.01 * d)));
    pondered.ponderhit();
    EXPECT_TRUE(pondered.stop_after_iteration(report(7, 20, 7, 0.4 * slice)));
    TimeManager fresh(sudden_death(left, 0, 22), 0, TimePolicy::Tournament);
    EXPECT_FALSE(fresh.stop_after_iteration(report(7, 20, 7, 0.4 * slice)));
}

TEST(TimeManager, PonderingHoldsEveryLimitUntilPonderhit) {
    ClockLimits c = sudden_death(3000);
    c.ponder = true;
    TimeManager tm(c, 0, TimePolicy::Classic);
    EXPECT_FALSE(tm.must_stop(1e9));
    EXPECT_FALSE(tm.stop_after_iteration(report(30, 0, 1, 1e9)));
    tm.ponderhit();
    EXPECT_TRUE(tm.must_stop(1e9));  // counted from the start of the search: answers at once
    EXPECT_TRUE(tm.stop_after_iteration(report(31, 0, 1, 1e9)));
}

TEST(TimeManager, SessionPondersUntilPonderhit) {
    loa::engine::Session session;
    ClockLimits c = sudden_death(200);  // a 200 ms clock: a plain search would stop within 70 ms
    c.ponder = true;
    std::atomic<bool> done{false};
    session.start(c, {}, [&](const loa::engine::Result&) { done = true; }, {});
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_FALSE(done.load());  // still pondering
    session.ponderhit();
    const auto before = std::chrono::steady_clock::now();
    session.wait();
    EXPECT_TRUE(done.load());
    using Ms = std::chrono::duration<double, std::milli>;
    EXPECT_LT(Ms(std::chrono::steady_clock::now() - before).count(), 2000.0);
}

TEST(TimeManager, UciPonderAnswersAfterPonderhitWithAPonderMove) {
    std::istringstream in("position startpos\ngo ponder depth 4\nponderhit\n");
    std::ostringstream out;
    loa::engine::Output output(out);
    EXPECT_EQ(loa::engine::run_uci(in, output), 0);
    EXPECT_NE(out.str().find("bestmove "), std::string::npos) << out.str();
    EXPECT_NE(out.str().find(" ponder "), std::string::npos) << out.str();

    std::istringstream bad("setoption name timeman value sometimes\n");
    std::ostringstream bad_out;
    loa::engine::Output bad_output(bad_out);
    loa::engine::run_uci(bad, bad_output);
    EXPECT_NE(bad_out.str().find("timeman"), std::string::npos) << bad_out.str();
}

}  // namespace
}  // namespace search
