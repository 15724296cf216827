// The rules oracle's flood fill (rules_minimax.hpp): connection by hand-made positions.
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <string>

#include "loa/bitboard.hpp"
#include "loa/colour.hpp"
#include "loa/move.hpp"
#include "loa/movegen.hpp"
#include "loa/position.hpp"
#include "support/hand_positions.hpp"
#include "support/rules_minimax.hpp"

namespace {

using loa::Colour;
using loa::Position;
using loa::testing::squares;

// ---------------------------------------------------------------------------------------------
// The flood fill.

TEST(RulesOracleConnected, FloodFill) {
    EXPECT_TRUE(oracle::connected(squares({"d4"})));
    EXPECT_TRUE(oracle::connected(squares({"a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"})));  // diagonal steps
    EXPECT_TRUE(oracle::connected(squares({"a1", "b1", "c2", "c3", "b4", "a5"})));
    EXPECT_TRUE(oracle::connected(squares({"c3", "d3", "e3", "c4", "e4", "c5", "d5", "e5"})));  // ring with a hole
    EXPECT_FALSE(oracle::connected(squares({"a1", "c1"})));
    EXPECT_FALSE(oracle::connected(squares({"a1", "a3"})));
    EXPECT_FALSE(oracle::connected(squares({"a1", "c3"})));
    // No wrap-around between the h file and the a file (h1 = bit 7, a2 = bit 8).
    EXPECT_FALSE(oracle::connected(squares({"h1", "a2"})));
    EXPECT_FALSE(oracle::connected(squares({"h2", "a3"})));
    EXPECT_FALSE(oracle::connected(squares({"a8", "h7"})));
    EXPECT_TRUE(oracle::connected(squares({"h1", "h2", "g3", "h4", "g5", "h6", "h7", "h8"})));
    EXPECT_FALSE(oracle::connected(squares({"a1", "b2", "c3", "e5", "f6"})));  // a gap on the diagonal
    const Position start = Position::start();
    EXPECT_FALSE(oracle::connected(start.pieces(Colour::Black)));
    EXPECT_FALSE(oracle::connected(start.pieces(Colour::White)));
}

}  // namespace
