// The frontier decision: it follows the margins and spares nodes behind a threat.
#include <gtest/gtest.h>

#include "common/search/frontier.hpp"
#include "common/search/margin_probe.hpp"
#include "common/search/node_type.hpp"
#include "common/search/search.hpp"

namespace {

TEST(FrontierDecision, FollowsTheMarginsAndSparesNodesBehindAThreat) {
    using search::frontier_decision;
    constexpr search::FrontierMargins m{100, 200, 400};
    // Depth 1: futility when the evaluation + margin is at most alpha, even behind a threat.
    EXPECT_EQ(frontier_decision(1, -100, 0, false, m).prune_margin, 100);
    EXPECT_EQ(frontier_decision(1, -99, 0, false, m).prune_margin, 0);
    EXPECT_EQ(frontier_decision(1, -100, 0, true, m).prune_margin, 100);
    // Depth 2: extended futility, not behind a threat.
    EXPECT_EQ(frontier_decision(2, -200, 0, false, m).prune_margin, 200);
    EXPECT_EQ(frontier_decision(2, -199, 0, false, m).prune_margin, 0);
    EXPECT_EQ(frontier_decision(2, -500, 0, true, m).prune_margin, 0);
    // Depth 3: razoring to depth 2, then extended futility at depth 2; not behind a threat.
    const auto razored = frontier_decision(3, -400, 0, false, m);
    EXPECT_TRUE(razored.razor);
    EXPECT_EQ(razored.prune_margin, 200);
    EXPECT_FALSE(frontier_decision(3, -399, 0, false, m).razor);
    EXPECT_EQ(frontier_decision(3, -399, 0, false, m).prune_margin, 0);
    const auto behind_threat = frontier_decision(3, -1000, 0, true, m);
    EXPECT_FALSE(behind_threat.razor);
    EXPECT_EQ(behind_threat.prune_margin, 0);
    // Off margins do nothing; deeper nodes are never touched.
    EXPECT_EQ(frontier_decision(1, -1000, 0, false, {0, 200, 400}).prune_margin, 0);
    const auto no_razor = frontier_decision(3, -1000, 0, false, {100, 200, 0});
    EXPECT_FALSE(no_razor.razor);
    EXPECT_EQ(no_razor.prune_margin, 0);
    EXPECT_FALSE(frontier_decision(4, -1000, 0, false, m).razor);
}

}  // namespace
