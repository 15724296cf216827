// The board's symmetries: each transform is a permutation of the squares.
#include <gtest/gtest.h>

#include "loa/error.hpp"
#include "loa/bench_positions.hpp"
#include "loa/evaluation.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "loa/symmetry.hpp"

namespace loa {
namespace {

TEST(Symmetry, TransformsArePermutationsOfTheBoard) {
    const Bitboard b = Position::from_text("b7/1w6/8/3b4/8/8/6w1/7b b").occupied();
    for (int k = 0; k < 8; ++k) EXPECT_EQ(popcount(transform(b, k)), popcount(b));
    EXPECT_EQ(flip_vertical(square_bb(0)), square_bb(56));
    EXPECT_EQ(mirror_horizontal(square_bb(0)), square_bb(7));
    EXPECT_EQ(flip_diagonal(square_bb(1)), square_bb(8));
    for (int k = 0; k < 8; ++k) EXPECT_EQ(transform(transform(b, k & 3), k & 3), b);  // reflections are involutions
}

}  // namespace
}  // namespace loa
