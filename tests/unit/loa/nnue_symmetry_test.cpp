// The NNUE under the colour swap (exact) and the board's other symmetries (nearly kept).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>

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
#include "support/nnue_nets.hpp"

namespace loa::nnue {
namespace {

using loa::testing::random_network;
using loa::testing::shared;
using loa::testing::refreshed_evaluation;

// The colour swap with the diagonal reflection maps the inputs of one perspective onto the
// other's: the evaluation is exactly the same (docs/nnue.md).
TEST(NnueSymmetry, ColourSwapWithTheDiagonalReflectionIsExact) {
    const auto net = shared(random_network(11));
    for (const Position& pos : testing::random_positions(12, 20, 80)) {
        const Position swapped = transform(pos, 4, true);
        ASSERT_EQ(refreshed_evaluation(net, pos), refreshed_evaluation(net, swapped)) << pos.to_text();
    }
    EXPECT_EQ(transform(Position::start(), 4, true), Position::from_text(std::string(StartPositionText).replace(StartPositionText.size() - 1, 1, "w")));
}

// The board's seven other symmetries are not built into the inputs: the trainer shows each
// position in a random one of its 8 images, and the shipped net learnt them that far. Over
// middle-game positions the mean |eval(image) - eval(position)| under each symmetry stays well
// below the evaluations' own size (measured over these 200 positions: loa-net-1 13.5 to 16.5
// centi-units under the seven symmetries against a mean |eval| of 54.3, loa-net-2 9.4 to 10.6
// against 48.2, loa-net-5 7.5 to 8.3 against 46.8, loa-net-6 8.1 to 9.0 against 44.7, loa-net-7
// 7.6 to 8.7 against 47.5): a guard against a trainer whose images are wrong, not a claim of
// exactness.
TEST(NnueSymmetry, TheShippedNetNearlyKeepsTheBoardsSymmetries) {
    const auto net = shipped_network();
    const std::vector<Position> positions = testing::middle_game_positions(200, 5);
    double spread = 0;
    for (const Position& pos : positions) spread += std::abs(refreshed_evaluation(net, pos));
    spread /= static_cast<double>(positions.size());
    for (int k = 1; k < 8; ++k) {
        double asymmetry = 0;
        for (const Position& pos : positions)
            asymmetry += std::abs(refreshed_evaluation(net, transform(pos, k)) - refreshed_evaluation(net, pos));
        asymmetry /= static_cast<double>(positions.size());
        std::printf("symmetry %d: mean |difference| %.1f centi-units (mean |eval| %.1f)\n", k, asymmetry, spread);
        EXPECT_LT(asymmetry, 0.4 * spread) << "symmetry " << k;
    }
}

}  // namespace
}  // namespace loa::nnue
