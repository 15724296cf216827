// The search core on an artificial game tree, where plain minimax is the oracle: every
// ordering-only enhancement must return exactly the minimax value at fixed depth, with the TT
// off, and with the TT on when entries are reused only at exactly the same depth.
#include <gtest/gtest.h>

#include "support/artificial_tree.hpp"
#include "common/search/frontier.hpp"
#include "common/search/margin_probe.hpp"
#include "common/search/node_type.hpp"
#include "common/search/search.hpp"
#include "common/variant/config.hpp"
#include "support/reference_search.hpp"

namespace {

using testing_tree::TreeGame;

// Ordering-only switches: they change the order of moves, never which moves are searched.
const char* const OrderingVariants[] = {
    "ab",
    "pvs",
    "pvs+asp",
    "ab,aspiration=5,aspiration_research=full",
    "pvs+killers",
    "pvs+hh",
    "pvs+hh,hh_inc=1",
    "pvs+hh,hh_inc=d2",
    "pvs+bf",
    "pvs+rhh",
    "pvs+rhh,rhh_update=cutnodes,bf_inc=d",
    "pvs+rhh+killers+ref+caps",
    "pvs+asp+killers+rhh+ref+caps,history_captures=off,aspiration=20",
};

struct TreeCase {
    TreeGame game;
    int depth;
};

std::vector<TreeCase> tree_cases() {
    std::vector<TreeCase> cases;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        TreeGame g;
        g.seed = seed;
        g.min_branching = seed % 2 ? 2 : 4;  // random branching in 2..6, or uniform 4
        g.max_branching = seed % 2 ? 6 : 4;
        g.transpositions = seed % 3 == 0;
        g.terminal_one_in = seed % 2 ? 0 : 9;
        cases.push_back({g, 5 + static_cast<int>(seed % 2)});
    }
    return cases;
}

TEST(SearchOnArtificialTree, OrderingVariantsReturnTheMinimaxValueWithoutTT) {
    for (const auto& [game, depth] : tree_cases()) {
        reference::Minimax<TreeGame> oracle(game);
        for (int d = 1; d <= depth; ++d) {
            const search::Score expected = oracle.value(game.root(), d);
            for (const char* spec : OrderingVariants) {
                search::Searcher<TreeGame> searcher(game, variant::parse_variant(spec));
                search::SearchLimits limits;
                limits.depth = d;
                const auto result = searcher.search(game.root(), limits);
                EXPECT_EQ(result.score, expected) << spec << " seed " << game.seed << " depth " << d;
            }
        }
    }
}

TEST(SearchOnArtificialTree, TTWithExactDepthReuseReturnsTheMinimaxValue) {
    for (const auto& [game, depth] : tree_cases()) {
        reference::Minimax<TreeGame> oracle(game);
        const search::Score expected = oracle.value(game.root(), depth);
        for (const char* spec : OrderingVariants) {
            for (const char* replace : {"always", "depth", "twodeep"}) {
                const auto config =
                    variant::parse_variant(std::string(spec) + ",tt=1,tt_reuse=exact,tt_replace=" + replace);
                search::Searcher<TreeGame> searcher(game, config);
                search::SearchLimits limits;
                limits.depth = depth;
                EXPECT_EQ(searcher.search(game.root(), limits).score, expected)
                    << spec << " " << replace << " seed " << game.seed;
            }
        }
    }
}

TEST(SearchOnArtificialTree, EnhancementsShrinkTheTree) {
    TreeGame game;
    game.seed = 42;
    game.min_branching = game.max_branching = 8;
    game.transpositions = true;
    auto nodes = [&](const char* spec) {
        search::Searcher<TreeGame> searcher(game, variant::parse_variant(spec));
        search::SearchLimits limits;
        limits.depth = 6;
        return searcher.search(game.root(), limits).stats.nodes;
    };
    std::uint64_t minimax_leaves = 1;
    for (int i = 0; i < 6; ++i) minimax_leaves *= 8;
    const auto ab = nodes("ab");
    EXPECT_LT(ab, minimax_leaves);
    // Leaf values are random here, so ordering heuristics have nothing to learn; the TT still
    // merges transpositions.
    EXPECT_LT(nodes("ab+tt"), ab);
}

TEST(SearchOnArtificialTree, NodeCountsAreReproducibleAndResetByNewGame) {
    TreeGame game;
    game.seed = 9;
    game.transpositions = true;
    for (const char* spec : {"full", "pvs+tt+rhh", "pvs+tt+hh+killers+asp", "pvs+tt+killers,countermove=history"}) {
        search::Searcher<TreeGame> a(game, variant::parse_variant(spec));
        search::Searcher<TreeGame> b(game, variant::parse_variant(spec));
        search::SearchLimits limits;
        limits.depth = 7;
        const auto first = a.search(game.root(), limits);
        EXPECT_EQ(first.stats.nodes, b.search(game.root(), limits).stats.nodes) << spec;
        a.search(game.root(), limits);  // learnt tables now differ ...
        a.new_game();                   // ... until they are forgotten
        const auto again = a.search(game.root(), limits);
        EXPECT_EQ(again.stats.nodes, first.stats.nodes) << spec;
        EXPECT_EQ(again.best_move, first.best_move) << spec;
        EXPECT_EQ(again.score, first.score) << spec;
    }
}

TEST(SearchOnArtificialTree, NodeLimitStopsDeterministically) {
    TreeGame game;
    game.seed = 5;
    search::Searcher<TreeGame> searcher(game, variant::parse_variant("pvs+tt+rhh"));
    search::SearchLimits limits;
    limits.nodes = 5000;
    const auto r1 = searcher.search(game.root(), limits);
    searcher.new_game();
    const auto r2 = searcher.search(game.root(), limits);
    EXPECT_EQ(r1.stats.nodes, 5000u);
    EXPECT_EQ(r1.best_move, r2.best_move);
    EXPECT_EQ(r1.depth, r2.depth);
    EXPECT_FALSE(r1.best_move == TreeGame::Move::none());
}

}  // namespace
