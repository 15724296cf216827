// Game rules: connection wins, simultaneous connection, passing, repetition, ply limit, and
// every variant switch.
#include <gtest/gtest.h>

#include "loa/connectivity.hpp"
#include "loa/error.hpp"
#include "loa/game.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "support/test_positions.hpp"

namespace loa {
namespace {

using testing::DoubleConnection;
using testing::WhiteMustPass;

Bitboard squares(std::initializer_list<const char*> names) {
    Bitboard b = 0;
    for (const char* n : names) b |= square_bb(*parse_square(n));
    return b;
}

TEST(Connectivity, GroupsAndConnection) {
    EXPECT_TRUE(is_connected(squares({"d4"})));
    EXPECT_TRUE(is_connected(squares({"a1", "b2", "c3", "c4", "d5"})));  // diagonal steps count
    EXPECT_FALSE(is_connected(squares({"a1", "c1"})));
    EXPECT_FALSE(is_connected(squares({"a1", "b1", "h8", "g7"})));  // no isolated piece, two groups
    EXPECT_TRUE(is_connected(squares({"a8", "h1", "b7", "c6", "d5", "e4", "f3", "g2"})));
    EXPECT_FALSE(is_connected(squares({"h1", "a2"})));  // no wrap-around between files
    EXPECT_EQ(count_groups(squares({"a1", "b1", "h8", "g7", "d4"})), 3);
    EXPECT_EQ(count_groups(Position::start().pieces(Colour::Black)), 2);
}

TEST(Rules, ConnectingAllPiecesWins) {
    Game game(Position::start());
    for (const char* m : {"d1-b3", "h5-g4", "b1-b4", "g4xg1", "b4-e7", "a3xc1", "b3-e6", "h3xf1"}) {
        game.play(m);
        EXPECT_FALSE(game.over()) << m;
    }
    game.play("e1-e5");
    EXPECT_EQ(game.result(), (GameResult{Outcome::BlackWins, Termination::Connection}));
    EXPECT_THROW(game.play("b8-b6"), InputError);  // no move after the end
}

TEST(Rules, CaptureThatConnectsBothSidesIsADrawByDefault) {
    Game game(Position::from_text(DoubleConnection));
    game.play("c4xc2");
    EXPECT_EQ(game.result(), (GameResult{Outcome::Draw, Termination::SimultaneousConnection}));
}

TEST(Rules, CaptureThatConnectsBothSidesWinsForTheMoverInTheVariant) {
    Game game(Position::from_text(DoubleConnection), parse_rules("simultaneous=mover"));
    game.play("c4xc2");
    EXPECT_EQ(game.result(), (GameResult{Outcome::BlackWins, Termination::SimultaneousConnection}));
}

TEST(Rules, CaptureLeavingTheOpponentOnePieceMakesTheOpponentWin) {
    // White's last two pieces are apart; Black captures one of them and stays split.
    Game game(Position::from_text("b7/8/8/8/8/2w5/8/b1w5 b"));
    game.play("a1xc1");
    EXPECT_EQ(game.result(), (GameResult{Outcome::WhiteWins, Termination::Connection}));
}

TEST(Rules, ASideWithoutMovesPassesByDefault) {
    Game game(Position::from_text(WhiteMustPass));
    EXPECT_FALSE(game.over());
    game.play("pass");
    EXPECT_EQ(game.position().side_to_move(), Colour::Black);
    EXPECT_FALSE(game.over());
}

TEST(Rules, NoMoveVariantsLoseOrDraw) {
    EXPECT_EQ(Game(Position::from_text(WhiteMustPass), parse_rules("nomove=lose")).result(),
              (GameResult{Outcome::BlackWins, Termination::NoMove}));
    EXPECT_EQ(Game(Position::from_text(WhiteMustPass), parse_rules("nomove=draw")).result(),
              (GameResult{Outcome::Draw, Termination::NoMove}));
}

void shuttle(Game& game) {
    for (const char* m : {"b1-b3", "a2-c2", "b3-b1", "c2-a2"}) game.play(m);
}

TEST(Rules, ThirdOccurrenceOfAPositionIsADraw) {
    Game game;
    shuttle(game);
    EXPECT_EQ(game.repetitions(), 2);
    EXPECT_FALSE(game.over());
    for (const char* m : {"b1-b3", "a2-c2", "b3-b1"}) {
        game.play(m);
        EXPECT_FALSE(game.over()) << m;
    }
    game.play("c2-a2");
    EXPECT_EQ(game.repetitions(), 3);
    EXPECT_EQ(game.result(), (GameResult{Outcome::Draw, Termination::Repetition}));
    game.undo();
    EXPECT_FALSE(game.over());
}

TEST(Rules, RepetitionRuleCanBeSwitchedOff) {
    Game game(Position::start(), parse_rules("repetition=off"));
    for (int i = 0; i < 4; ++i) shuttle(game);
    EXPECT_EQ(game.repetitions(), 5);
    EXPECT_FALSE(game.over());
}

TEST(Rules, PlyLimitDraws) {
    Game game(Position::start(), parse_rules("plylimit=3"));
    game.play("b1-b3");
    game.play("a2-c2");
    EXPECT_FALSE(game.over());
    game.play("b3-b1");
    EXPECT_EQ(game.result(), (GameResult{Outcome::Draw, Termination::PlyLimit}));
}

TEST(Rules, UndoRestoresPositionAndResult) {
    Game game(Position::from_text(DoubleConnection));
    game.play("c4xc2");
    game.undo();
    EXPECT_FALSE(game.over());
    EXPECT_EQ(game.position().to_text(), DoubleConnection);
    EXPECT_THROW(game.undo(), InputError);  // nothing left
}

TEST(RulesText, ParsesPrintsAndRejects) {
    const RuleSet r = parse_rules("simultaneous=mover, nomove=lose, repetition=off, plylimit=200");
    EXPECT_EQ(r.simultaneous, SimultaneousConnection::MoverWins);
    EXPECT_EQ(r.no_move, NoMoveRule::Lose);
    EXPECT_FALSE(r.repetition_draw);
    EXPECT_EQ(r.ply_limit, 200);
    EXPECT_EQ(parse_rules(to_string(r)), r);
    EXPECT_EQ(parse_rules("olympiad"), RuleSet{});
    EXPECT_EQ(parse_rules(""), RuleSet{});
    EXPECT_THROW(parse_rules("simultaneous=maybe"), InputError);
    EXPECT_THROW(parse_rules("plylimit=-1"), InputError);
    EXPECT_THROW(parse_rules("plylimit=12x"), InputError);
    EXPECT_THROW(parse_rules("colour=blue"), InputError);
    EXPECT_THROW(parse_rules("nomove="), InputError);
}

TEST(RulesText, NamedRuleSets) {
    const RuleSet cg = parse_rules("codingame");
    EXPECT_EQ(cg.simultaneous, SimultaneousConnection::MoverWins);
    EXPECT_EQ(cg.no_move, NoMoveRule::Pass);
    EXPECT_FALSE(cg.repetition_draw);
    EXPECT_EQ(cg.ply_limit, 150);
    EXPECT_EQ(parse_rules("codingame,plylimit=200").ply_limit, 200);  // keys after a name override it
    const RuleSet bot = parse_rules("loabot");
    EXPECT_EQ(bot.simultaneous, SimultaneousConnection::MoverWins);
    EXPECT_EQ(bot.no_move, NoMoveRule::Lose);
    EXPECT_FALSE(bot.repetition_draw);
    EXPECT_EQ(parse_rules("openspiel").no_move, NoMoveRule::Lose);
    EXPECT_EQ(parse_rules("simultaneous=mover,olympiad"), RuleSet{});
    try {
        parse_rules("chess");
        ADD_FAILURE();
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("rule sets: olympiad, codingame, loabot, openspiel"), std::string::npos) << e.what();
    }
    EXPECT_THROW(parse_rules("codingame=1"), InputError);
}

TEST(Rules, PliesBeforeTheStartCountTowardsThePlyLimit) {
    Game game(Position::start(), parse_rules("plylimit=10"), 8);
    EXPECT_EQ(game.ply(), 8);
    EXPECT_EQ(plies_until_limit(game), 2);
    game.play("b1-d3");
    EXPECT_FALSE(game.over());
    game.play("a2-c2");
    EXPECT_EQ(game.result(), (GameResult{Outcome::Draw, Termination::PlyLimit}));
    EXPECT_EQ(plies_until_limit(Game()), 0);
}

}  // namespace
}  // namespace loa
