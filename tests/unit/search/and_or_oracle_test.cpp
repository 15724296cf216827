// Checks of the AND-OR oracle (and_or_oracle.hpp) itself, on hand-made positions whose values
// follow from the rules by hand. The hand argument of each position is written next to it, and
// the facts it rests on (which moves are legal, which moves connect whom) are asserted with
// legal_moves() and the flood fill oracle::connected(), never with a game-tree search (the one
// enumeration, black_has_safe_replies, checks a property of every line and makes no choices).
#include <gtest/gtest.h>

#include <initializer_list>
#include <stdexcept>
#include <string_view>

#include "loa/bitboard.hpp"
#include "loa/colour.hpp"
#include "loa/move.hpp"
#include "loa/movegen.hpp"
#include "loa/position.hpp"
#include "support/hand_positions.hpp"
#include "support/and_or_oracle.hpp"
#include "support/rules_minimax.hpp"

namespace {

using and_or::Value;
using loa::Colour;
using loa::Move;
using loa::Position;

using loa::testing::after;
using loa::testing::is_connected;
using loa::testing::legal_move;
using loa::testing::only_move;
using loa::testing::square;
using loa::testing::squares;

// The connection rule for a position just reached by a move.
oracle::Outcome outcome(const Position& pos) { return oracle::outcome_after_move(pos, oracle::Options{}); }

// True when the side to move in `pos` has a move that connects it and leaves the opponent split.
bool has_connecting_move(const Position& pos) {
    for (const Move m : loa::legal_moves(pos))
        if (outcome(after(pos, m)) == oracle::Outcome::MoverWins) return true;
    return false;
}

// The two entry points agree: Win iff the root side forces a win, Loss iff the other side does.
void expect_consistent(const Position& root, int max_limit) {
    for (int limit = 1; limit <= max_limit; ++limit) {
        const Value value = and_or::solve_with_ply_limit(root, limit);
        EXPECT_EQ(and_or::forced_win_within(root, true, limit), value == Value::Win)
            << root.to_text() << " limit " << limit;
        EXPECT_EQ(and_or::forced_win_within(root, false, limit), value == Value::Loss)
            << root.to_text() << " limit " << limit;
        // The repetition rule cannot change the value (see the header): check it.
        and_or::detail::Settings no_repetition;
        no_repetition.ply_limit = limit;
        no_repetition.repetition_draws = false;
        EXPECT_EQ(and_or::detail::solve(root, no_repetition), value) << root.to_text() << " limit " << limit;
    }
    EXPECT_FALSE(and_or::forced_win_within(root, true, 0));
    EXPECT_FALSE(and_or::forced_win_within(root, false, 0));
}

// ---------------------------------------------------------------------------------------------
// 1. The side to move connects in one move: Win at every limit.
//
// Black a1 c2; White f7 h7; Black to move. a1-b1 (rank 1 holds one piece: distance 1) puts b1
// next to c2: Black is one group and White (f7, h7: two squares apart) is not. Black wins at
// ply 1.
constexpr std::string_view ConnectsInOne = "8/5w1w/8/8/8/8/2b5/b7 b";

TEST(AndOrOracle, ConnectingMoveWinsAtPlyOne) {
    const Position root = Position::from_text(ConnectsInOne);
    ASSERT_EQ(root.pieces(Colour::Black), squares({"a1", "c2"}));
    ASSERT_EQ(root.pieces(Colour::White), squares({"f7", "h7"}));
    const Position won = after(root, legal_move(root, "a1", "b1"));
    ASSERT_EQ(outcome(won), oracle::Outcome::MoverWins);

    for (int limit = 1; limit <= 4; ++limit)
        EXPECT_EQ(and_or::solve_with_ply_limit(root, limit), Value::Win) << "limit " << limit;
    EXPECT_TRUE(and_or::forced_win_within(root, true, 1));
    EXPECT_FALSE(and_or::forced_win_within(root, false, 4));
    expect_consistent(root, 4);

    // The other side's view: Black a1 c2 against White a8 h8 h5, White to move. White's three
    // pieces cannot become one group in one move (a8 stays at least five files from the h-file
    // pieces), and after each White move Black still has a connecting move (checked below): a
    // Loss for the root's side to move (White) at limit 2, a Draw at limit 1.
    const Position white_to_move = Position::from_text("w6w/8/8/7w/8/8/2b5/b7 w");
    ASSERT_EQ(white_to_move.side_to_move(), Colour::White);
    for (const Move m : loa::legal_moves(white_to_move)) {
        const Position child = after(white_to_move, m);
        ASSERT_EQ(outcome(child), oracle::Outcome::None) << child.to_text();
        ASSERT_TRUE(has_connecting_move(child)) << child.to_text();
    }
    EXPECT_EQ(and_or::solve_with_ply_limit(white_to_move, 1), Value::Draw);
    EXPECT_EQ(and_or::solve_with_ply_limit(white_to_move, 2), Value::Loss);
    EXPECT_TRUE(and_or::forced_win_within(white_to_move, false, 2));
    EXPECT_FALSE(and_or::forced_win_within(white_to_move, false, 1));
    EXPECT_FALSE(and_or::forced_win_within(white_to_move, true, 3));
    expect_consistent(white_to_move, 3);
}

// ---------------------------------------------------------------------------------------------
// 2. Every move lets the opponent connect next: Loss at limit 2, Draw at limit 1.
//
// Black a8 h8; White c3 d3 e3 f5; Black to move. Black's moves: a8-c8 (rank 8 holds two
// pieces), a8-a7, a8-b7, h8-f8, h8-h7, h8-f6 (the long diagonal holds h8 and c3). None is a
// capture, and Black's two pieces stay at least five files apart, so nothing is decided at
// ply 1 (White still has f5 apart from c3-d3-e3). Then White always has f5-f4 (next to e3),
// or, when Black's piece stands on the f file (h8-f8, h8-f6), f5-f3 (next to e3): White wins
// at ply 2.
constexpr std::string_view LosesInTwo = "b6b/8/8/5w2/8/2www3/8/8 b";

TEST(AndOrOracle, EveryMoveLetsTheOpponentConnect) {
    const Position root = Position::from_text(LosesInTwo);
    ASSERT_EQ(root.pieces(Colour::Black), squares({"a8", "h8"}));
    ASSERT_EQ(root.pieces(Colour::White), squares({"c3", "d3", "e3", "f5"}));
    ASSERT_EQ(loa::legal_moves(root).size(), 6u);
    for (const Move m : loa::legal_moves(root)) {
        const Position child = after(root, m);
        ASSERT_EQ(outcome(child), oracle::Outcome::None) << child.to_text();
        const bool on_f_file = (child.pieces(Colour::Black) & squares({"f8", "f6"})) != 0;
        const Position won = after(child, on_f_file ? legal_move(child, "f5", "f3") : legal_move(child, "f5", "f4"));
        ASSERT_EQ(outcome(won), oracle::Outcome::MoverWins) << won.to_text();
    }

    EXPECT_EQ(and_or::solve_with_ply_limit(root, 1), Value::Draw);
    EXPECT_EQ(and_or::solve_with_ply_limit(root, 2), Value::Loss);
    EXPECT_EQ(and_or::solve_with_ply_limit(root, 3), Value::Loss);
    EXPECT_FALSE(and_or::forced_win_within(root, false, 1));
    EXPECT_TRUE(and_or::forced_win_within(root, false, 2));
    EXPECT_FALSE(and_or::forced_win_within(root, true, 3));
    expect_consistent(root, 3);
}

// A pass is a ply. Black a8 a7 a5 has no move (every line either leaves the board, ends on its
// own piece or jumps a White piece): its only move is the pass. White then connects with e2-c4
// (the diagonal a6-f1 holds b5 and e2): Loss at limit 2, Draw at limit 1.
TEST(AndOrOracle, PassIsAPly) {
    const Position root = Position::from_text("bw6/bw6/1w6/bw6/ww6/w7/4w3/8 b");
    ASSERT_EQ(root.pieces(Colour::Black), squares({"a8", "a7", "a5"}));
    ASSERT_TRUE(only_move(root).is_pass());
    const Position passed = after(root, Move::pass());
    ASSERT_EQ(outcome(passed), oracle::Outcome::None);
    ASSERT_EQ(outcome(after(passed, legal_move(passed, "e2", "c4"))), oracle::Outcome::MoverWins);

    EXPECT_EQ(and_or::solve_with_ply_limit(root, 1), Value::Draw);
    EXPECT_EQ(and_or::solve_with_ply_limit(root, 2), Value::Loss);
    EXPECT_TRUE(and_or::forced_win_within(root, false, 2));
    EXPECT_FALSE(and_or::forced_win_within(root, false, 1));
    expect_consistent(root, 3);
}

// ---------------------------------------------------------------------------------------------
// 3. Connections of both sides, and of the opponent alone.
//
// Black a2 d1; White b1 b2 a3 b3 (already one group: the root is still searched). Black's a2
// cannot move (a2-b1 diagonal: two pieces, so two squares, off the board; every other line
// would jump a White piece). d1 has d1xb1 (rank 1 holds b1 and d1), d1xb3 (diagonal d1-a4
// holds d1 and b3), d1-f1, d1-d2 and d1-e2. Each capture lands next to a2 and leaves White's
// other three pieces in one group: both sides connected, a draw. Each quiet move leaves White
// connected and Black split: a loss at ply 1. Value: Draw at every limit (a win if a double
// connection counted for the mover, a loss if it counted for the opponent).
constexpr std::string_view SimultaneousConnection = "8/8/8/8/8/ww6/bw6/1w1b4 b";

TEST(AndOrOracle, ConnectingBothSidesIsADraw) {
    const Position root = Position::from_text(SimultaneousConnection);
    ASSERT_EQ(root.pieces(Colour::Black), squares({"a2", "d1"}));
    ASSERT_EQ(root.pieces(Colour::White), squares({"b1", "b2", "a3", "b3"}));
    ASSERT_TRUE(is_connected(root, Colour::White));
    ASSERT_EQ(loa::legal_moves(root).size(), 5u);
    for (const Move m : loa::legal_moves(root)) {
        ASSERT_EQ(m.from(), square("d1"));
        EXPECT_EQ(outcome(after(root, m)), m.is_capture() ? oracle::Outcome::Draw : oracle::Outcome::MoverLoses)
            << after(root, m).to_text();
    }
    ASSERT_TRUE(legal_move(root, "d1", "b1").is_capture());
    ASSERT_TRUE(legal_move(root, "d1", "b3").is_capture());

    for (int limit = 1; limit <= 4; ++limit) {
        EXPECT_EQ(and_or::solve_with_ply_limit(root, limit), Value::Draw) << "limit " << limit;
        // The variant rule: the capture that connects both sides wins for the mover.
        EXPECT_EQ(and_or::solve_with_ply_limit(root, limit, /*simultaneous_mover_wins=*/true), Value::Win)
            << "limit " << limit;
    }
    EXPECT_FALSE(and_or::forced_win_within(root, true, 4));
    EXPECT_FALSE(and_or::forced_win_within(root, false, 4));
    expect_consistent(root, 4);
}

// The only move captures the opponent's last straggler and leaves the opponent alone
// connected. Black a4 b2; White a6 d6 b5 e5 c4 d4 e4 a3 b3 d2. a4 is boxed in (each line
// jumps a White piece); b2's lines: b2xd2 (rank 2 holds b2 and d2), the others jump a White
// piece or leave the board. After b2xd2 White's nine pieces are one group (a6-b5-c4-d4-e4,
// c4-b3-a3, d4-e5-d6) and Black (a4, d2) is split: Loss at ply 1.
TEST(AndOrOracle, CaptureConnectingOnlyTheOpponentLoses) {
    const Position root = Position::from_text("8/8/w2w4/1w2w3/b1www3/ww6/1b1w4/8 b");
    const Move capture = only_move(root);
    ASSERT_EQ(capture, legal_move(root, "b2", "d2"));
    ASSERT_TRUE(capture.is_capture());
    ASSERT_FALSE(is_connected(root, Colour::White));
    ASSERT_EQ(outcome(after(root, capture)), oracle::Outcome::MoverLoses);

    for (int limit = 1; limit <= 3; ++limit)
        EXPECT_EQ(and_or::solve_with_ply_limit(root, limit), Value::Loss) << "limit " << limit;
    EXPECT_TRUE(and_or::forced_win_within(root, false, 1));
    expect_consistent(root, 3);
}

// ---------------------------------------------------------------------------------------------
// 4. A win at ply 3: Draw at limits 1 and 2, Win from limit 3.
//
// Black a1 b1 g1; White a8 h8 h5; Black to move.
//  - Ply 1: g1 can reach d1 (rank 1 holds three pieces), g2, h2 or f2, none next to b1; a1 and
//    b1 cannot get within reach of g1. No capture is possible. So no Black move decides.
//  - Ply 2: White's three pieces cannot become one group in one move (a8 is at least five
//    files from h5 and h8 after any move). So Draw at limit 2 too.
//  - Ply 3: after g1-d1, d1-c2 (diagonal d1-a4 holds d1 alone) joins c2 to b1. White's replies
//    (all listed by legal_moves and checked below) neither decide the game nor touch the
//    diagonal d1-a4, so d1-c2 still connects Black (and not White) at ply 3.
constexpr std::string_view WinsInThree = "w6w/8/8/7w/8/8/8/bb4b1 b";

TEST(AndOrOracle, WinAtPlyThree) {
    const Position root = Position::from_text(WinsInThree);
    ASSERT_EQ(root.pieces(Colour::Black), squares({"a1", "b1", "g1"}));
    ASSERT_EQ(root.pieces(Colour::White), squares({"a8", "h8", "h5"}));
    for (const Move m : loa::legal_moves(root)) {
        const Position child = after(root, m);
        ASSERT_EQ(outcome(child), oracle::Outcome::None) << child.to_text();
        ASSERT_FALSE(has_connecting_move(child)) << child.to_text();  // White cannot win at ply 2
    }
    const Position threat = after(root, legal_move(root, "g1", "d1"));
    for (const Move reply : loa::legal_moves(threat)) {
        const Position child = after(threat, reply);
        ASSERT_EQ(outcome(child), oracle::Outcome::None) << child.to_text();
        ASSERT_EQ(outcome(after(child, legal_move(child, "d1", "c2"))), oracle::Outcome::MoverWins)
            << child.to_text();
    }

    EXPECT_EQ(and_or::solve_with_ply_limit(root, 1), Value::Draw);
    EXPECT_EQ(and_or::solve_with_ply_limit(root, 2), Value::Draw);
    EXPECT_EQ(and_or::solve_with_ply_limit(root, 3), Value::Win);
    EXPECT_EQ(and_or::solve_with_ply_limit(root, 4), Value::Win);
    EXPECT_FALSE(and_or::forced_win_within(root, true, 2));
    EXPECT_TRUE(and_or::forced_win_within(root, true, 3));
    EXPECT_FALSE(and_or::forced_win_within(root, false, 4));
    expect_consistent(root, 4);
}

// ---------------------------------------------------------------------------------------------
// 5. Repetitions. Three pieces a side far apart: both sides can move a piece out and back, so
// the root recurs at ply 4 and positions recur from ply 4 on. Nobody can connect within four
// plies here (checked by both entry points; no claim by hand beyond the repetitions themselves),
// and the repetition rule is switched off only to check that it is value-neutral.
TEST(AndOrOracle, RepetitionsAreDrawsAndValueNeutral) {
    const Position root = Position::from_text("3b4/8/8/w6w/4w3/8/8/b6b b");
    // d8-c8, a5-a7 (file a holds a5 and a1), c8-d8, a7-a5 bring the root back with Black to move.
    Position pos = root;
    pos = after(pos, legal_move(pos, "d8", "c8"));
    pos = after(pos, legal_move(pos, "a5", "a7"));
    pos = after(pos, legal_move(pos, "c8", "d8"));
    pos = after(pos, legal_move(pos, "a7", "a5"));
    ASSERT_EQ(pos.key(), root.key());

    and_or::detail::Stats with_rule, without_rule;
    and_or::detail::Settings settings;
    settings.ply_limit = 4;
    settings.stats = &with_rule;
    const Value value = and_or::detail::solve(root, settings);
    settings.repetition_draws = false;
    settings.stats = &without_rule;
    EXPECT_EQ(and_or::detail::solve(root, settings), value);
    EXPECT_GT(with_rule.repetition_draws, 0u);
    EXPECT_EQ(without_rule.repetition_draws, 0u);
    EXPECT_EQ(with_rule.nodes, without_rule.nodes);  // repetitions are found at ply 4 = the limit
    expect_consistent(root, 4);

    // A repetition never counts as a win: in WinsInThree at limit 5 the winner's tree holds
    // repeated positions, and the value stays Win.
    and_or::detail::Stats stats;
    and_or::detail::Settings five;
    five.ply_limit = 5;
    five.stats = &stats;
    EXPECT_EQ(and_or::detail::solve(Position::from_text(WinsInThree), five), Value::Win);
    EXPECT_GT(stats.repetition_draws, 0u);
    expect_consistent(Position::from_text(WinsInThree), 5);
}

// A universal property, not a search: at every Black turn within `plies` plies of `pos`,
// reached by any White moves and any quiet Black moves (a pass or a non-capture), Black has a
// quiet move, or, at the last of these plies, a move after which White is not one group.
// Positions decided by the connection rule end their line.
bool black_has_safe_replies(const Position& pos, int plies) {
    if (plies == 0) return true;
    const bool black = pos.side_to_move() == Colour::Black;
    bool has_safe = !black;
    for (const Move m : loa::legal_moves(pos)) {
        const Position child = after(pos, m);
        if (black && plies == 1) {
            has_safe = has_safe || !is_connected(child, Colour::White);
            continue;
        }
        if (black && m.is_capture()) continue;
        has_safe = true;
        if (outcome(child) == oracle::Outcome::None && !black_has_safe_replies(child, plies - 1)) return false;
    }
    return has_safe;
}

// Repetitions the defender cannot avoid. Black a1 h8, each boxed in by three White pieces
// (b1 a2 b2 and g8 g7 h7: every line through a1 or h8 holds at least two pieces and starts with
// an adjacent White piece, so every move would jump it); White also has d3. Black must pass
// while the boxes stand, so White can shuffle d3-d4-d3 and bring back a position with the same
// side to move at ply 4. Limit 4, either side to move at the root:
//  - Black cannot force a win: against the shuffle Black only ever passes and nothing is
//    decided (both asserted), up to the repetition at ply 4.
//  - White cannot force a win: Black can answer every White move before White's last one with
//    a pass or a non-capture (asserted by enumeration), so White has all seven pieces when it
//    moves. With at most two moves in four plies White cannot be one group: a group reaching
//    from the a/b files to the g/h files needs a piece on each of files c, d, e and f; White has
//    at most three there (d3 and the two moved pieces), and each box of three keeps a piece on
//    its side. With White to move at the root, Black moves last (ply 4) and has a move that
//    leaves White split (asserted).
// So the value is Draw from either side, and forced_win_within is false for both attackers. An
// oracle that scored a repetition as a win would get this wrong: with Black to move, pass,
// d3-d4, pass, d4-d3 repeats the root by White's move; with White to move, d3-d4, pass, d4-d3,
// pass repeats it by Black's pass.
constexpr std::string_view BoxedIn = "6wb/6ww/8/8/8/3w4/ww6/bw6 b";

TEST(AndOrOracle, UnavoidableRepetitionsAreNoWins) {
    for (const std::string_view text : {BoxedIn, std::string_view("6wb/6ww/8/8/8/3w4/ww6/bw6 w")}) {
        const Position root = Position::from_text(text);
        ASSERT_EQ(root.pieces(Colour::Black), squares({"a1", "h8"}));
        ASSERT_EQ(root.pieces(Colour::White), squares({"b1", "a2", "b2", "g8", "g7", "h7", "d3"}));
        ASSERT_TRUE(black_has_safe_replies(root, 4)) << text;

        // The shuffle: Black only passes, nothing is decided, and the root comes back at ply 4.
        Position pos = root;
        for (int ply = 0; ply < 4; ++ply) {
            if (pos.side_to_move() == Colour::Black) {
                ASSERT_TRUE(only_move(pos).is_pass()) << pos.to_text();
                pos = after(pos, Move::pass());
            } else {
                const bool out = (pos.pieces(Colour::White) & squares({"d3"})) != 0;
                pos = after(pos, out ? legal_move(pos, "d3", "d4") : legal_move(pos, "d4", "d3"));
            }
            ASSERT_EQ(outcome(pos), oracle::Outcome::None) << pos.to_text();
        }
        ASSERT_EQ(pos.key(), root.key());

        and_or::detail::Stats stats;
        and_or::detail::Settings settings;
        settings.ply_limit = 4;
        settings.stats = &stats;
        EXPECT_EQ(and_or::detail::solve(root, settings), Value::Draw) << text;
        EXPECT_GT(stats.repetition_draws, 0u) << text;
        EXPECT_FALSE(and_or::forced_win_within(root, true, 4)) << text;
        EXPECT_FALSE(and_or::forced_win_within(root, false, 4)) << text;
        expect_consistent(root, 4);
    }
}

TEST(AndOrOracle, RejectsBadArguments) {
    const Position root = Position::from_text(ConnectsInOne);
    EXPECT_THROW(and_or::solve_with_ply_limit(root, 0), std::invalid_argument);
    EXPECT_THROW(and_or::forced_win_within(root, true, -1), std::invalid_argument);
}

}  // namespace
