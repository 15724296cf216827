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
