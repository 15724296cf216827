// The frontier lift on the walk game: the largest step less the reply.
#include <gtest/gtest.h>

#include "common/search/frontier.hpp"
#include "common/search/margin_probe.hpp"
#include "common/search/node_type.hpp"
#include "common/search/search.hpp"
#include "common/variant/config.hpp"
#include "support/walk_game.hpp"

namespace {

// On the walk game the lift follows from the rules: two cells forward gain 20 at depth 1, and
// the opponent's reply of two cells takes it back at depth 2; near the end of the line less.
TEST(FrontierLift, OnTheWalkGameIsTheLargestStepLessTheReply) {
    using testing_walk::WalkGame;
    search::Searcher<WalkGame> searcher(WalkGame{}, variant::parse_variant("pvs"));
    const auto open = search::frontier_lift(searcher, testing_walk::WalkPosition{{0, 0}, 0}, 3);
    ASSERT_TRUE(open.has_value());
    EXPECT_EQ((*open)[0].lift, 20);
    EXPECT_EQ((*open)[1].lift, 0);
    EXPECT_EQ((*open)[2].lift, 20);
    for (const auto& at : *open) EXPECT_FALSE(at.forced_win);
    // One cell from the end: only a step forward (10) or back; the opponent still replies 20.
    const auto late = search::frontier_lift(searcher, testing_walk::WalkPosition{{WalkGame::Cells - 2, 0}, 0}, 2);
    ASSERT_TRUE(late.has_value());
    EXPECT_EQ((*late)[0].lift, 10);
    EXPECT_EQ((*late)[1].lift, -10);
}

}  // namespace
