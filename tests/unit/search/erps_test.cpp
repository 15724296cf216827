// Enhanced realization probability search (common/search/realization.hpp) over LOA: with every
// move at one ply it must be the plain search node for node, with every move at half a ply a
// depth-d search must give the value of a plain depth-2d one, and it must need the game's
// probabilities. Probabilities are made up here; learning them is realization_test.cpp's.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "loa/searchers.hpp"
#include "loa/movegen.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "support/sanitized_build.hpp"
#include "support/test_positions.hpp"

namespace loa {
namespace {

using Searcher = search::Searcher<SearchGame>;

RealizationProbabilities probabilities(double captures, double quiet) {
    RealizationProbabilities p;
    p.available.assign(RealizationCategoryCount, 100);
    p.played.assign(RealizationCategoryCount, 1);
    p.probability.assign(RealizationCategoryCount, quiet);
    // The capture bit is the category's highest factor: categories 192..383.
    for (int c = RealizationCategoryCount / 2; c < RealizationCategoryCount; ++c) p.probability[static_cast<std::size_t>(c)] = captures;
    return p;
}

SearchGame game_with(const RealizationProbabilities& p) {
    SearchGame game;
    game.set_realization(p);
    return game;
}

std::vector<Position> erps_positions() {
    std::vector<Position> out = testing::random_positions(31, 6, 40);
    out.resize(std::min<std::size_t>(out.size(), 24));
    for (const Position& p : testing::late_positions(5, 8)) out.push_back(p);
    return out;
}

search::SearchResult<Move> run(Searcher& s, const Position& pos, int depth) {
    search::SearchLimits limits;
    limits.depth = depth;
    return s.search(pos, limits);
}

TEST(Erps, NeedsTheGamesProbabilities) {
    EXPECT_THROW(Searcher(SearchGame{}, variant::parse_variant("full,erps=on")), common::InputError);
    EXPECT_NO_THROW(Searcher(game_with(probabilities(0.25, 0.25)), variant::parse_variant("full,erps=on")));
    EXPECT_THROW(variant::parse_variant("full,erps_base=100"), common::InputError);
    EXPECT_THROW(variant::parse_variant("full,erps_min=5"), common::InputError);
}

TEST(Erps, EveryMoveAtTheBaseProbabilityIsThePlainSearchWithoutLmr) {
    // Each move then costs one ply, and nothing is reduced or searched again: the plain search,
    // node for node, less LMR (which ERPS replaces); the frontier trio of `full` acts on both.
    int compared = 0;
    const std::size_t step = 2;
    for (const Position& pos : testing::sample_when_sanitized(erps_positions(), step)) {
        Searcher plain(SearchGame{}, variant::parse_variant("full,lmr=off"));
        Searcher erps(game_with(probabilities(0.25, 0.25)), variant::parse_variant("full,erps=on"));
        const auto a = run(plain, pos, 5);
        const auto b = run(erps, pos, 5);
        EXPECT_EQ(a.stats.nodes, b.stats.nodes) << pos.to_text();
        EXPECT_EQ(a.score, b.score) << pos.to_text();
        EXPECT_EQ(a.best_move, b.best_move) << pos.to_text();
        EXPECT_EQ(b.stats.erps_researches, 0u);
        ++compared;
    }
    EXPECT_GE(compared, testing::sanitized_build ? 20 / step : 20);
}

TEST(Erps, HalfAPlyAMoveSearchesTwiceAsDeep) {
    // Plain alpha-beta reads no whole plies anywhere (no TT, null move, futility or history):
    // with every move at half a ply, nominal depth d is plain depth 2d, value for value.
    for (const Position& pos : erps_positions()) {
        for (const int depth : {1, 2}) {
            Searcher plain(SearchGame{}, variant::parse_variant("ab"));
            Searcher erps(game_with(probabilities(0.5, 0.5)), variant::parse_variant("ab,erps=on,erps_min=50"));
            EXPECT_EQ(run(plain, pos, 2 * depth).score, run(erps, pos, depth).score) << pos.to_text() << " depth " << depth;
        }
    }
}

TEST(Erps, PlainRpsSearchesEveryMoveAtItsOwnDepthWithPvs) {
    // Without the safeguard nothing is searched deeper than its category says, the PVS re-search
    // of a later move included: with every move at two plies, nominal depth 2d is plain depth d,
    // value for value (PVS reads no whole plies either). Before the fix that re-search ran at
    // depth 2d - 1 and the values differed.
    int compared = 0;
    for (const Position& pos : erps_positions()) {
        for (const int depth : {1, 2}) {
            Searcher plain(SearchGame{}, variant::parse_variant("pvs"));
            Searcher rps(game_with(probabilities(1.0 / 16, 1.0 / 16)), variant::parse_variant("pvs,erps=on,erps_research=off"));
            const auto a = run(plain, pos, depth);
            const auto b = run(rps, pos, 2 * depth);
            EXPECT_EQ(a.score, b.score) << pos.to_text() << " depth " << depth;
            ++compared;
        }
    }
    EXPECT_GE(compared, 40);
}

TEST(Erps, AForcedPassCostsOnePly) {
    // Black's a1 and h8 are walled in by White: Black must pass. With every category at one ply
    // but category 0 (a quiet move between centre squares, no neighbours), which no move of this
    // 3-ply tree belongs to, ERPS is the plain search node for node, unless the pass is charged
    // as a category-0 move (two plies), as it was before.
    const Position pos = parse_position("6wb/6ww/8/8/8/8/ww6/bw6 b");
    const MoveList moves = legal_moves(pos);
    ASSERT_EQ(moves.size(), 1u);
    ASSERT_TRUE(moves.front().is_pass());
    RealizationProbabilities p = probabilities(0.25, 0.25);
    p.probability[0] = 1.0 / 16;
    Searcher plain(SearchGame{}, variant::parse_variant("full,lmr=off"));
    Searcher erps(game_with(p), variant::parse_variant("full,erps=on"));
    const auto a = run(plain, pos, 3);
    const auto b = run(erps, pos, 3);
    EXPECT_EQ(a.stats.nodes, b.stats.nodes);
    EXPECT_EQ(a.score, b.score);
    EXPECT_EQ(b.stats.erps_researches, 0u);
}

TEST(Erps, AReducedMoveKeepsAPlyBeforeQuiescence) {
    // At nominal depth 2 no move may be reduced into quiescence: with quiet moves at two plies,
    // ERPS is the plain search without LMR node for node; without the floor it is not.
    int differs_without_floor = 0;
    for (const Position& pos : erps_positions()) {
        Searcher plain(SearchGame{}, variant::parse_variant("full,lmr=off"));
        Searcher floor(game_with(probabilities(0.25, 1.0 / 16)), variant::parse_variant("full,erps=on,erps_floor=on"));
        Searcher no_floor(game_with(probabilities(0.25, 1.0 / 16)), variant::parse_variant("full,erps=on"));
        const auto a = run(plain, pos, 2);
        EXPECT_EQ(run(floor, pos, 2).stats.nodes, a.stats.nodes) << pos.to_text();
        differs_without_floor += run(no_floor, pos, 2).stats.nodes != a.stats.nodes;
    }
    EXPECT_GT(differs_without_floor, 10);
}

TEST(Erps, UnlikelyMovesAreSearchedShallowerAndAgainWhenTheyBeatAlpha) {
    // Quiet moves at 1/16 cost two plies, captures one: the tree shrinks, and reduced moves that
    // come back above alpha are searched again. Capping the cost at one ply undoes both.
    std::uint64_t plain_nodes = 0, erps_nodes = 0, rps_nodes = 0, researches = 0;
    for (const Position& pos : erps_positions()) {
        Searcher plain(SearchGame{}, variant::parse_variant("full,lmr=off"));
        Searcher erps(game_with(probabilities(0.25, 1.0 / 16)), variant::parse_variant("full,erps=on"));
        Searcher capped(game_with(probabilities(0.25, 1.0 / 16)), variant::parse_variant("full,erps=on,erps_max=100"));
        const auto a = run(plain, pos, 5);
        const auto b = run(erps, pos, 5);
        const auto c = run(capped, pos, 5);
        plain_nodes += a.stats.nodes;
        erps_nodes += b.stats.nodes;
        researches += b.stats.erps_researches;
        EXPECT_EQ(c.stats.nodes, a.stats.nodes) << pos.to_text();
        EXPECT_EQ(c.stats.erps_researches, 0u);
        // Plain RPS: the same reductions, never searched again.
        Searcher rps(game_with(probabilities(0.25, 1.0 / 16)), variant::parse_variant("full,erps=on,erps_research=off"));
        const auto d = run(rps, pos, 5);
        EXPECT_EQ(d.stats.erps_researches, 0u);
        rps_nodes += d.stats.nodes;
        // Deterministic.
        Searcher again(game_with(probabilities(0.25, 1.0 / 16)), variant::parse_variant("full,erps=on"));
        EXPECT_EQ(run(again, pos, 5).stats.nodes, b.stats.nodes);
    }
    EXPECT_LT(erps_nodes, plain_nodes / 2);
    EXPECT_LT(rps_nodes, erps_nodes);  // the re-searches cost nodes
    EXPECT_GT(researches, 0u);
}

}  // namespace
}  // namespace loa
