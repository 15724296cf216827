// Tree-parallel MCTS (common/mcts): threads share one tree with virtual loss; runs under TSan.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <thread>

#include "support/and_or_oracle.hpp"
#include "loa/searchers.hpp"
#include "loa/game.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/realization.hpp"
#include "loa/search_game.hpp"
#include "support/sanitized_build.hpp"
#include "support/test_positions.hpp"
#include "support/mcts_proofs.hpp"

namespace loa {
namespace {

using Mcts = mcts::Mcts<SearchGame>;
using loa::testing::expected_proof;
using loa::testing::name;
using loa::testing::small_positions;

// ---- Tree parallelism: threads share one tree, with virtual loss ----------------------------

// With two and three threads every root under a ply limit is still proven, each proof is the
// oracle's, and when the search ends no virtual loss is left: the root's visits are the
// play-outs backed up, exactly the budget when the root is not proven first.
TEST(MctsThreads, ProofsAreTheOraclesAndEveryVirtualLossIsUndone) {
    int proven = 0, compared = 0;
    const auto positions = small_positions();
    for (int limit = 1; limit <= 2; ++limit)
        for (std::size_t i = limit - 1; i < positions.size(); i += testing::sanitized_build ? 6 : 2) {
            const Position& pos = positions[i];
            const mcts::Proof expected = expected_proof(and_or::solve_with_ply_limit(pos, limit));
            for (const auto playout : {mcts::Playout::Random, mcts::Playout::EvalCutoff, mcts::Playout::AlphaBeta}) {
                mcts::MctsConfig config;
                config.playout = playout;
                Mcts search(SearchGame{}, config, 2 + static_cast<int>(i % 2));
                search::SearchLimits limits;
                limits.nodes = 200'000;
                limits.game_plies_left = limit;
                const auto r = search.search(pos, limits);
                ++compared;
                ASSERT_TRUE(is_legal(pos, r.best_move)) << pos.to_text();
                EXPECT_EQ(search.root_visits(), search.playouts()) << "a virtual loss survived the search";
                if (search.root_proof() == mcts::Proof::Unknown) continue;
                ++proven;
                EXPECT_EQ(search.root_proof(), expected)
                    << name(search.root_proof()) << " against the oracle's " << name(expected) << ", limit " << limit << " "
                    << pos.to_text();
            }
        }
    std::printf("%d of %d threaded searches proved their root\n", proven, compared);
    EXPECT_EQ(proven, compared) << "a finite game within the budget: every root is proven";
}

// Whole games on two threads, the tree reused from move to move: legal moves only, the
// budget spent exactly (every play-out begun is counted once), and the game ends by the rules.
// Without the solver nothing proven ends a search early, so each spends its whole budget.
TEST(MctsThreads, GamesOnTwoThreadsSpendTheirBudgetExactly) {
    int reused = 0;
    for (int g = 0; g < (testing::sanitized_build ? 2 : 4); ++g) {
        Game game = testing::random_game(300 + g, 4);
        mcts::MctsConfig config;
        config.seed = static_cast<std::uint64_t>(g) + 7;
        config.playout = g % 2 == 0 ? mcts::Playout::EvalCutoff : mcts::Playout::AlphaBeta;
        config.solver = g < 2;
        Mcts search(SearchGame{}, config, 2);
        int ply = 0;
        for (; ply < 1000 && !game.over(); ++ply) {
            search::SearchLimits limits;
            limits.nodes = config.playout == mcts::Playout::AlphaBeta ? 40 : 400;
            const auto r = search.search(game.position(), limits, search_history(game));
            reused += search.reused_nodes() > 1;
            ASSERT_TRUE(is_legal(game.position(), r.best_move)) << game.position().to_text();
            if (search.root_proof() == mcts::Proof::Unknown) EXPECT_EQ(search.playouts(), limits.nodes);
            else EXPECT_LE(search.playouts(), limits.nodes);
            if (search.reused_nodes() == 0) EXPECT_EQ(search.root_visits(), search.playouts());
            else EXPECT_GE(search.root_visits(), search.playouts());
            game.play(r.best_move);
        }
        EXPECT_TRUE(game.over()) << ply << " plies without an end, game " << g;
    }
    EXPECT_GT(reused, 20) << "the tree of the last search was rarely reused";
}

// The clock and the caller's stop flag end every thread: a search with neither a budget nor a
// depth stops at its hard time, and at the flag, with a legal move (the helpers' alpha-beta
// play-outs are stopped inside their searches).
TEST(MctsThreads, TheClockAndTheStopFlagEndEveryThread) {
    const Game game = testing::random_game(12, 8);
    for (const auto playout : {mcts::Playout::EvalCutoff, mcts::Playout::AlphaBeta}) {
        mcts::MctsConfig config;
        config.playout = playout;
        Mcts search(SearchGame{}, config, 2);
        search::SearchLimits by_time;
        by_time.hard_time_ms = 100;
        const auto r = search.search(game.position(), by_time, search_history(game));
        EXPECT_TRUE(is_legal(game.position(), r.best_move));
        EXPECT_GE(r.stats.time_ms, 100);
        EXPECT_LT(r.stats.time_ms, 5'000) << "the threads did not stop at the hard time";
        EXPECT_EQ(search.root_visits(), search.playouts()) << "a virtual loss survived the search";

        std::atomic<bool> stop{false};
        search::SearchLimits by_flag;
        by_flag.stop = &stop;
        std::jthread stopper([&stop] {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            stop.store(true);
        });
        const auto f = search.search(game.position(), by_flag, search_history(game));
        EXPECT_TRUE(is_legal(game.position(), f.best_move));
        EXPECT_LT(f.stats.time_ms, 5'000) << "the threads did not stop at the flag";
    }
}

// A failure on one thread ends the search on all of them, reaches the caller, and leaves no
// tree to reuse (its virtual losses are not undone): the next search starts afresh.
TEST(MctsThreads, AFailureEndsEveryThreadAndTheTreeIsNotReused) {
    const Game game = testing::random_game(21, 6);
    mcts::MctsConfig config;
    Mcts search(SearchGame{}, config, 2);
    search::SearchLimits limits;
    limits.nodes = 100'000;
    int reports = 0;
    EXPECT_THROW(search.search(game.position(), limits, search_history(game),
                               [&](const search::Iteration<Move>&) {
                                   if (++reports == 2) throw std::runtime_error("report refused");
                               }),
                 std::runtime_error);
    EXPECT_LT(search.playouts(), 100'000u) << "the helper went on after the failure";
    Game next = game;
    next.play(legal_moves(game.position())[0]);  // a child of the old root: reusable, had the tree been kept
    const auto r = search.search(next.position(), [] {
        search::SearchLimits l;
        l.nodes = 500;
        return l;
    }(), search_history(next));
    EXPECT_EQ(search.reused_nodes(), 0u);
    EXPECT_EQ(search.root_visits(), search.playouts());
    EXPECT_TRUE(is_legal(next.position(), r.best_move));
}

// A game whose evaluation fails on a helper thread after a while.
struct FailingOnAHelper : SearchGame {
    FailingOnAHelper() : SearchGame(RuleSet{}) {}
    std::thread::id main_thread = std::this_thread::get_id();
    std::shared_ptr<std::atomic<int>> evaluations = std::make_shared<std::atomic<int>>(0);
    int evaluate(const Position& pos) const {
        if (std::this_thread::get_id() != main_thread && ++*evaluations == 2000) throw std::runtime_error("helper failed");
        return SearchGame::evaluate(pos);
    }
};

// A helper's failure ends the main thread's search too (not only when its own limit comes),
// and reaches the caller.
TEST(MctsThreads, AHelpersFailureEndsTheSearch) {
    const Game game = testing::random_game(22, 6);
    mcts::Mcts<FailingOnAHelper> search(FailingOnAHelper{}, mcts::MctsConfig{}, 2);
    search::SearchLimits limits;
    limits.nodes = 3'000'000;  // many seconds: the failure must end the search long before
    const search::Stopwatch clock;
    EXPECT_THROW(search.search(game.position(), limits, search_history(game)), std::runtime_error);
    EXPECT_LT(search.playouts(), 1'000'000u) << "the main thread searched on after its helper failed";
    EXPECT_LT(clock.elapsed_ms(), 5'000);
}

// The thread count is checked where the searcher is built.
TEST(MctsThreads, ABadThreadCountIsRefused) {
    EXPECT_THROW(Mcts(SearchGame{}, mcts::MctsConfig{}, 0), common::InputError);
    EXPECT_THROW(Mcts(SearchGame{}, mcts::MctsConfig{}, Mcts::MaxThreads + 1), common::InputError);
    EXPECT_EQ(Mcts(SearchGame{}, mcts::MctsConfig{}, 3).threads(), 3);
}

}  // namespace
}  // namespace loa
