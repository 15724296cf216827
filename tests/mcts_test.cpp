// Monte Carlo tree search (common/mcts): MCTS-Solver's proven values against the brute-force
// AND/OR oracle (tests/and_or_oracle.hpp, written from the rules alone), never a proof the
// oracle refutes; repeatable at a fixed play-out count and seed; legal moves only.
#include <gtest/gtest.h>

#include <cstdio>

#include "and_or_oracle.hpp"
#include "common/mcts/mcts.hpp"
#include "loa/game.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/search_game.hpp"
#include "sanitized_build.hpp"
#include "test_positions.hpp"

namespace loa {
namespace {

using Mcts = mcts::Mcts<SearchGame>;

mcts::Proof expected_proof(and_or::Value v) {
    return v == and_or::Value::Win ? mcts::Proof::Win : v == and_or::Value::Loss ? mcts::Proof::Loss : mcts::Proof::Draw;
}

const char* name(mcts::Proof p) {
    switch (p) {
        case mcts::Proof::Win: return "win";
        case mcts::Proof::Loss: return "loss";
        case mcts::Proof::Draw: return "draw";
        case mcts::Proof::Unknown: break;
    }
    return "unknown";
}

std::vector<Position> small_positions() {
    std::vector<Position> out = testing::late_positions(7, 40);
    for (const Position& p : testing::sparse_positions(11, 40, 2, 5)) out.push_back(p);
    return out;
}

// Under a ply limit the game is finite: a long enough search proves every root, and each proof
// is the oracle's value, for every play-out policy; a proven win is reached by its PV.
TEST(Mcts, SolverProvesTheOraclesValuesUnderAPlyLimit) {
    int proven = 0, compared = 0, kinds[3] = {0, 0, 0};
    const auto positions = small_positions();
    for (int limit = 1; limit <= 3; ++limit) {
        for (std::size_t i = 0; i < positions.size(); i += testing::sanitized_build ? 3 : 1) {
            const Position& pos = positions[i];
            if (limit == 3 && i % 3 != 0) continue;  // the brute force grows fast
            const mcts::Proof expected = expected_proof(and_or::solve_with_ply_limit(pos, limit));
            for (const auto playout : {mcts::Playout::Random, mcts::Playout::EvalCutoff}) {
                mcts::MctsConfig config;
                config.playout = playout;
                Mcts search(SearchGame{}, config);
                search::SearchLimits limits;
                limits.nodes = 200'000;
                limits.game_plies_left = limit;
                const auto r = search.search(pos, limits);
                ++compared;
                if (search.root_proof() == mcts::Proof::Unknown) continue;
                ++proven;
                ++kinds[static_cast<int>(expected) - 1];
                EXPECT_EQ(search.root_proof(), expected)
                    << name(search.root_proof()) << " against the oracle's " << name(expected) << ", limit " << limit << " "
                    << pos.to_text();
                ASSERT_TRUE(is_legal(pos, r.best_move));
                if (search.root_proof() == mcts::Proof::Win) {
                    // The PV is a line the rules end in the mover's favour, in the proof's plies.
                    Game game(pos, RuleSet{});
                    for (const Move m : r.pv) {
                        ASSERT_FALSE(game.over()) << pos.to_text();
                        game.play(m);
                    }
                    const Outcome mover_wins = pos.side_to_move() == Colour::Black ? Outcome::BlackWins : Outcome::WhiteWins;
                    EXPECT_EQ(game.result().outcome, mover_wins) << pos.to_text();
                    EXPECT_EQ(static_cast<int>(r.pv.size()), search.root_proof_plies()) << pos.to_text();
                    EXPECT_EQ(r.score, search::win_in(search.root_proof_plies()));
                }
            }
        }
    }
    std::printf("%d of %d searches proved their root (wins %d, losses %d, draws %d)\n", proven, compared, kinds[0],
                kinds[1], kinds[2]);
    EXPECT_EQ(proven, compared) << "a finite game within the budget: every root is proven";
    EXPECT_GT(kinds[0], 5);
    EXPECT_GT(kinds[1], 5);
    EXPECT_GT(kinds[2], 5);
}

// Without a ply limit the solver may prove a root or not; whatever it proves, a win or a loss
// within N plies, the oracle confirms with N as the limit.
TEST(Mcts, EveryProofWithoutAPlyLimitIsConfirmedByTheOracle) {
    int checked = 0;
    for (const Position& pos : testing::sparse_positions(23, testing::sanitized_build ? 12 : 40, 3, 6)) {
        Mcts search(SearchGame{}, mcts::MctsConfig{});
        search::SearchLimits limits;
        limits.nodes = 5'000;
        search.search(pos, limits);
        const mcts::Proof p = search.root_proof();
        if (p != mcts::Proof::Win && p != mcts::Proof::Loss) continue;
        const int plies = search.root_proof_plies();
        if (plies > 5) continue;  // the oracle's brute force
        ++checked;
        EXPECT_EQ(expected_proof(and_or::solve_with_ply_limit(pos, plies)), p) << plies << " plies " << pos.to_text();
    }
    std::printf("%d proofs checked\n", checked);
    EXPECT_GT(checked, 3);
}

TEST(Mcts, TheSameSeedAndBudgetGiveTheSameSearch) {
    const Game game = testing::random_game(5, 12);
    for (const auto playout : {mcts::Playout::Random, mcts::Playout::EvalCutoff}) {
        mcts::MctsConfig config;
        config.playout = playout;
        search::SearchLimits limits;
        limits.nodes = 1'500;
        Mcts a(SearchGame{}, config), b(SearchGame{}, config);
        const auto ra = a.search(game.position(), limits), rb = b.search(game.position(), limits);
        EXPECT_EQ(ra.pv, rb.pv);
        EXPECT_EQ(ra.score, rb.score);
        EXPECT_EQ(a.tree_nodes(), b.tree_nodes());
        EXPECT_EQ(ra.stats.nodes, 1'500u);
        config.seed = 2;
        Mcts c(SearchGame{}, config);
        const auto rc = c.search(game.position(), limits);
        EXPECT_TRUE(rc.score != ra.score || c.tree_nodes() != a.tree_nodes()) << "the seed chooses the play-outs";
    }
}

// Whole games chosen by MCTS: every move legal, and the game ends by the rules.
TEST(Mcts, PlaysLegalMovesThroughWholeGames) {
    for (int g = 0; g < (testing::sanitized_build ? 1 : 3); ++g) {
        Game game = testing::random_game(100 + g, 4);
        mcts::MctsConfig config;
        config.seed = static_cast<std::uint64_t>(g) + 1;
        config.playout = g % 2 ? mcts::Playout::Random : mcts::Playout::EvalCutoff;
        for (int ply = 0; ply < 300 && !game.over(); ++ply) {
            Mcts search(SearchGame{}, config);
            search::SearchLimits limits;
            limits.nodes = 100;
            const auto r = search.search(game.position(), limits);
            ASSERT_TRUE(is_legal(game.position(), r.best_move)) << game.position().to_text();
            game.play(r.best_move);
        }
    }
}

}  // namespace
}  // namespace loa
