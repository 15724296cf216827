// MatchReport: the summary's table of time per move, for engines on a clock only.
#include <gtest/gtest.h>

#include <string>

#include "matches/match.hpp"
#include "matches/report.hpp"
#include "support/small_match.hpp"

namespace matches {
namespace {

using fixtures::small_match;

TEST(MatchReport, TimePerMoveIsTabledForEnginesOnAClockOnly) {
    MatchSettings s = small_match(1);
    MatchResult r = run_match(s, {});
    EXPECT_EQ(summary(s, r).find("Time per move"), std::string::npos);  // fixed nodes: no clock, no table
    GameRecord& g = r.games[0];
    g.black_limit = "tc=10+0";
    g.black_move_ms.assign(12, 100.0);
    g.black_move_ms[10] = 400;  // the 11th move: second band
    const std::string text = summary(s, r);
    const auto table = text.find("Time per move");
    ASSERT_NE(table, std::string::npos) << text;
    const std::string rows = text.substr(table);
    EXPECT_NE(rows.find(g.black), std::string::npos);
    EXPECT_NE(rows.find("100/100 10"), std::string::npos) << rows;  // moves 1-10: mean/slowest, count
    EXPECT_NE(rows.find("250/400 2"), std::string::npos) << rows;   // moves 11-12
    EXPECT_EQ(rows.find("\n  " + g.white + " "), std::string::npos) << rows;  // White had no clock
}

}  // namespace
}  // namespace matches
