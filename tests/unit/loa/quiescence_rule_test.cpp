// The quiescence rule: quad moves are the captures that change an Euler number.
#include <gtest/gtest.h>

#include "loa/error.hpp"
#include "loa/bench_positions.hpp"
#include "loa/evaluation.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "loa/symmetry.hpp"
#include "support/test_positions.hpp"

namespace loa {
namespace {

TEST(QuiescenceRule, QuadMovesAreCapturesThatChangeAnEulerNumber) {
    const SearchGame game;
    int quad_moves = 0, captures = 0;
    for (const Position& pos : testing::random_positions(13, 10, 60)) {
        for (const Move m : legal_moves(pos)) {
            const bool quad = game.is_quiescence_move(pos, m, 2);
            EXPECT_EQ(game.is_quiescence_move(pos, m, 1), m.is_capture());
            if (quad) {
                EXPECT_TRUE(m.is_capture());
            }
            quad_moves += quad;
            captures += m.is_capture();
        }
    }
    EXPECT_GT(quad_moves, 0);
    EXPECT_LT(quad_moves, captures);
}

}  // namespace
}  // namespace loa
