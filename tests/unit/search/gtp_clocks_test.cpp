// GTP clocks: own time counted without time_left, Canadian byo-yomi periods of stones.
#include <gtest/gtest.h>

#include "common/search/time_manager.hpp"
#include "loa/engine/frontends.hpp"
#include "loa/engine/gtp_clock.hpp"
#include "loa/engine/session.hpp"
#include "loa/game.hpp"

namespace search {
namespace {

TEST(GtpClocks, CountOwnTimeWhenTheControllerSendsNoTimeLeft) {
    loa::engine::GtpClocks clocks;
    EXPECT_DOUBLE_EQ(clocks.plan(0).move_time_ms, 1000);  // no control: a second a move
    clocks.set_control(10'000, 100);
    ClockLimits plan = clocks.plan(0);
    EXPECT_DOUBLE_EQ(plan.time_left_ms, 10'000);
    EXPECT_DOUBLE_EQ(plan.increment_ms, 100);
    clocks.moved(0, plan, 2'500);
    EXPECT_DOUBLE_EQ(clocks.plan(0).time_left_ms, 7'600);  // 10 s - 2.5 s + the increment
    EXPECT_DOUBLE_EQ(clocks.plan(1).time_left_ms, 10'000); // the other side has not moved
    clocks.moved(0, clocks.plan(0), 9'000);                // an overrun: nothing left but the increment
    EXPECT_DOUBLE_EQ(clocks.plan(0).time_left_ms, 100);
    clocks.set_time_left(0, 4'000);                        // the controller's word wins
    EXPECT_DOUBLE_EQ(clocks.plan(0).time_left_ms, 4'000);
    clocks.forget();                                       // a new game
    EXPECT_DOUBLE_EQ(clocks.plan(0).time_left_ms, 10'000);

    clocks.set_control(0, 300);  // increment only: each move has the increment
    plan = clocks.plan(1);
    EXPECT_DOUBLE_EQ(plan.move_time_ms, 300);
    EXPECT_LT(plan.time_left_ms, 0);
}

TEST(GtpClocks, CanadianByoYomiCountsPeriodsOfStones) {
    // time_settings 10 30 5: 10 s main time, then 30 s for each 5 moves.
    loa::engine::GtpClocks clocks;
    clocks.set_byo_yomi(10'000, 30'000, 5);
    ClockLimits plan = clocks.plan(0);
    EXPECT_DOUBLE_EQ(plan.time_left_ms, 40'000);  // a move may run past the main time into a period
    EXPECT_EQ(plan.moves_to_go, 0);
    EXPECT_DOUBLE_EQ(plan.increment_ms, 0);
    clocks.moved(0, plan, 4'000);
    EXPECT_DOUBLE_EQ(clocks.plan(0).time_left_ms, 36'000);  // 6 s main + a period
    clocks.moved(0, clocks.plan(0), 8'000);                  // 6 s main, then 2 s of the first period
    plan = clocks.plan(0);
    EXPECT_DOUBLE_EQ(plan.time_left_ms, 28'000);
    EXPECT_EQ(plan.moves_to_go, 4);                          // that move was the period's first
    for (int move = 0; move < 3; ++move) clocks.moved(0, clocks.plan(0), 5'000);
    plan = clocks.plan(0);
    EXPECT_DOUBLE_EQ(plan.time_left_ms, 13'000);
    EXPECT_EQ(plan.moves_to_go, 1);
    clocks.moved(0, plan, 10'000);                           // the period's last move: a fresh period
    plan = clocks.plan(0);
    EXPECT_DOUBLE_EQ(plan.time_left_ms, 30'000);
    EXPECT_EQ(plan.moves_to_go, 5);
    // Every plan leaves the hard limit inside what the period has left.
    search::TimeManager tm(plan, 0, search::TimePolicy::Tournament);
    EXPECT_LE(tm.maximum_ms(), plan.time_left_ms);

    clocks.set_time_left(1, 12'000, 2);  // the controller's word: 12 s for 2 moves of a period
    plan = clocks.plan(1);
    EXPECT_DOUBLE_EQ(plan.time_left_ms, 12'000);
    EXPECT_EQ(plan.moves_to_go, 2);
    clocks.set_time_left(1, 3'000, 0);  // still in main time
    plan = clocks.plan(1);
    EXPECT_DOUBLE_EQ(plan.time_left_ms, 33'000);
    EXPECT_EQ(plan.moves_to_go, 0);
    clocks.forget();
    EXPECT_DOUBLE_EQ(clocks.plan(1).time_left_ms, 40'000);

    clocks.set_byo_yomi(0, 5'000, 0);  // the standard's "no time limits": a second a move
    EXPECT_DOUBLE_EQ(clocks.plan(0).move_time_ms, 1000);
    clocks.set_byo_yomi(60'000, 0, 0);  // absolute time
    plan = clocks.plan(0);
    EXPECT_DOUBLE_EQ(plan.time_left_ms, 60'000);
    EXPECT_EQ(plan.moves_to_go, 0);
}

}  // namespace
}  // namespace search
