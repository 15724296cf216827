// Checks of the rules oracle (rules_minimax.hpp) itself, on hand-made positions whose values
// follow from the rules by hand. Every key move is checked against legal_moves(), and where a
// test relies on a move being the only legal one, that is asserted too.
//
// The evaluation used throughout is material: 10 * (own pieces - opponent pieces), from the
// side to move's point of view.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "loa/bitboard.hpp"
#include "loa/colour.hpp"
#include "loa/move.hpp"
#include "loa/movegen.hpp"
#include "loa/position.hpp"
#include "support/hand_positions.hpp"
#include "support/rules_minimax.hpp"

namespace {

using loa::Colour;
using loa::Move;
using loa::Position;

constexpr int Win1 = 30000 - 1;  // a game decided at ply 1
constexpr int Win2 = 30000 - 2;  // a game decided at ply 2

int material(const Position& pos) {
    const Colour us = pos.side_to_move();
    return 10 * (pos.count(us) - pos.count(~us));
}

using loa::testing::after;
using loa::testing::is_connected;
using loa::testing::legal_move;
using loa::testing::only_move;
using loa::testing::square;

oracle::Options qsearch(int level, int plies = 4) {
    oracle::Options o;
    o.qsearch_level = level;
    o.qsearch_plies = plies;
    return o;
}

TEST(RulesOracle, RejectsBadArguments) {
    EXPECT_THROW(oracle::minimax_value(Position::start(), 0, material), std::invalid_argument);
    EXPECT_THROW(oracle::minimax_value(Position::start(), 1, material, qsearch(3)), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// 1. A move that connects the mover wins at ply 1.

// Black a1 b1 d2, White h6 h8; Black to move. d2-c2 (rank 2 holds one piece) joins a1-b1-c2.
constexpr std::string_view MoverConnects = "7w/8/7w/8/8/8/3b4/bb6 b";

TEST(RulesOracle, MoveConnectingTheMoverWins) {
    const Position root = Position::from_text(MoverConnects);
    const Position child = after(root, legal_move(root, "d2", "c2"));
    ASSERT_TRUE(is_connected(child, Colour::Black));
    ASSERT_FALSE(is_connected(child, Colour::White));

    for (int depth = 1; depth <= 3; ++depth) {
        EXPECT_EQ(oracle::minimax_value(root, depth, material), Win1) << "depth " << depth;
        EXPECT_EQ(oracle::minimax_value(root, depth, material, qsearch(1)), Win1) << "depth " << depth;
    }
    // The connection rule comes before the repetition rule: a winning child seen twice before
    // is still a win.
    EXPECT_EQ(oracle::minimax_value(root, 1, material, {}, {child.key(), child.key()}), Win1);
}

// The root is searched even when a side is already connected in it: here White (h7 h8) is
// connected before Black moves. A Black move that does not connect Black hands White the win;
// d2-c2 connects Black too, which is a draw under the default and a win with
// simultaneous_mover_wins.
TEST(RulesOracle, RootIsNeverTerminal) {
    const Position root = Position::from_text("7w/7w/8/8/8/8/3b4/bb6 b");
    ASSERT_TRUE(is_connected(root, Colour::White));
    const Position child = after(root, legal_move(root, "d2", "c2"));
    ASSERT_TRUE(is_connected(child, Colour::Black));
    EXPECT_EQ(oracle::minimax_value(root, 1, material), 0);
    EXPECT_EQ(oracle::minimax_value(root, 2, material), 0);
    oracle::Options mover_wins;
    mover_wins.simultaneous_mover_wins = true;
    EXPECT_EQ(oracle::minimax_value(root, 1, material, mover_wins), Win1);
}

// 4a. At the root, the winning move is a capture: Black a1 b1 e2, White c2 h6 h8. e2xc2 (rank 2
// holds c2 and e2: distance 2) joins a1-b1-c2; no other Black move connects Black.
TEST(RulesOracle, WinningCaptureAtTheRoot) {
    const Position root = Position::from_text("7w/8/7w/8/8/8/2w1b3/bb6 b");
    const Move capture = legal_move(root, "e2", "c2");
    ASSERT_TRUE(capture.is_capture());
    for (const Move m : loa::legal_moves(root)) {
        const Position child = after(root, m);
        EXPECT_EQ(is_connected(child, Colour::Black), m == capture);
        EXPECT_FALSE(is_connected(child, Colour::White));
    }
    for (int level = 0; level <= 2; ++level) {
        EXPECT_EQ(oracle::minimax_value(root, 1, material, qsearch(level)), Win1) << "level " << level;
        EXPECT_EQ(oracle::minimax_value(root, 2, material, qsearch(level)), Win1) << "level " << level;
    }
}

// ---------------------------------------------------------------------------------------------
// 2. A capture of the opponent's last straggler: the opponent becomes connected and wins.

// Black a4 b2; White a6 d6 b5 e5 c4 d4 e4 a3 b3 d2. Black's only move is b2xd2 (rank 2 holds
// b2 and d2), after which White's remaining nine pieces form one group and Black (a4, d2) does
// not: White wins at ply 1.
constexpr std::string_view CaptureConnectsOpponent = "8/8/w2w4/1w2w3/b1www3/ww6/1b1w4/8 b";

TEST(RulesOracle, CaptureConnectingOnlyTheOpponentLoses) {
    const Position root = Position::from_text(CaptureConnectsOpponent);
    const Move capture = only_move(root);
    ASSERT_EQ(capture, legal_move(root, "b2", "d2"));
    ASSERT_TRUE(capture.is_capture());
    const Position child = after(root, capture);
    ASSERT_TRUE(is_connected(child, Colour::White));
    ASSERT_FALSE(is_connected(child, Colour::Black));

    for (int level = 0; level <= 2; ++level) {
        for (int depth = 1; depth <= 3; ++depth) {
            EXPECT_EQ(oracle::minimax_value(root, depth, material, qsearch(level)), -Win1)
                << "level " << level << " depth " << depth;
        }
    }
    // The simultaneous-connection option does not apply: only White is connected.
    oracle::Options mover_wins;
    mover_wins.simultaneous_mover_wins = true;
    EXPECT_EQ(oracle::minimax_value(root, 1, material, mover_wins), -Win1);
}

// The same inside quiescence. Black a7 c7; White b8 c8 a6 b6 e6 c5 e5. Black's only move is
// c7-e7; then White's only capture, c5xe7, leaves Black with a7 alone (connected): a loss for
// White at ply 2, so quiescence stands pat at material 10 * (7 - 2) = 50 for White.
TEST(RulesOracle, QuiescenceCaptureConnectingOnlyTheOpponentIsNoWin) {
    const Position root = Position::from_text("1ww5/b1b5/ww2w3/2w1w3/8/8/8/8 b");
    const Move quiet = only_move(root);
    ASSERT_EQ(quiet, legal_move(root, "c7", "e7"));
    const Position horizon = after(root, quiet);
    ASSERT_FALSE(is_connected(horizon, Colour::Black));
    ASSERT_FALSE(is_connected(horizon, Colour::White));
    const Move capture = legal_move(horizon, "c5", "e7");
    ASSERT_TRUE(capture.is_capture());
    int captures = 0;
    for (const Move m : loa::legal_moves(horizon)) captures += m.is_capture();
    ASSERT_EQ(captures, 1);
    const Position straggler_gone = after(horizon, capture);
    ASSERT_TRUE(is_connected(straggler_gone, Colour::Black));
    ASSERT_FALSE(is_connected(straggler_gone, Colour::White));
    ASSERT_EQ(material(horizon), 50);

    for (int level = 0; level <= 2; ++level)
        EXPECT_EQ(oracle::minimax_value(root, 1, material, qsearch(level)), -50) << "level " << level;
    // At depth 2 White avoids c5xe7 (a loss at ply 2); every other White move is quiet and
    // ends nothing, leaving material -50 for Black to move.
    EXPECT_EQ(oracle::minimax_value(root, 2, material), -50);
}

// ---------------------------------------------------------------------------------------------
// 3. A capture that connects both sides at once.

// Black h8 f7; White f8 d7 h7 e6 g6 e5 f5 d4 c3. Black's only move is h8xf8 (rank 8 holds f8
// and h8): Black f8-f7 is one group, and so is White without f8.
constexpr std::string_view CaptureConnectsBoth = "5w1b/3w1b1w/4w1w1/4ww2/3w4/2w5/8/8 b";

TEST(RulesOracle, CaptureConnectingBothSides) {
    const Position root = Position::from_text(CaptureConnectsBoth);
    const Move capture = only_move(root);
    ASSERT_EQ(capture, legal_move(root, "h8", "f8"));
    ASSERT_TRUE(capture.is_capture());
    const Position child = after(root, capture);
    ASSERT_TRUE(is_connected(child, Colour::Black));
    ASSERT_TRUE(is_connected(child, Colour::White));

    oracle::Options mover_wins;
    mover_wins.simultaneous_mover_wins = true;
    for (int depth = 1; depth <= 3; ++depth) {
        EXPECT_EQ(oracle::minimax_value(root, depth, material), 0) << "depth " << depth;
        EXPECT_EQ(oracle::minimax_value(root, depth, material, qsearch(1)), 0) << "depth " << depth;
        EXPECT_EQ(oracle::minimax_value(root, depth, material, mover_wins), Win1) << "depth " << depth;
    }
}

// ---------------------------------------------------------------------------------------------
// 4b. A win found only by quiescence.

// Black h8 h6 h4; White g8 g7 e6 f6 g5 h5 g3. Black's only move is h4-g4. Then White wins at
// ply 2 with the capture e6xg4 (among others, g3-f4 and g3-h4 also connect White, but they
// are quiet). At depth 1 only quiescence can see the capture.
constexpr std::string_view QuiescenceWin = "6wb/6w1/4ww1b/6ww/7b/6w1/8/8 b";

TEST(RulesOracle, WinningCaptureFoundByQuiescence) {
    const Position root = Position::from_text(QuiescenceWin);
    const Move quiet = only_move(root);
    ASSERT_EQ(quiet, legal_move(root, "h4", "g4"));
    const Position horizon = after(root, quiet);
    ASSERT_FALSE(is_connected(horizon, Colour::Black));
    ASSERT_FALSE(is_connected(horizon, Colour::White));
    const Move capture = legal_move(horizon, "e6", "g4");
    ASSERT_TRUE(capture.is_capture());
    const Position won = after(horizon, capture);
    ASSERT_TRUE(is_connected(won, Colour::White));
    ASSERT_FALSE(is_connected(won, Colour::Black));
    // The capture changes Black's Euler numerator, so level 2 keeps it.
    ASSERT_NE(won.euler_numerator(Colour::Black), horizon.euler_numerator(Colour::Black));
    ASSERT_EQ(material(horizon), 40);  // 7 White pieces against 3

    EXPECT_EQ(oracle::minimax_value(root, 1, material), -40);              // no quiescence
    EXPECT_EQ(oracle::minimax_value(root, 1, material, qsearch(1)), -Win2);
    EXPECT_EQ(oracle::minimax_value(root, 1, material, qsearch(2)), -Win2);
    EXPECT_EQ(oracle::minimax_value(root, 1, material, qsearch(1, 0)), -40);  // no capture plies allowed
    EXPECT_EQ(oracle::minimax_value(root, 1, material, qsearch(1, 1)), -Win2);
    // With a full ply more, the plain search finds White's wins at ply 2.
    EXPECT_EQ(oracle::minimax_value(root, 2, material), -Win2);

    // Searched from the horizon position itself, White wins at ply 1.
    EXPECT_EQ(oracle::minimax_value(horizon, 1, material), Win1);
}

// Level 2 skips captures that change neither Euler numerator. Black b8 h8 g7; White e8 f8 a7
// c7 e7 h7 f6 g6 e5. Black's only move is b8-b7; White's only capture is then e8xh8 (over its
// own f8), which leaves both Euler numerators as they were and ends nothing.
TEST(RulesOracle, QuiescenceLevelTwoSkipsEulerNeutralCaptures) {
    const Position root = Position::from_text("1b2ww1b/w1w1w1bw/5ww1/4w3/8/8/8/8 b");
    const Move quiet = only_move(root);
    ASSERT_EQ(quiet, legal_move(root, "b8", "b7"));
    const Position horizon = after(root, quiet);
    ASSERT_FALSE(is_connected(horizon, Colour::Black));
    ASSERT_FALSE(is_connected(horizon, Colour::White));
    const Move capture = legal_move(horizon, "e8", "h8");
    ASSERT_TRUE(capture.is_capture());
    int captures = 0;
    for (const Move m : loa::legal_moves(horizon)) captures += m.is_capture();
    ASSERT_EQ(captures, 1);
    const Position captured = after(horizon, capture);
    ASSERT_FALSE(is_connected(captured, Colour::Black));
    ASSERT_FALSE(is_connected(captured, Colour::White));
    ASSERT_EQ(captured.euler_numerator(Colour::Black), horizon.euler_numerator(Colour::Black));
    ASSERT_EQ(captured.euler_numerator(Colour::White), horizon.euler_numerator(Colour::White));
    ASSERT_EQ(material(horizon), 60);    // 9 White pieces against 3
    ASSERT_EQ(material(captured), -70);  // Black to move, 2 against 9

    EXPECT_EQ(oracle::minimax_value(root, 1, material), -60);
    EXPECT_EQ(oracle::minimax_value(root, 1, material, qsearch(2)), -60);
    // Level 1 with one capture ply: White's stand pat 60 against 70 after the capture.
    EXPECT_EQ(oracle::minimax_value(root, 1, material, qsearch(1, 1)), -70);
}

// ---------------------------------------------------------------------------------------------
// Passes count as plies.

// Black a8 a7 a5 cannot move (every destination is off the board, an own piece, or behind a
// White piece): Black passes. The pass leaves 8 White pieces against 3; White then connects
// with e2-c4 at ply 2.
TEST(RulesOracle, PassIsAPly) {
    const Position root = Position::from_text("bw6/bw6/1w6/bw6/ww6/w7/4w3/8 b");
    ASSERT_TRUE(only_move(root).is_pass());
    const Position passed = after(root, Move::pass());
    ASSERT_EQ(passed.side_to_move(), Colour::White);
    const Position won = after(passed, legal_move(passed, "e2", "c4"));
    ASSERT_TRUE(is_connected(won, Colour::White));
    ASSERT_FALSE(is_connected(won, Colour::Black));

    EXPECT_EQ(oracle::minimax_value(root, 1, material), -50);
    EXPECT_EQ(oracle::minimax_value(root, 2, material), -Win2);
    EXPECT_EQ(oracle::minimax_value(root, 3, material), -Win2);
}

// Black a1 g1 h1 cannot move and passes; White's only capture f1xa1 leaves Black g1-h1, one
// group: a loss for White, which quiescence must not take. Material after the pass: 7 White
// pieces against 3.
TEST(RulesOracle, PassThenStragglerCapture) {
    const Position root = Position::from_text("8/8/8/8/8/8/ww3www/b1w2wbb b");
    ASSERT_TRUE(only_move(root).is_pass());
    const Position passed = after(root, Move::pass());
    const Position gone = after(passed, legal_move(passed, "f1", "a1"));
    ASSERT_TRUE(is_connected(gone, Colour::Black));
    ASSERT_FALSE(is_connected(gone, Colour::White));

    EXPECT_EQ(oracle::minimax_value(root, 1, material), -40);
    EXPECT_EQ(oracle::minimax_value(root, 1, material, qsearch(1)), -40);
    EXPECT_EQ(oracle::minimax_value(root, 2, material), -40);
}

// ---------------------------------------------------------------------------------------------
// 5. Repetition.

TEST(RulesOracle, RepetitionThroughGameHistory) {
    // QuiescenceWin: Black's only move h4-g4 reaches a position worth material -40 to Black.
    const Position root = Position::from_text(QuiescenceWin);
    const Position child = after(root, only_move(root));
    const std::uint64_t other = Position::start().key();

    EXPECT_EQ(oracle::minimax_value(root, 1, material), -40);
    EXPECT_EQ(oracle::minimax_value(root, 1, material, {}, {child.key()}), -40);          // second occurrence
    EXPECT_EQ(oracle::minimax_value(root, 1, material, {}, {child.key(), child.key()}), 0);  // third
    EXPECT_EQ(oracle::minimax_value(root, 1, material, {}, {child.key(), other, child.key()}), 0);
    EXPECT_EQ(oracle::minimax_value(root, 1, material, {}, {other, child.key(), other}), -40);
    // The root itself is never scored as repeated.
    EXPECT_EQ(oracle::minimax_value(root, 1, material, {}, {root.key(), root.key(), root.key()}), -40);
    // Switched off.
    oracle::Options no_repetition;
    no_repetition.repetition_draws = false;
    EXPECT_EQ(oracle::minimax_value(root, 1, material, no_repetition, {child.key(), child.key()}), -40);
    // With quiescence the draw pre-empts White's winning capture below the child.
    EXPECT_EQ(oracle::minimax_value(root, 1, material, qsearch(1), {child.key(), child.key()}), 0);
}

// A position that repeats one on the search path is a draw and is never evaluated.
struct Evaluated {
    int root = 0, child = 0;  // evaluations of positions with the root's / the child's key
};

Evaluated count_evaluations(const Position& root, const Position& child, int depth, bool repetition_draws) {
    Evaluated seen;
    oracle::Options options;
    options.repetition_draws = repetition_draws;
    oracle::minimax_value(
        root, depth,
        [&](const Position& pos) {
            seen.root += pos.key() == root.key();
            seen.child += pos.key() == child.key();
            return material(pos);
        },
        options);
    return seen;
}

TEST(RulesOracle, RepetitionOnThePath) {
    // Three pieces a side, far apart: both sides can move a piece out and back, so the root
    // recurs at ply 4 (any position at ply 4 with the root's key has the root on its path).
    const Position open = Position::from_text("3b4/8/8/w6w/4w3/8/8/b6b b");
    const Position open_child = after(open, legal_move(open, "d8", "c8"));
    EXPECT_GT(count_evaluations(open, open_child, 4, false).root, 0);
    EXPECT_EQ(count_evaluations(open, open_child, 4, true).root, 0);

    // An ancestor below the root: Black's only move c7-e7 leads to `child`, so every position
    // at ply 5 with the child's key has the child on its path.
    const Position root = Position::from_text("1ww5/b1b5/ww2w3/2w1w3/8/8/8/8 b");
    const Position child = after(root, only_move(root));
    EXPECT_GT(count_evaluations(root, child, 5, false).child, 0);
    EXPECT_EQ(count_evaluations(root, child, 5, true).child, 0);
}

// ---------------------------------------------------------------------------------------------
// Sanity: negamax signs with a constant evaluation from the start, where nothing ends within
// two plies: the horizon's side to move alternates with the depth.
TEST(RulesOracle, StartPosition) {
    const Position start = Position::start();
    EXPECT_EQ(oracle::minimax_value(start, 1, [](const Position&) { return 7; }), -7);
    EXPECT_EQ(oracle::minimax_value(start, 2, [](const Position&) { return 7; }), 7);
}

}  // namespace
