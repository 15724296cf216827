// Move and square notation: printing, parsing in every accepted form, and rejection.
#include <gtest/gtest.h>

#include "loa/error.hpp"
#include "loa/notation.hpp"
#include "loa/pgn.hpp"

#include <map>
#include <sstream>
#include "support/test_positions.hpp"

namespace loa {
namespace {

TEST(Notation, SquareNamesRoundTrip) {
    for (Square s = 0; s < 64; ++s) EXPECT_EQ(parse_square(square_name(s)), s);
    EXPECT_EQ(square_name(0), "a1");
    EXPECT_EQ(square_name(63), "h8");
    EXPECT_FALSE(parse_square("i1"));
    EXPECT_FALSE(parse_square("a9"));
    EXPECT_FALSE(parse_square("a"));
}

TEST(Notation, PrintsDashCaptureAndPass) {
    EXPECT_EQ(move_to_text(Move(make_square(1, 0), make_square(3, 2), false)), "b1-d3");
    EXPECT_EQ(move_to_text(Move(make_square(2, 0), make_square(0, 2), true)), "c1xa3");
    EXPECT_EQ(move_to_compact(Move(make_square(2, 0), make_square(0, 2), true)), "c1a3");
    EXPECT_EQ(move_to_text(Move::pass()), "pass");
}

TEST(Notation, EveryLegalMoveRoundTripsInBothForms) {
    for (const Position& pos : testing::random_positions(3, 10, 60)) {
        for (const Move m : legal_moves(pos)) {
            EXPECT_EQ(parse_move(pos, move_to_text(m)), m);
            EXPECT_EQ(parse_move(pos, move_to_compact(m)), m);
        }
    }
}

void expect_rejected(const Position& pos, std::string_view text, std::string_view fragment) {
    try {
        (void)parse_move(pos, text);
        ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
            << "message '" << e.what() << "' lacks '" << fragment << "'";
    }
}

TEST(Notation, RejectsMalformedAndIllegalMoves) {
    const Position start = Position::start();
    expect_rejected(start, "b1d", "malformed move");
    expect_rejected(start, "b1=d3", "malformed move");
    expect_rejected(start, "z1-d3", "'z1' is not a square");
    expect_rejected(start, "b1-d9", "'d9' is not a square");
    expect_rejected(start, "b1-b2", "illegal move");       // wrong distance
    expect_rejected(start, "a2-c2", "no black piece on a2");  // White's piece, Black to move
    expect_rejected(start, "b1xd3", "marked as a capture");
    expect_rejected(start, "c1-a3", "captures on a3");
    expect_rejected(start, "pass", "passing is allowed only");
    expect_rejected(start, "", "malformed move");
}

TEST(Notation, AcceptsPassOnlyWhenItIsTheOnlyMove) {
    const Position pos = Position::from_text("6bw/6bb/8/8/8/8/bb6/wb6 w");
    EXPECT_TRUE(parse_move(pos, "pass").is_pass());
}

TEST(Notation, SplitsMoveListsWithNumbersAndCommas) {
    const auto tokens = split_move_list("1. b1-d3 a2c2,  2. c1xa3\n pass");
    ASSERT_EQ(tokens.size(), 4u);
    EXPECT_EQ(tokens[0], "b1-d3");
    EXPECT_EQ(tokens[1], "a2c2");
    EXPECT_EQ(tokens[2], "c1xa3");
    EXPECT_EQ(tokens[3], "pass");
}

TEST(Notation, ReadsPgnMovetextWithCommentsNumbersNagsAndTheResult) {
    const MoveText m = parse_movetext("1. b1-d3 a2xb1 {end of opening} 2.c1-c3! $1 h3-f3?! ; to the end\n"
                                      "% an escape line: b2-b3\n3... {a comment\nover [two] lines} d8-d6 1-0");
    const std::vector<std::string_view> moves = {"b1-d3", "a2xb1", "c1-c3", "h3-f3", "d8-d6"};
    EXPECT_EQ(m.moves, moves);
    ASSERT_EQ(m.comments.size(), 3u);
    EXPECT_EQ(m.comments[0], (std::pair<std::size_t, std::string_view>{2, "end of opening"}));
    EXPECT_EQ(m.comments[1], (std::pair<std::size_t, std::string_view>{4, " to the end"}));
    EXPECT_EQ(m.comments[2].first, 4u);
    EXPECT_EQ(split_move_list("1... a2-c2 2. b1-d3 *"), (std::vector<std::string_view>{"a2-c2", "b1-d3"}));
    EXPECT_EQ(split_move_list("1/2-1/2"), std::vector<std::string_view>{});
    EXPECT_THROW(parse_movetext("1. b1-d3 (1. c1-c3) a2-c2"), InputError);
    EXPECT_THROW(parse_movetext("1. b1-d3 {open"), InputError);
}

// PGN's clock command, as lichess writes it: whole seconds shown, read back with a fraction
// too; a record's clock comments are the moves' clocks, not how the game ended.
TEST(Notation, ClockCommandsRoundTripAndMalformedOnesAreRefused) {
    EXPECT_EQ(pgn_clock_command(271'999), "[%clk 0:04:31]");
    EXPECT_EQ(pgn_clock_command(3'723'000), "[%clk 1:02:03]");
    EXPECT_EQ(pgn_clock_command(-5), "[%clk 0:00:00]");
    EXPECT_EQ(pgn_clock_ms("[%clk 0:04:31]"), 271'000);
    EXPECT_EQ(pgn_clock_ms(" [%clk 1:05:23.5] [%emt 0:00:01]"), 3'923'500);
    EXPECT_EQ(pgn_clock_ms("no clock here"), std::nullopt);
    // Not a clock in the supplement's form: the comment's words, not refused.
    for (const char* bad : {"[%clk 4:31]", "[%clk 0:4:31]", "[%clk 0:04:61]", "[%clk -1:04:31]", "[%clk 0:04:31", "[%clk 0:04:1e1]"})
        EXPECT_EQ(pgn_clock_ms(bad), std::nullopt) << bad;
    std::istringstream in("[Result \"1-0\"]\n\n1. b1-d3 {[%clk 0:04:58]} 1... a2xd2 {[%clk 0:04:31]} {white wins by connection} 1-0\n");
    const auto records = read_records(in);
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].clocks_ms, (std::map<std::size_t, double>{{1, 298'000}, {2, 271'000}}));
    EXPECT_EQ(records[0].reason, "white wins by connection");
    std::istringstream odd("1. b1-d3 {[%clk 4:31]} 1-0\n");
    const auto read = read_records(odd);
    ASSERT_EQ(read.size(), 1u);
    EXPECT_TRUE(read[0].clocks_ms.empty());
    EXPECT_EQ(read[0].reason, "[%clk 4:31]");
}

}  // namespace
}  // namespace loa
