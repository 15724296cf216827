// The NNUE's incremental accumulators (loa/nnue/accumulator.hpp) against a full refresh.
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "common/text.hpp"
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
using loa::testing::refreshed_evaluation;

// The evaluation at every node of a depth-3 walk over the moves of random game positions
// (captures and passes included): the stack's incremental accumulators give exactly the
// refreshed evaluation.
// With the connectivity inputs too: the side that did not move takes its four from the entry
// below, and that is exact as well. With input buckets: a perspective whose bucket changed is
// computed afresh, the other updated with its bucket's columns.
TEST(NnueAccumulator, IncrementalEqualsRefreshAtEveryNodeOfAWalk) {
    for (const auto& [extra_inputs_set, buckets_set] :
         {std::pair{0, 0}, std::pair{ConnectivityInputsSet, 0}, std::pair{0, CentreOfMassBucketsSet}}) {
        SCOPED_TRACE(extra_inputs_set + 10 * buckets_set);
        const auto net = shared(random_network(7, 32, 8, extra_inputs_set, 0, buckets_set));
        const SearchGame game(RuleSet{}, net);
        std::uint64_t nodes = 0, captures = 0, passes = 0;
        std::function<void(Position&, int)> walk = [&](Position& pos, int depth) {
            ASSERT_EQ(game.evaluate(pos), refreshed_evaluation(net, pos)) << pos.to_text();
            ++nodes;
            if (depth == 0) return;
            MoveList moves;
            game.generate(pos, moves);
            // A few moves a node (captures first), and the null move where the search tries one.
            std::vector<Move> tried;
            for (const Move m : moves)
                if (m.is_capture() && tried.size() < 2) tried.push_back(m);
            for (std::size_t i = 0; i < moves.size() && tried.size() < 4; i += 5) tried.push_back(moves[i]);
            if (game.null_move_allowed(pos)) tried.push_back(game.null_move());
            for (const Move m : tried) {
                captures += m.is_capture();
                passes += m.is_pass();
                const Position before = pos;
                game.make(pos, m);
                walk(pos, depth - 1);
                game.unmake(pos, m);
                ASSERT_EQ(pos, before);
                // Back at the parent: still exact, from the stack's entry of it.
                ASSERT_EQ(game.evaluate(pos), refreshed_evaluation(net, pos));
            }
        };
        for (Position pos : testing::middle_game_positions(12, 71)) walk(pos, 3);
        EXPECT_GT(nodes, 1500u);
        EXPECT_GT(captures, 100u);
        EXPECT_GT(passes, 100u);
        // And it was incremental: one refresh a walk's root, an update a move.
        EXPECT_LE(game.network()->refreshes(), 12u);
        EXPECT_GE(game.network()->updates(), nodes - 12);
        if (buckets_set) {
            EXPECT_GT(game.network()->bucket_refreshes(), 20u);  // the walk crossed buckets
        }
    }
}

// Only some nodes evaluated (the leaves of walks of depth 2 to 8): the stack computes chains of
// several moves from the nearest computed entry, or refreshes the parent when none is near.
TEST(NnueAccumulator, ChainsOfUnevaluatedMovesAreExact) {
    const auto net = shared(random_network(17));
    for (const int depth : {2, 5, 8}) {
        const SearchGame game(RuleSet{}, net);
        std::mt19937_64 rng(static_cast<std::uint64_t>(depth));
        std::uint64_t leaves = 0;
        std::function<void(Position&, int)> walk = [&](Position& pos, int left) {
            if (left == 0 || game.status(pos) != search::Status::Ongoing) {
                ASSERT_EQ(game.evaluate(pos), refreshed_evaluation(net, pos)) << pos.to_text();
                ++leaves;
                return;
            }
            MoveList moves;
            game.generate(pos, moves);
            for (int k = 0; k < 2; ++k) {
                const Move m = moves[static_cast<std::size_t>(rng() % moves.size())];
                game.make(pos, m);
                walk(pos, left - 1);
                game.unmake(pos, m);
            }
        };
        for (Position pos : testing::middle_game_positions(3, 41)) walk(pos, depth);
        EXPECT_GT(leaves, 10u);
        // Chains of up to 6 moves: one refresh a walk (its root), every other node one update.
        // Deeper: each leaf's parent is refreshed once, and each leaf is one update from it.
        const auto* evaluator = game.network();
        if (depth <= 5) {
            EXPECT_LE(evaluator->refreshes(), 3u) << depth;
            EXPECT_GT(evaluator->updates(), leaves) << depth;
        } else {
            EXPECT_GT(evaluator->refreshes(), leaves / 3);
            EXPECT_LE(evaluator->refreshes(), leaves / 2 + 3);
            EXPECT_EQ(evaluator->updates(), leaves);
        }
    }
}

