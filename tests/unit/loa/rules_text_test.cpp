// The rules' text form: parsed, printed and rejected, and the named rule sets.
#include <gtest/gtest.h>

#include "loa/connectivity.hpp"
#include "loa/error.hpp"
#include "loa/game.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"

namespace loa {
namespace {

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

}  // namespace
}  // namespace loa
