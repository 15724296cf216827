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
#include "support/walk_game.hpp"

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
    for (const char* spec : {"full", "pvs+tt+rhh", "pvs+tt+hh+killers+asp"}) {
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

// Futility pruning at depth 1 with a margin no quiet move can beat changes no value, so the
// minimax value must come back, also where the side behind can repeat a position: a
// repetition is a draw, worth more than the evaluation bounds, and may not be pruned.
// Searches every walk from a grid of starts to depths 1..7 and counts the values that differ
// from plain minimax; `prunes` adds up the futility prunes.
template <class Walk>
int walk_values_off_minimax(const char* spec, std::uint64_t& prunes) {
    const Walk game;
    reference::Minimax<Walk> oracle(game);
    int wrong = 0;
    for (int mine = 0; mine < Walk::Cells; mine += 3) {
        for (int theirs = 0; theirs < Walk::Cells; theirs += 2) {
            const testing_walk::WalkPosition start{{mine, theirs}, 0};
            for (int depth = 1; depth <= 7; ++depth) {
                search::Searcher<Walk> searcher(game, variant::parse_variant(spec));
                search::SearchLimits limits;
                limits.depth = depth;
                const auto result = searcher.search(start, limits);
                if (result.score != oracle.value(start, depth)) ++wrong;
                prunes += result.stats.futility_prunes;
            }
        }
    }
    return wrong;
}

TEST(SearchOnWalkGame, ExactFutilityKeepsTheMinimaxValueWithRepetitions) {
    static_assert(testing_walk::WalkGame::MaxGain == 20, "the margin below is the largest gain of one move");
    std::uint64_t prunes = 0;
    for (const char* spec : {"pvs", "pvs,futility=20", "pvs+killers+rhh,futility=20"})
        EXPECT_EQ(walk_values_off_minimax<testing_walk::WalkGame>(spec, prunes), 0) << spec;
    EXPECT_GT(prunes, 0u) << "futility never pruned: the test checks nothing";
}

// The walk game with two phases: 1 while the tokens are near the start, 0 further on.
struct PhasedWalkGame : testing_walk::WalkGame {
    static constexpr int MaxPhase = 1;
    int phase(const Position& p) const { return p.token[0] + p.token[1] < Cells ? 1 : 0; }
};
static_assert(search::PhasedGame<PhasedWalkGame>);

// A tapered margin is read at the node's phase: exact wherever the margin of the phase covers
// the largest gain, and wrong somewhere when either phase's margin falls short of it.
TEST(SearchOnWalkGame, TaperedFutilityMarginIsReadAtTheNodesPhase) {
    std::uint64_t prunes = 0;
    for (const char* spec : {"pvs,futility=20:30", "pvs,futility=30:20", "pvs+killers+rhh,futility=20:20"})
        EXPECT_EQ(walk_values_off_minimax<PhasedWalkGame>(spec, prunes), 0) << spec;
    EXPECT_GT(prunes, 0u);
    std::uint64_t unused = 0;
    // Short in the opening phase only, in the endgame phase only, and in both.
    EXPECT_GT(walk_values_off_minimax<PhasedWalkGame>("pvs,futility=5:20", unused), 0);
    EXPECT_GT(walk_values_off_minimax<PhasedWalkGame>("pvs,futility=20:5", unused), 0);
    EXPECT_GT(walk_values_off_minimax<testing_walk::WalkGame>("pvs,futility=5", unused), 0);
}

// On the walk game the lift follows from the rules: two cells forward gain 20 at depth 1, and
// the opponent's reply of two cells takes it back at depth 2; near the end of the line less.
TEST(FrontierLift, OnTheWalkGameIsTheLargestStepLessTheReply) {
    using testing_walk::WalkGame;
    search::Searcher<WalkGame> searcher(WalkGame{}, variant::parse_variant("pvs"));
    const auto open = search::frontier_lift(searcher, testing_walk::WalkPosition{{0, 0}, 0}, 3);
    ASSERT_TRUE(open.has_value());
    EXPECT_EQ((*open)[0].lift, 20);
    EXPECT_EQ((*open)[1].lift, 0);
    EXPECT_EQ((*open)[2].lift, 20);
    for (const auto& at : *open) EXPECT_FALSE(at.forced_win);
    // One cell from the end: only a step forward (10) or back; the opponent still replies 20.
    const auto late = search::frontier_lift(searcher, testing_walk::WalkPosition{{WalkGame::Cells - 2, 0}, 0}, 2);
    ASSERT_TRUE(late.has_value());
    EXPECT_EQ((*late)[0].lift, 10);
    EXPECT_EQ((*late)[1].lift, -10);
}

// Phase 1 runs to the opening margin: from the start, four plies never leave it, so the
// endgame margin is never read there.
TEST(SearchOnWalkGame, TheOpeningMarginHoldsWhereThePhaseIsLargest) {
    const PhasedWalkGame game;
    reference::Minimax<PhasedWalkGame> oracle(game);
    const testing_walk::WalkPosition start{{0, 0}, 0};
    int wrong_when_reversed = 0;
    for (int depth = 1; depth <= 4; ++depth) {
        search::SearchLimits limits;
        limits.depth = depth;
        search::Searcher<PhasedWalkGame> right(game, variant::parse_variant("pvs,futility=20:5"));
        EXPECT_EQ(right.search(start, limits).score, oracle.value(start, depth)) << depth;
        search::Searcher<PhasedWalkGame> reversed(game, variant::parse_variant("pvs,futility=5:20"));
        if (reversed.search(start, limits).score != oracle.value(start, depth)) ++wrong_when_reversed;
    }
    EXPECT_GT(wrong_when_reversed, 0) << "the opening margin is never used: the test checks nothing";
}

// The walk game where every move is a threat the search extends.
struct ThreateningWalkGame : testing_walk::WalkGame {
    int extension(const Position&, Move) const { return 1; }
};

// Limited razoring: with every move extended up to the search's extension limit (twice the
// iteration depth), no depth-3 node is entered but by an extended move, so none is razored.
TEST(SearchOnWalkGame, NoRazoringBehindAnExtendedMove) {
    const ThreateningWalkGame game;
    search::SearchLimits limits;
    limits.depth = 3;
    std::uint64_t razorings_with_extensions = 0, razorings_without = 0;
    for (int mine = 0; mine < ThreateningWalkGame::Cells; mine += 3)
        for (int theirs = 0; theirs < ThreateningWalkGame::Cells; theirs += 2) {
            const testing_walk::WalkPosition start{{mine, theirs}, 0};
            search::Searcher<ThreateningWalkGame> extended(game, variant::parse_variant("pvs,extensions=on,razoring=1"));
            razorings_with_extensions += extended.search(start, limits).stats.razorings;
            // Without extensions a depth-4 search has depth-3 nodes below the root to razor.
            search::Searcher<ThreateningWalkGame> plain(game, variant::parse_variant("pvs,razoring=1"));
            search::SearchLimits deeper = limits;
            deeper.depth = 4;
            razorings_without += plain.search(start, deeper).stats.razorings;
        }
    EXPECT_EQ(razorings_with_extensions, 0u);
    EXPECT_GT(razorings_without, 0u) << "razoring never fired: the test checks nothing";
}

TEST(TaperedMargin, RunsFromTheOpeningToTheEndgameValue) {
    constexpr search::TaperedMargin m{100, 300};
    static_assert(m.at(20, 20) == 100 && m.at(0, 20) == 300 && m.at(10, 20) == 200 && m.at(15, 20) == 150);
    static_assert(search::TaperedMargin::constant(70).at(3, 20) == 70);
    static_assert(!search::TaperedMargin{}.on() && m.on());
}

TEST(FrontierDecision, FollowsTheMarginsAndSparesNodesBehindAThreat) {
    using search::frontier_decision;
    constexpr search::FrontierMargins m{100, 200, 400};
    // Depth 1: futility when the evaluation + margin is at most alpha, even behind a threat.
    EXPECT_EQ(frontier_decision(1, -100, 0, false, m).prune_margin, 100);
    EXPECT_EQ(frontier_decision(1, -99, 0, false, m).prune_margin, 0);
    EXPECT_EQ(frontier_decision(1, -100, 0, true, m).prune_margin, 100);
    // Depth 2: extended futility, not behind a threat.
    EXPECT_EQ(frontier_decision(2, -200, 0, false, m).prune_margin, 200);
    EXPECT_EQ(frontier_decision(2, -199, 0, false, m).prune_margin, 0);
    EXPECT_EQ(frontier_decision(2, -500, 0, true, m).prune_margin, 0);
    // Depth 3: razoring to depth 2, then extended futility at depth 2; not behind a threat.
    const auto razored = frontier_decision(3, -400, 0, false, m);
    EXPECT_TRUE(razored.razor);
    EXPECT_EQ(razored.prune_margin, 200);
    EXPECT_FALSE(frontier_decision(3, -399, 0, false, m).razor);
    EXPECT_EQ(frontier_decision(3, -399, 0, false, m).prune_margin, 0);
    const auto behind_threat = frontier_decision(3, -1000, 0, true, m);
    EXPECT_FALSE(behind_threat.razor);
    EXPECT_EQ(behind_threat.prune_margin, 0);
    // Off margins do nothing; deeper nodes are never touched.
    EXPECT_EQ(frontier_decision(1, -1000, 0, false, {0, 200, 400}).prune_margin, 0);
    const auto no_razor = frontier_decision(3, -1000, 0, false, {100, 200, 0});
    EXPECT_FALSE(no_razor.razor);
    EXPECT_EQ(no_razor.prune_margin, 0);
    EXPECT_FALSE(frontier_decision(4, -1000, 0, false, m).razor);
}

// Knuth and Moore's node types, written out from their definition: a PV node's first child is
// on the PV and its scouts are cut nodes; a cut node's first child is an all node; every child
// of an all node is a cut node. The schemes differ only on a cut node's later children.
TEST(NodeTypes, ChildrenFollowKnuthAndMooreAndTheSchemesDifferOnlyBehindAFailedCut) {
    using search::child_expects_cut;
    using search::McTypes;
    for (const McTypes scheme : {McTypes::Retype, McTypes::Alternate}) {
        // parent: (pv, cut)
        EXPECT_FALSE(child_expects_cut(scheme, true, false, true));   // PV -> PV
        EXPECT_TRUE(child_expects_cut(scheme, true, false, false));   // PV scout -> cut
        EXPECT_FALSE(child_expects_cut(scheme, false, true, true));   // cut -> all
        EXPECT_TRUE(child_expects_cut(scheme, false, false, true));   // all -> cut
        EXPECT_TRUE(child_expects_cut(scheme, false, false, false));  // all -> cut
    }
    // A cut node whose first move did not cut turned out an all node: its later children are
    // cut nodes (Retype), or all nodes when types simply alternate by generation.
    EXPECT_TRUE(child_expects_cut(McTypes::Retype, false, true, false));
    EXPECT_FALSE(child_expects_cut(McTypes::Alternate, false, true, false));
}

}  // namespace
