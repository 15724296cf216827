// CodinGame: the arena referee's turns answered with a legal move, and bad input ended cleanly.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "common/text.hpp"
#include "loa/engine/frontends.hpp"
#include "loa/engine/session.hpp"
#include "loa/game.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/position.hpp"
#include "support/protocol_helpers.hpp"

namespace loa::engine {
namespace {

using loa::testing::contains;

TEST(CodinGame, AnswersEachTurnWithAnOfferedMove) {
    std::istringstream in(
        "b\n"
        ".bbbbbb.\nw......w\nw......w\nw......w\nw......w\nw......w\nw......w\n.bbbbbb.\nnull\n36\n"
        "b1h1\nb1b3\nb1d3\nc1a3\nc1c3\nc1e3\nd1b3\nd1d3\nd1f3\ne1c3\ne1e3\ne1g3\nf1d3\nf1f3\nf1h3\ng1a1\ng1e3\ng1g3\n"
        "b8b6\nb8d6\nb8h8\nc8a6\nc8c6\nc8e6\nd8b6\nd8d6\nd8f6\ne8c6\ne8e6\ne8g6\nf8d6\nf8f6\nf8h6\ng8e6\ng8g6\ng8a8\n");
    std::ostringstream out, log;
    EXPECT_EQ(run_codingame(in, out, log), 0);
    const std::string move(common::trim(out.str()));
    EXPECT_NO_THROW(parse_move(Position::start(), move)) << move;
    EXPECT_TRUE(log.str().empty()) << log.str();
}

// One turn as the arena's referee sends it: our colour on the first turn only, 8 rows rank 8
// first, the opponent's last move or null, the number of moves and the moves sorted in b1b3
// form (1 and pass when there is none).
std::string referee_turn(const Position& pos, const std::string& last_move, bool first_turn) {
    std::string text = first_turn ? std::string(1, pos.side_to_move() == Colour::Black ? 'b' : 'w') + "\n" : "";
    for (int rank = 7; rank >= 0; --rank) {
        for (int file = 0; file < 8; ++file) {
            const Bitboard s = square_bb(make_square(file, rank));
            text += pos.pieces(Colour::Black) & s ? 'b' : pos.pieces(Colour::White) & s ? 'w' : '.';
        }
        text += '\n';
    }
    text += last_move + "\n";
    std::vector<std::string> moves;
    for (const Move m : legal_moves(pos)) moves.push_back(move_to_compact(m));
    std::sort(moves.begin(), moves.end());
    text += std::to_string(moves.size()) + "\n";
    for (const std::string& m : moves) text += m + "\n";
    return text;
}

std::vector<std::string> codingame_answers(const std::string& transcript, const CodinGameSettings& settings = {}) {
    std::istringstream in(transcript);
    std::ostringstream out, log;
    EXPECT_EQ(run_codingame(in, out, log, settings), 0) << log.str();
    EXPECT_TRUE(log.str().empty()) << log.str();
    std::vector<std::string> answers;
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);) answers.push_back(line);
    return answers;
}

TEST(CodinGame, PlaysByTheRefereesRulesByDefault) {
    // f5xd3 connects both sides: the referee checks the mover first, so it wins at once; under
    // the Olympiad rules it is only a draw, and the engine looks elsewhere.
    const Position pos = Position::from_text("7w/6w1/8/5b2/2b5/2bw4/8/8 b");
    EXPECT_EQ(codingame_answers(referee_turn(pos, "null", true)), std::vector<std::string>{"f5d3"});
    CodinGameSettings olympiad;
    olympiad.rules = "olympiad";
    EXPECT_NE(codingame_answers(referee_turn(pos, "null", true), olympiad), std::vector<std::string>{"f5d3"});
}

TEST(CodinGame, PassesAndPlaysLaterTurnsWithoutAColourLine) {
    Game game;
    std::string transcript = referee_turn(game.position(), "null", true);
    game.play("b1-d3");
    game.play("a2-c2");
    transcript += referee_turn(game.position(), "a2c2", false);
    const std::vector<std::string> answers = codingame_answers(transcript);
    ASSERT_EQ(answers.size(), 2u);
    EXPECT_NO_THROW(parse_move(Position::start(), answers[0]));
    EXPECT_NO_THROW(parse_move(game.position(), answers[1]));
    // White without a move: the referee offers "pass" alone.
    const Position must_pass = Position::from_text("6bw/6bb/8/8/8/8/bb6/wb6 w");
    ASSERT_TRUE(legal_moves(must_pass)[0].is_pass());
    EXPECT_EQ(codingame_answers(referee_turn(must_pass, "b1b2", true)), std::vector<std::string>{"pass"});
    CodinGameSettings bad;
    bad.rules = "chess";
    std::istringstream in(referee_turn(Position::start(), "null", true));
    std::ostringstream out, log;
    EXPECT_EQ(run_codingame(in, out, log, bad), 2);
    EXPECT_TRUE(contains(log.str(), "unknown key 'chess'")) << log.str();
}

TEST(CodinGame, MalformedInputEndsWithAMessageNotACrash) {
    for (const char* script : {"x\n", "b\n.bbbbbb.\nw......w\n", "b\n.bbbbbbb.\n", "w\n.bbbbbb.\nw......w\nw......w\nw......w\nw......w\nw......w\nw......w\n.bbbbbb.\nnull\nmany\n"}) {
        std::istringstream in(script);
        std::ostringstream out, log;
        EXPECT_EQ(run_codingame(in, out, log), 2) << script;
        EXPECT_FALSE(log.str().empty());
        EXPECT_TRUE(out.str().empty());
    }
}

}  // namespace
}  // namespace loa::engine