// Whole random games played through the game's make (moves never taken back, past the stack's
// depth), then taken back to the start: exact all the way.
TEST(NnueAccumulator, LongGamesForwardAndBackStayExact) {
    const auto net = shared(random_network(8, 32, 8, 0, 0, CentreOfMassBucketsSet));
    const SearchGame game(RuleSet{}, net);
    std::size_t longest = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        const Game played = testing::random_game(seed, 400);
        longest = std::max(longest, played.moves().size());
        Position pos = Position::start();
        for (const Move m : played.moves()) {
            game.make(pos, m);
            ASSERT_EQ(game.evaluate(pos), refreshed_evaluation(net, pos));
        }
        for (auto it = played.moves().rbegin(); it != played.moves().rend(); ++it) {
            game.unmake(pos, *it);
            ASSERT_EQ(game.evaluate(pos), refreshed_evaluation(net, pos));
        }
        EXPECT_EQ(pos, Position::start());
    }
    EXPECT_GT(longest, 200u);  // past the stack's capacity (MaxPly + 16): it restarted on the way
}

// Boards no game reaches (more than 12 pieces a side), which could overflow the net's int16
// accumulator, get the hand-written evaluation.
TEST(NnueAccumulator, BoardsBeyondTwelvePiecesASideGetTheHandWrittenEvaluation) {
    const SearchGame game(RuleSet{}, shared(random_network(19)));
    const Position crowded = Position::from_text("bbbbbbbb/bbbbbbbb/8/8/8/8/wwwwwwww/wwwwwwww b");
    EXPECT_EQ(game.evaluate(crowded), Evaluator().evaluate(crowded));
    const Position start = Position::start();
    EXPECT_NE(game.evaluate(start), Evaluator().evaluate(start));  // (this random net's value differs)
}

TEST(NnueAccumulator, AMovedFromEvaluatorStillEvaluates) {
    const auto net = shared(random_network(23));
    SearchGame game(RuleSet{}, net);
    const SearchGame taken = std::move(game);
    Position pos = Position::start();
    MoveList moves;
    game.generate(pos, moves);
    game.make(pos, moves[3]);  // NOLINT(bugprone-use-after-move): what this test is about
    EXPECT_EQ(game.evaluate(pos), refreshed_evaluation(net, pos));
    EXPECT_EQ(taken.evaluate(pos), refreshed_evaluation(net, pos));
}

// Positions the stack did not follow (another line, a copy) are evaluated from scratch, not
// from a stale entry.
TEST(NnueAccumulator, PositionsOffTheStackAreNotReadFromIt) {
    const auto net = shared(random_network(9));
    const SearchGame game(RuleSet{}, net);
    const auto positions = testing::random_positions(10, 4, 60);
    Position line = Position::start();
    MoveList moves;
    game.generate(line, moves);
    game.make(line, moves[0]);
    for (const Position& other : positions) {
        ASSERT_EQ(game.evaluate(other), refreshed_evaluation(net, other));
        ASSERT_EQ(game.evaluate(line), refreshed_evaluation(net, line));
    }
    // A copy of the game starts its own stack.
    const SearchGame copy = game;
    Position pos = Position::start();
    copy.make(pos, moves[1]);
    EXPECT_EQ(copy.evaluate(pos), refreshed_evaluation(net, pos));
}

// A search with the incremental evaluation equals one that refreshes at every evaluation:
// same move, score and node count (the stack changes speed, never results).
TEST(NnueAccumulator, SearchMatchesAFullRefreshEvaluation) {
    const auto net = shared(random_network(13, 64, 16));
    for (const Position& pos : testing::middle_game_positions(4, 31)) {
        search::SearchConfig config = variant::preset_variant("full");
        config.tt_mb = 4;
        search::SearchLimits limits;
        limits.depth = 5;
        search::Searcher<SearchGame> incremental(SearchGame(RuleSet{}, net), config);
        search::Searcher<SearchGame> refreshing(
            SearchGame(RuleSet{}, SearchGame::CustomEvaluation([net](const Position& p) { return refreshed_evaluation(net, p); })),
            config);
        const auto a = incremental.search(pos, limits);
        const auto b = refreshing.search(pos, limits);
        EXPECT_EQ(a.best_move, b.best_move);
        EXPECT_EQ(a.score, b.score);
        EXPECT_EQ(a.stats.nodes, b.stats.nodes);
    }
}

}  // namespace
}  // namespace loa::nnue
