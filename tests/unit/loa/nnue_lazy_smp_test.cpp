// Lazy SMP with an NNUE: each thread's searcher has its own accumulator stack.
#include <gtest/gtest.h>

#include "loa/searchers.hpp"
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

// Lazy SMP on two threads with a network: each thread's searcher owns a copy of the game and so
// its own stack (run under ThreadSanitizer by the test command: the name holds "LazySmp").
TEST(NnueLazySmp, TwoThreadsEachWithTheirOwnStack) {
    const auto net = shared(random_network(31, 64, 16));
    search::SearchConfig config = variant::preset_variant("full");
    config.tt_mb = 4;
    config.threads = 2;
    search::ParallelSearcher<SearchGame> searcher(SearchGame(RuleSet{}, net), config);
    search::SearchLimits limits;
    limits.depth = 6;
    for (const Position& pos : testing::middle_game_positions(2, 53)) {
        const auto result = searcher.search(pos, limits);
        MoveList moves;
        generate_moves(pos, moves);
        EXPECT_NE(std::find(moves.begin(), moves.end(), result.best_move), moves.end());
        EXPECT_LE(std::abs(result.score), EvalClamp);
    }
}

}  // namespace
}  // namespace loa::nnue
