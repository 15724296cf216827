// The margin calibration (loa-match margins): the lift it reports against a direct
// computation from the rules and the evaluation, and the coverage and suggestion arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "loa/evaluation.hpp"
#include "loa/movegen.hpp"
#include "loa/rules.hpp"
#include "matches/margins.hpp"
#include "matches/treesize.hpp"

namespace {

using matches::MarginNode;

MarginNode node(int pieces, int lift) {
    MarginNode n;
    n.pieces = pieces;
    n.phase = std::clamp(pieces - 4, 0, loa::MaxPhase);
    n.lift = {lift};
    n.forced_win = {false};
    return n;
}

// Without quiescence, a quiet move's depth-1 value is minus the evaluation of the position it
// reaches: the lift is the best of those less the node's own evaluation.
TEST(Margins, DepthOneLiftIsTheBestQuietMovesEvaluationGain) {
    matches::MarginSettings s;
    s.positions = matches::load_positions(std::string(LOA_DATA_DIR) + "/treesize-positions.txt");
    s.positions.resize(12);
    s.max_depth = 1;
    s.variant = "ab,qsearch=off";
    s.concurrency = 2;
    const matches::MarginStudy study = matches::run_margin_study(s, false);
    const loa::Evaluator eval;
    std::size_t next = 0;
    for (const loa::Position& start : s.positions) {
        loa::Position pos = start;
        loa::MoveList moves;
        loa::generate_moves(pos, moves);
        int best = -1'000'000;
        bool any = false;
        for (const loa::Move m : moves) {
            if (m.is_capture()) continue;
            pos.make(m);
            if (!loa::connection_result(pos, loa::RuleSet{}).over()) {
                any = true;
                best = std::max(best, -eval.evaluate(pos) - eval.evaluate(start));
            }
            pos.unmake(m);
        }
        if (!any) continue;
        ASSERT_LT(next, study.nodes.size());
        EXPECT_EQ(study.nodes[next].lift[0], best) << start.to_text();
        EXPECT_EQ(study.nodes[next].pieces, loa::popcount(start.occupied()));
        ++next;
    }
    EXPECT_EQ(next, study.nodes.size());
    EXPECT_GT(next, 0u);
}

TEST(Margins, CoverageCountsNodesAtTheirPhasesMarginAndLeavesForcedWinsOut) {
    std::vector<MarginNode> nodes = {node(24, 100), node(24, 200), node(8, 300), node(8, 500)};
    nodes.push_back(node(8, 5000));
    nodes.back().forced_win = {true};
    // 150 in the opening (24 pieces, phase 20), 400 with 8 pieces (phase 4: 150 + 250 * 16 / 20 = 350).
    const search::TaperedMargin m{150, 400};
    EXPECT_EQ(m.at(4, loa::MaxPhase), 350);
    EXPECT_DOUBLE_EQ(matches::margin_coverage(nodes, 1, m, nullptr), 0.5);
    matches::MarginBand sparse;
    sparse.min_pieces = 2;
    sparse.max_pieces = 8;
    EXPECT_DOUBLE_EQ(matches::margin_coverage(nodes, 1, m, &sparse), 0.5);
    EXPECT_DOUBLE_EQ(matches::margin_coverage(nodes, 1, {200, 600}, &sparse), 1.0);
}

TEST(Margins, TheSuggestionIsTheLeastMarginCoveringEveryBand) {
    std::vector<MarginNode> nodes = {node(24, 100), node(24, 120), node(8, 300), node(8, 310)};
    matches::MarginBand opening, sparse;
    opening.min_pieces = 21, opening.max_pieces = 24;
    sparse.min_pieces = 2, sparse.max_pieces = 8;
    const std::vector<matches::MarginBand> bands = {opening, sparse};
    const auto suggested = matches::suggest_margin(nodes, bands, 1, 1.0);
    ASSERT_TRUE(suggested.has_value());
    const search::TaperedMargin best = *suggested;
    // It covers everything, and neither of its margins can come down a step.
    for (const auto& b : bands) EXPECT_DOUBLE_EQ(matches::margin_coverage(nodes, 1, best, &b), 1.0);
    EXPECT_EQ(best.opening, 120);
    const bool smaller_endgame_enough = matches::margin_coverage(nodes, 1, {best.opening, best.endgame - 10}, &sparse) >= 1.0;
    EXPECT_FALSE(smaller_endgame_enough);
    // 310 needed at phase 4: 120 + (e - 120) * 16 / 20 >= 310, so e = 360 (integer steps of 10).
    EXPECT_EQ(best.endgame, 360);
    // A lift beyond every margin the search tries leaves no suggestion, not a made-up one.
    nodes.push_back(node(24, 4000));
    EXPECT_FALSE(matches::suggest_margin(nodes, bands, 1, 1.0).has_value());
    EXPECT_TRUE(matches::suggest_margin(nodes, bands, 1, 0.6).has_value());
}

}  // namespace
