// The NNUE's connectivity inputs on hand-worked positions, under the symmetries and colour swap.
#include <gtest/gtest.h>

#include "loa/engine/session.hpp"
#include "loa/movegen.hpp"
#include "loa/position_text.hpp"
#include "loa/nnue/accumulator.hpp"
#include "loa/nnue/connectivity_inputs.hpp"
#include "loa/nnue/features.hpp"
#include "loa/nnue/layers.hpp"
#include "loa/nnue/network.hpp"
#include "loa/nnue/shipped.hpp"
#include "loa/search_game.hpp"
#include "loa/symmetry.hpp"
#include "support/test_positions.hpp"

namespace loa::nnue {
namespace {

// The connectivity inputs on positions worked out by hand from their definitions (docs/nnue.md),
// and the same in each of the board's 8 symmetries and under the colour swap.
TEST(NnueConnectivityInputs, HandWorkedPositionsAndTheSymmetries) {
    // The start: each side two groups (E = 2: 4E = 8 -> 40), mean distance to the centre of
    // mass 3.5 (-> 63), a box of 6 x 8 (-> 94).
    const auto start = connectivity_inputs(Position::start());
    EXPECT_EQ(std::vector<int>(start.begin(), start.end()), (std::vector<int>{11, 40, 63, 94, 11, 40, 63, 94}));
    // A 2x2 block (one group, E = 1, mean distance 0.5, box 2 x 2) against a diamond (one
    // group round a hole: E = 0, mean distance 1, box 3 x 3); White to move.
    const Position pos = Position::from_text("8/8/8/8/8/5w2/1bb1w1w1/1bb2w2 w");
    const auto inputs = connectivity_inputs(pos);
    EXPECT_EQ(std::vector<int>(inputs.begin(), inputs.end()), (std::vector<int>{0, 24, 18, 16, 0, 32, 9, 6}));
    // A 12-piece checkerboard in a 5 x 5 square: one group round 4 holes (Q1 - Q3 - 2Qd = -16,
    // the Euler input clamped to 0), mean distance 5/3 (-> 30), a box of 25 (-> 48).
    const auto board = connectivity_inputs(Position::from_text("7w/8/8/1b1b4/b1b1b3/1b1b4/b1b1b3/1b1b4 b"));
    EXPECT_EQ(std::vector<int>(board.begin(), board.end()), (std::vector<int>{0, 0, 30, 48, 0, 32, 0, 0}));
    EXPECT_EQ(side_connectivity(0, 0), (std::array<std::uint8_t, 4>{0, 0, 0, 0}));
    for (const Position& p : testing::random_positions(12, 20, 80)) {
        const auto want = connectivity_inputs(p);
        for (int k = 1; k < 8; ++k) ASSERT_EQ(connectivity_inputs(transform(p, k)), want) << p.to_text() << " symmetry " << k;
        const auto swapped = connectivity_inputs(transform(p, 4, true));
        ASSERT_EQ(swapped, want) << p.to_text();
    }
}

}  // namespace
}  // namespace loa::nnue
