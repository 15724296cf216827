// The evaluation: symmetry under the board's symmetries and the colour swap, hand-checked
// feature values, the frozen reference on every test position, and the tapered weights.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "common/search/score.hpp"
#include "loa/error.hpp"
#include "loa/bench_positions.hpp"
#include "loa/evaluation.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "loa/symmetry.hpp"
#include "support/reference_evaluation.hpp"
#include "support/sanitized_build.hpp"
#include "support/test_positions.hpp"
#include "support/eval_features.hpp"

namespace loa {
namespace {

using loa::testing::feature;

TEST(Evaluation, IsInvariantUnderBoardSymmetriesAndColourSwap) {
    const Evaluator eval;
    int checked = 0;
    for (const Position& pos : testing::random_positions(21, 12, 70)) {
        const int expected = eval.evaluate(pos);
        for (int k = 0; k < 8; ++k)
            for (const bool swap : {false, true}) {
                ASSERT_EQ(eval.evaluate(transform(pos, k, swap)), expected)
                    << pos.to_text() << " symmetry " << k << (swap ? " with colour swap" : "");
                ++checked;
            }
    }
    EXPECT_GT(checked, 5000);
}

TEST(Evaluation, StartPositionIsBalancedButForTheSideToMove) {
    const Evaluator eval;
    EXPECT_EQ(eval.evaluate(Position::start()), EvalWeights::full().side_to_move);
    EXPECT_EQ(eval.evaluate(Position::scrambled_eggs()), EvalWeights::full().side_to_move);
}

TEST(Evaluation, HandCheckedFeatureValues) {
    // Black: a packed 3x3 block around d4 (surplus 0: concentration 1000); White: two corners.
    const Position pos = Position::from_text("w7/8/8/8/2bbb3/2bbb3/2bbb3/7w b");
    EXPECT_EQ(feature(pos, Colour::Black, Feature::Concentration), 1000);
    EXPECT_EQ(feature(pos, Colour::Black, Feature::Groups), 0);
    EXPECT_EQ(feature(pos, Colour::White, Feature::Groups), -100);
    EXPECT_EQ(feature(pos, Colour::Black, Feature::Uniformity), -90);
    EXPECT_EQ(feature(pos, Colour::White, Feature::Uniformity), -640);
    // 3x3 block: 6 + 6 orthogonal and 4 + 4 diagonal adjacent pairs = 20; 100 * 20 / 9.
    EXPECT_EQ(feature(pos, Colour::Black, Feature::Connections), 222);
    EXPECT_EQ(feature(pos, Colour::White, Feature::Connections), 0);
    EXPECT_EQ(feature(pos, Colour::Black, Feature::Quads), 0);     // Euler number 1
    EXPECT_EQ(feature(pos, Colour::White, Feature::Quads), -100);  // Euler number 2
    EXPECT_EQ(feature(pos, Colour::White, Feature::Centralisation), -80);
    // Centre of mass d3 (3, 2): twice its Chebyshev distance from the middle (3.5, 3.5) is 3.
    EXPECT_EQ(feature(pos, Colour::Black, Feature::CentreOfMass), -30);
    EXPECT_EQ(feature(pos, Colour::White, Feature::CentreOfMass), 0);
    EXPECT_LT(feature(pos, Colour::White, Feature::Concentration), 1000);
    EXPECT_EQ(feature(pos, Colour::Black, Feature::Material), 900);
    EXPECT_EQ(feature(pos, Colour::White, Feature::Material), 200);
}

TEST(Evaluation, BlockedCountsPiecesWithoutALegalMove) {
    // White a8 is boxed in by Black a7, b7 and b8: each of its lines holds 2 pieces, so every move
    // of 2 would pass an enemy piece. White h1 moves freely, and so does every Black piece.
    const Position pos = Position::from_text("wb6/bb6/8/8/8/8/8/7w w");
    EXPECT_EQ(feature(pos, Colour::White, Feature::Blocked), -100);
    EXPECT_EQ(feature(pos, Colour::Black, Feature::Blocked), 0);
    // Without mobility or blocked weighted the search skips the loop (both read 0); a blocked
    // weight alone brings it back.
    EvalWeights w = EvalWeights::hand();  // untapered: one mobility weight to zero
    w[Feature::Mobility] = 0;
    EXPECT_EQ(side_features(pos, Colour::White, w, false)[static_cast<std::size_t>(Feature::Blocked)], 0);
    w[Feature::Blocked] = 10;
    EXPECT_EQ(side_features(pos, Colour::White, w, false)[static_cast<std::size_t>(Feature::Blocked)], -100);
}

TEST(Evaluation, WallsCountEdgePiecesBlockedFromInside) {
    // White a4 is walled in by Black b4; Black h1 by White h2 and g1.
    const Position pos = Position::from_text("8/8/8/8/wb6/8/7w/6wb w");
    EXPECT_EQ(feature(pos, Colour::White, Feature::Walls), -100);
    EXPECT_EQ(feature(pos, Colour::Black, Feature::Walls), -200);
}

TEST(Evaluation, PrefersConnectedStructures) {
    const Evaluator eval;
    const Position compact = Position::from_text("8/8/3bb3/3bb3/8/8/w7/7w b");
    const Position spread = Position::from_text("b7/8/8/3b4/8/8/w5b1/b6w b");
    EXPECT_GT(eval.evaluate(compact), eval.evaluate(spread));
    EXPECT_GT(eval.evaluate(compact), 0);
}

TEST(Evaluation, StaysInsideTheSearchScoreRange) {
    const Evaluator eval;
    for (const Position& pos : testing::random_positions(5, 10, 100)) {
        const int v = eval.evaluate(pos);
        EXPECT_LT(std::abs(v), search::EvalLimit);
        EXPECT_LE(std::abs(v), EvalClamp);
    }
}

TEST(Evaluation, BreakdownAddsUpToTheTotal) {
    const Evaluator eval;
    for (const Position& pos : testing::random_positions(8, 5, 40)) {
        const EvalBreakdown b = eval.breakdown(pos);
        int sum = b.side_to_move;
        for (const int t : b.terms) sum += t;
        EXPECT_EQ(b.total, std::clamp(sum, -EvalClamp, EvalClamp));
    }
}

// Every position of the test sets: the bench positions, the tree-size positions, the thesis
// games, positions from random games, and sparse endgames.
std::vector<Position> evaluation_test_set() {
    std::vector<Position> out;
    for (const NamedPosition& p : BenchPositions) out.push_back(Position::from_text(p.text));
    std::ifstream treesize(LOA_DATA_DIR "/treesize-positions.txt");
    for (std::string line; std::getline(treesize, line);)
        if (!line.empty() && line.front() != '#') out.push_back(parse_position(line));
    for (const auto& entry : std::filesystem::directory_iterator(LOA_TEST_DATA_DIR "/thesis-games")) {
        if (entry.path().extension() != ".txt" || entry.path().filename() == "README.md") continue;
        std::ifstream in(entry.path());
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        Game game;
        for (const std::string_view m : split_move_list(text)) {
            if (game.over()) break;
            game.play(m);
            out.push_back(game.position());
        }
    }
    for (const Position& p : testing::random_positions(2024, 150, 90)) out.push_back(p);
    for (const Position& p : testing::sparse_positions(77, 1500, 1, 6)) out.push_back(p);
    return out;
}

std::vector<EvalWeights> evaluation_test_weights() {
    // Untapered weights: the reference combines features with one weight each (the tapered
    // mix has its own test below).
    std::vector<EvalWeights> out = {EvalWeights::hand(), EvalWeights::concentration_only()};
    EvalWeights all;
    all.weight.fill(100);
    all.side_to_move = 7;
    out.push_back(all);
    std::mt19937_64 rng(5);
    for (int i = 0; i < 4; ++i) {
        EvalWeights w;
        for (int& x : w.weight) x = std::uniform_int_distribution<int>(-300, 300)(rng);
        w.side_to_move = std::uniform_int_distribution<int>(-50, 50)(rng);
        out.push_back(w);
    }
    return out;
}

TEST(Evaluation, EqualsTheFrozenReferenceOnEveryTestPosition) {
    const auto all = evaluation_test_set();
    ASSERT_GT(all.size(), 10000u);
    const auto positions = testing::sample_when_sanitized(all, 4);
    for (const EvalWeights& w : evaluation_test_weights()) {
        const Evaluator eval(w);
        const SearchGame game(RuleSet{}, eval);  // with its cache: every position twice
        for (int round = 0; round < 2; ++round)
            for (const Position& p : positions) {
                const int expected = reference::evaluate(p, w);
                ASSERT_EQ(eval.evaluate(p), expected) << p.to_text();
                ASSERT_EQ(game.evaluate(p), expected) << p.to_text();
                if (round == 0) {
                    const EvalBreakdown b = eval.breakdown(p);
                    ASSERT_EQ(b.features[index(Colour::Black)], reference::side_features(p, Colour::Black)) << p.to_text();
                    ASSERT_EQ(b.features[index(Colour::White)], reference::side_features(p, Colour::White)) << p.to_text();
                    ASSERT_EQ(b.total, expected);
                }
            }
    }
}

TEST(Evaluation, TaperedWeightsMoveFromOpeningToEndgameWithThePieceCount) {
    EvalWeights opening = EvalWeights::hand(), endgame;
    endgame.weight = {60, 0, 10, 30, 140, 0, 20, 50, 5};
    EvalWeights tapered = opening;
    tapered.tapered = true;
    tapered.endgame = endgame.weight;
    const Evaluator mixed(tapered), early(opening), late(endgame);
    int full_board = 0, bare = 0, between = 0;
    for (const Position& p : evaluation_test_set()) {
        const int pieces = popcount(p.occupied());
        // Written from the documented formula: phase = clamp(pieces - 4, 0, 20), and each weight
        // (opening x phase + endgame x (20 - phase)) / 20, truncated towards zero.
        const int phase = std::clamp(pieces - 4, 0, 20);
        const Colour us = p.side_to_move();
        const FeatureValues mine = reference::side_features(p, us), theirs = reference::side_features(p, ~us);
        int expected = 0;
        for (std::size_t k = 0; k < mine.size(); ++k)
            expected += (opening.weight[k] * phase + endgame.weight[k] * (20 - phase)) / 20 * (mine[k] - theirs[k]) / 100;
        ASSERT_EQ(mixed.evaluate(p), std::clamp(expected, -EvalClamp, EvalClamp)) << p.to_text();
        if (pieces >= 24) {
            ++full_board;
            ASSERT_EQ(mixed.evaluate(p), early.evaluate(p));
        } else if (pieces <= 4) {
            ++bare;
            ASSERT_EQ(mixed.evaluate(p), late.evaluate(p));
        } else {
            ++between;
        }
    }
    EXPECT_GT(full_board, 0);
    EXPECT_GT(bare, 0);
    EXPECT_GT(between, 1000);
}

}  // namespace
}  // namespace loa
