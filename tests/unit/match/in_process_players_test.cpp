// InProcessPlayers: an engine in process given a clock below zero still searches with a time limit.
#include <gtest/gtest.h>

#include "loa/game.hpp"
#include "loa/movegen.hpp"
#include "matches/engine_spec.hpp"
#include "matches/player.hpp"

namespace matches {
namespace {

// In process, a clock below zero (an overrun within the margin) once read as "no clock" to
// the time manager, which then searched without any limit.
TEST(InProcessPlayers, AClockBelowZeroStillGivesTheSearchATimeLimit) {
    EngineSpec spec = parse_engine_spec("name=x,preset=full,tc=1+0.01", 0);
    spec.nodes = 200000;  // a backstop, so that a failure of this test is not a hang
    InProcessPlayer player(spec, loa::RuleSet{});
    const loa::Game game;
    const MoveChoice choice = player.choose(game, ClockState{-3, 10, 50});
    EXPECT_GT(choice.hard_limit_ms, 0);
    EXPECT_LT(choice.hard_limit_ms, 10);
    EXPECT_TRUE(loa::is_legal(game.position(), choice.move));
}

}  // namespace
}  // namespace matches
