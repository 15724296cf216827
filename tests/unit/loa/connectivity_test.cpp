// Connectivity: the groups of a position and whether a side is connected.
#include <gtest/gtest.h>

#include "loa/connectivity.hpp"
#include "loa/error.hpp"
#include "loa/game.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"

namespace loa {
namespace {

Bitboard squares(std::initializer_list<const char*> names) {
    Bitboard b = 0;
    for (const char* n : names) b |= square_bb(*parse_square(n));
    return b;
}

TEST(Connectivity, GroupsAndConnection) {
    EXPECT_TRUE(is_connected(squares({"d4"})));
    EXPECT_TRUE(is_connected(squares({"a1", "b2", "c3", "c4", "d5"})));  // diagonal steps count
    EXPECT_FALSE(is_connected(squares({"a1", "c1"})));
    EXPECT_FALSE(is_connected(squares({"a1", "b1", "h8", "g7"})));  // no isolated piece, two groups
    EXPECT_TRUE(is_connected(squares({"a8", "h1", "b7", "c6", "d5", "e4", "f3", "g2"})));
    EXPECT_FALSE(is_connected(squares({"h1", "a2"})));  // no wrap-around between files
    EXPECT_EQ(count_groups(squares({"a1", "b1", "h8", "g7", "d4"})), 3);
    EXPECT_EQ(count_groups(Position::start().pieces(Colour::Black)), 2);
}

}  // namespace
}  // namespace loa
