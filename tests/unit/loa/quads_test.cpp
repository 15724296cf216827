// Quad counts: the Euler number counts groups minus holes.
#include <gtest/gtest.h>

#include "loa/error.hpp"
#include "loa/position_text.hpp"

namespace loa {
namespace {

TEST(Quads, EulerNumberCountsGroupsMinusHoles) {
    auto euler = [](const char* text) { return euler_numerator(Position::from_text(text).pieces(Colour::Black)) / 4; };
    EXPECT_EQ(euler("b7/8/8/8/8/8/8/7w b"), 1);              // one piece
    EXPECT_EQ(euler("b1b5/8/8/8/8/8/8/7w b"), 2);            // two apart
    EXPECT_EQ(euler("bb6/8/8/8/8/8/8/7w b"), 1);             // two touching
    EXPECT_EQ(euler("b7/1b6/8/8/8/8/8/7w b"), 1);            // diagonal touch is a connection
    EXPECT_EQ(euler("8/8/8/2bbb3/2b1b3/2bbb3/8/7w b"), 0);   // a ring: one group, one hole
    EXPECT_EQ(euler("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b"), 2);
    const QuadCounts q = count_quads(square_bb(0));
    EXPECT_EQ(q.q1, 4);
    EXPECT_EQ(q.q3, 0);
    EXPECT_EQ(q.qd, 0);
    EXPECT_TRUE(Position::start().surely_split(Colour::Black));
}

}  // namespace
}  // namespace loa
