// Gtp: scripted GTP sessions: framing, errors, generic controllers, clocks and a whole game.
#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>

#include "loa/engine/frontends.hpp"
#include "loa/engine/session.hpp"
#include "support/protocol_helpers.hpp"

namespace loa::engine {
namespace {

using loa::testing::contains;

std::string gtp(const std::string& script) {
    std::istringstream in(script);
    std::ostringstream out;
    Output output(out);
    EXPECT_EQ(run_gtp(in, output), 0);
    return out.str();
}

TEST(Gtp, ResponsesFramingAndErrors) {
    const std::string out = gtp(
        "protocol_version\n12 name\nknown_command genmove\nknown_command fly\nlist_commands\n"
        "play w a2c2\nplay b b1d4\nplay x b1d3\nplay b\n"
        "5 play b b1d3\nundo\nundo\n"
        "loa_setup 9/8 b\ntime_settings 10 x\nset_option bogus 1\nfoo\nquit\n");
    EXPECT_TRUE(contains(out, "= 2\n\n"));
    EXPECT_TRUE(contains(out, "=12 loa\n\n"));
    EXPECT_TRUE(contains(out, "= true\n\n"));
    EXPECT_TRUE(contains(out, "= false\n\n"));
    EXPECT_TRUE(contains(out, "genmove\nundo"));
    EXPECT_TRUE(contains(out, "? it is black's turn\n\n"));
    EXPECT_TRUE(contains(out, "? illegal move 'b1d4' for black\n\n"));
    EXPECT_TRUE(contains(out, "? invalid colour 'x'\n\n"));
    EXPECT_TRUE(contains(out, "? play: missing argument\n\n"));
    EXPECT_TRUE(contains(out, "=5\n\n"));
    EXPECT_TRUE(contains(out, "? no move to undo\n\n"));
    EXPECT_TRUE(contains(out, "? position: unexpected character '9'"));
    EXPECT_TRUE(contains(out, "? time_settings: expected <main_s> <increment_s> or <main_s> <byo_yomi_s> <byo_yomi_stones>\n\n"));
    EXPECT_TRUE(contains(out, "? unknown option 'bogus'\n\n"));
    EXPECT_TRUE(contains(out, "? unknown command 'foo'\n\n"));
}

// version, the whole of list_commands (in its order), clear_board and showboard, answered exactly.
TEST(Gtp, VersionListCommandsClearBoardAndShowboard) {
    const std::string out = gtp("1 version\n2 list_commands\n3 play b b1d3\n4 clear_board\n5 showboard\n");
    EXPECT_EQ(out, "=1 0.1\n\n"
                   "=2 protocol_version\nname\nversion\nknown_command\nlist_commands\nquit\nclear_board\nloa_setup\n"
                   "play\ngenmove\nundo\nshowboard\nfinal_score\ngame_result\ntime_settings\ntime_left\nset_option\n"
                   "boardsize\nkomi\n\n"
                   "=3\n\n=4\n\n"
                   "=5 \n"
                   "   +-----------------+\n"
                   " 8 | . b b b b b b . |\n"
                   " 7 | w . . . . . . w |\n"
                   " 6 | w . . . . . . w |\n"
                   " 5 | w . . . . . . w |\n"
                   " 4 | w . . . . . . w |\n"
                   " 3 | w . . . . . . w |\n"
                   " 2 | w . . . . . . w |\n"
                   " 1 | . b b b b b b . |\n"
                   "   +-----------------+\n"
                   "     a b c d e f g h\n"
                   "black to move; black 12 pieces, white 12\n"
                   "position 1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b\n\n")
        << out;
}

TEST(Gtp, GenericControllersSetUpTheBoardAndScoreOnlyAFinishedGame) {
    const std::string out = gtp("1 boardsize 8\n2 boardsize 19\n3 komi 6.5\n4 komi x\n5 final_score\n6 game_result\n"
                                "7 known_command komi\n8 time_settings 600 30 5\n9 time_left b 25 3\n10 time_settings 1 2 x\n"
                                "11 time_left w 5 1 1\nquit\n");
    EXPECT_TRUE(contains(out, "=1\n\n")) << out;
    EXPECT_TRUE(contains(out, "?2 unacceptable size\n\n")) << out;
    EXPECT_TRUE(contains(out, "=3\n\n")) << out;
    EXPECT_TRUE(contains(out, "?4 syntax error\n\n")) << out;
    EXPECT_TRUE(contains(out, "?5 cannot score: the game is not over\n\n")) << out;
    EXPECT_TRUE(contains(out, "=6 ?\n\n")) << out;
    EXPECT_TRUE(contains(out, "=7 true\n\n")) << out;
    EXPECT_TRUE(contains(out, "=8\n\n=9\n\n?10 time_settings: expected")) << out;  // Canadian byo-yomi
    EXPECT_TRUE(contains(out, "?11 time_left: expected <colour> <seconds> [<stones>]\n\n")) << out;
}

TEST(Gtp, AnOptionTheSearchCannotUseYetSaysItIsSet) {
    // erps=on needs probabilities (Rps), which a controller may send next: the option is kept.
    const std::string out = gtp("1 set_option erps on\n2 genmove b\n3 set_option erps off\n4 genmove b\nquit\n");
    EXPECT_TRUE(contains(out, "?1 erps is set, but the engine cannot search so: erps=on needs")) << out;
    EXPECT_TRUE(contains(out, "?2 erps=on needs")) << out;
    EXPECT_TRUE(std::regex_search(out, std::regex("=4 [a-h][1-8][-x][a-h][1-8]\n\n"))) << out;
}

TEST(Gtp, TimesUnderASecondAreKept) {
    // 0.3 s for the game, 0.05 s a move: whole seconds would make it 0 and 0.
    const std::string out = gtp("time_settings 0.3 0.05\ntime_left b 0.25\ngenmove b\ntime_settings 1.5x 0\nquit\n");
    EXPECT_FALSE(contains(out, "? time_settings: expected <main_s> <increment_s> or <main_s> <byo_yomi_s> <byo_yomi_stones>\n\n? time_left")) << out;
    EXPECT_TRUE(std::regex_search(out, std::regex("^=\n\n=\n\n= [a-h][1-8][-x][a-h][1-8]\n\n"))) << out;
    EXPECT_TRUE(contains(out, "? time_settings: expected <main_s> <increment_s> or <main_s> <byo_yomi_s> <byo_yomi_stones>\n\n")) << out;  // 1.5x
}

TEST(Gtp, PlaysAWholeGameWithGenmoveAndReportsTheResult) {
    std::string script = "clear_board\n";
    for (int ply = 0; ply < 200; ++ply) script += ply % 2 ? "genmove w\n" : "genmove b\n";
    script += "final_score\nshowboard\nquit\n";
    // A fixed small depth keeps the game quick: a second a move is the default otherwise.
    std::istringstream in("time_settings 1 0\n" + script);
    std::ostringstream out;
    Output output(out);
    ASSERT_EQ(run_gtp(in, output), 0);
    const std::string text = out.str();
    EXPECT_TRUE(contains(text, "? the game is over"));
    EXPECT_TRUE(std::regex_search(text, std::regex("= (B\\+|W\\+|0)\n\n")));
}

// ---- one command may not take more memory or time than it was allowed (issue 54) ----------

// A NUL or an escape in a bad token is quoted as \xNN: a NUL once cut the error message short.
TEST(Gtp, ControlCharactersInABadTokenAreQuotedNotEchoedRaw) {
    const std::string out = gtp(std::string("1 na\0me\x1b[2J\n", 12) + "2 name\n");
    EXPECT_TRUE(contains(out, "?1 unknown command 'na\\x00me\\x1b[2J'\n")) << out;
    EXPECT_TRUE(contains(out, "=2 loa"));
}

TEST(Gtp, AHugeBadTokenIsNotEchoedBackInFull) {
    const std::string out = gtp("1 " + std::string(100'000, 'x') + "\n2 " + std::string(2'000'000, 'y') + "\n3 name\n");
    EXPECT_TRUE(contains(out, "?1 unknown command '")) << out.substr(0, 300);
    EXPECT_TRUE(contains(out, "... (100000 bytes)'"));
    EXPECT_TRUE(contains(out, "? a line of over 1048576 bytes was ignored"));
    EXPECT_TRUE(contains(out, "=3 loa"));
    EXPECT_LT(out.size(), 2000u);
}

// GTP has no stop: a clock that would plan a search of years is refused.
TEST(Gtp, AClockBeyondADayIsRefused) {
    const std::string out = gtp("1 time_settings 1e308 0\n2 time_left b 1e12\n3 time_settings 300 1e9\n4 time_settings 86400 5\n");
    EXPECT_TRUE(contains(out, "?1 time_settings: at most 86400 s (a day) for a time")) << out;
    EXPECT_TRUE(contains(out, "?2 time_left: at most 86400 s (a day)")) << out;
    EXPECT_TRUE(contains(out, "?3 time_settings: at most")) << out;
    EXPECT_TRUE(contains(out, "=4")) << out;
}

TEST(Gtp, SetOptionSaysWhatTheTablesClaim) {
    const std::string out = gtp("1 set_option hash 8\n2 set_option eval_cache 2\n");
    EXPECT_TRUE(contains(out, "=1 memory 8 MB: hash 8 MB + PV lines 0.3 MB\n")) << out;
    EXPECT_TRUE(contains(out, "=2 memory 10 MB: hash 8 MB + PV lines 0.3 MB + eval cache 2 MB x 1 thread\n")) << out;
}

}  // namespace
}  // namespace loa::engine
