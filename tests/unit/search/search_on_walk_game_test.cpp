// The search core on the walk game: futility and razoring keep the minimax value.
#include <gtest/gtest.h>

#include "common/search/frontier.hpp"
#include "common/search/margin_probe.hpp"
#include "common/search/node_type.hpp"
#include "common/search/search.hpp"
#include "common/variant/config.hpp"
#include "support/reference_search.hpp"
#include "support/walk_game.hpp"

namespace {

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
// The traits the core's `if constexpr` asks agree with the concepts.
static_assert(search::has_phase<PhasedWalkGame> && !search::has_phase<testing_walk::WalkGame>);
static_assert(!search::has_realization<PhasedWalkGame>);

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

}  // namespace
