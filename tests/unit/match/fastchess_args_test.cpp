// fastchess / cutechess-cli command lines, written out in full as a user types them, become the
// loa-match command line they mean; options without an equivalent are refused with what to
// write instead.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.hpp"
#include "matches/cli/fastchess_args.hpp"

namespace matches::cli {
namespace {

using Args = std::vector<std::string>;

// The words of a command line (no quoting: the tests' values hold no spaces but args=).
Args words(const std::string& line) {
    Args out;
    std::string word;
    for (const char c : line + ' ') {
        if (c != ' ') word += c;
        else if (!word.empty()) out.push_back(std::move(word)), word.clear();
    }
    return out;
}

std::string error_of(const Args& args) {
    try {
        (void)translate_fastchess_options(args);
    } catch (const common::InputError& e) {
        return e.what();
    }
    return "(no error)";
}

TEST(FastchessArgs, AMatchWithEachRoundsRepeatAndOutputsIsOurs) {
    const Args in = words("loa-match -engine cmd=./loa name=new args=uci -engine cmd=./loa-base name=base args=uci "
                          "-each tc=5+0.05 -rounds 10 -repeat -concurrency 2 -pgnout file=out.pgn -event fc "
                          "-ratinginterval 20 -recover -srand 7 -output format=fastchess");
    ASSERT_TRUE(uses_fastchess_options(in));
    const Args expected = {"loa-match", "-j",       "2",      "--pgn",   "out.pgn",
                           "--event",   "fc",       "--report-every", "20", "--seed", "7",
                           "--output-format", "fastchess",
                           "--engine",  "cmd=./loa,name=new,args=uci,tc=5+0.05",
                           "--engine",  "cmd=./loa-base,name=base,args=uci,tc=5+0.05",
                           "--games",   "20"};
    EXPECT_EQ(translate_fastchess_options(in), expected);
}

TEST(FastchessArgs, SprtOpeningsGauntletResignAndMaxmovesMapToOurs) {
    const Args in = words("loa-match -engine name=a depth=2 tc=1+0.01 -engine name=b depth=2 -engine name=c nodes=500 "
                          "-each tc=2+0.02 -tournament gauntlet -games 2 -rounds 3 "
                          "-openings file=book.txt format=epd order=random start=1 "
                          "-sprt elo0=0 elo1=10 alpha=0.05 beta=0.05 model=normalized "
                          "-resign movecount=3 score=600 twosided=true -maxmoves 100 -pgnout games.pgn append=true");
    const Args expected = {"loa-match",        "--gauntlet", "--openings", "book.txt", "--openings-order", "random",
                           "--sprt",           "elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized",
                           "--resign",         "score=600,moves=3",
                           "--rules",          "olympiad,plylimit=200",
                           "--pgn",            "games.pgn",
                           "--engine",         "name=a,depth=2,tc=2+0.02",  // -each's tc over its own, as in both tools
                           "--engine",         "name=b,depth=2,tc=2+0.02",
                           "--engine",         "name=c,nodes=500,tc=2+0.02",
                           "--games",          "6"};
    EXPECT_EQ(translate_fastchess_options(in), expected);
}

TEST(FastchessArgs, CutechessGamesPerEncounterAndPgnoutWords) {
    // cutechess-cli: -games N per encounter (any N), -rounds multiplies; -pgnout FILE min fi.
    const Args in = words("loa-match -engine name=a depth=1 -engine name=b depth=1 proto=gtp -games 10 -rounds 3 "
                          "-pgnout out.pgn min fi -ratinginterval 0 -j4 --seed -3");
    const Args expected = {"loa-match", "-j4", "--seed", "-3", "--pgn", "out.pgn", "--engine", "name=a,depth=1",
                           "--engine", "name=b,depth=1,proto=gtp", "--games", "30"};
    EXPECT_EQ(translate_fastchess_options(in), expected);
}

TEST(FastchessArgs, OurOwnOptionsPassThroughAndOurShortOnesAreNotTheirs) {
    EXPECT_FALSE(uses_fastchess_options(words("loa-match -e name=a,depth=1 -e name=b,depth=1 -g 4 -j 2 -q")));
    EXPECT_FALSE(uses_fastchess_options(words("loa-match --engine name=a --games 4")));
    const Args in = words("loa-match -engine name=a depth=1 -engine name=b depth=1 --tc stc -q --json r.json");
    const Args expected = {"loa-match", "--tc", "stc", "-q", "--json", "r.json", "--engine", "name=a,depth=1",
                           "--engine", "name=b,depth=1"};
    EXPECT_EQ(translate_fastchess_options(in), expected);
}

TEST(FastchessArgs, OptionsWithoutAnEquivalentAreRefusedWithWhatToWriteInstead) {
    EXPECT_NE(error_of(words("x -engine name=a -engine name=b -draw movenumber=40 movecount=8 score=10"))
                  .find("-draw has no equivalent in loa-match: loa-match has no draw adjudication; --rules plylimit=N"),
              std::string::npos);
    EXPECT_NE(error_of(words("x -engin name=a")).find("unknown option '-engin'; did you mean '-engine'?"), std::string::npos);
    EXPECT_NE(error_of(words("x -pgnout file=a.pgn append=false")).find("always appends"), std::string::npos);
    EXPECT_NE(error_of(words("x -engine name=a tc=40/60+0.6")).find("moves-per-period"), std::string::npos);
    EXPECT_NE(error_of(words("x -engine name=a timemargin=100")).find("--time-margin 100"), std::string::npos);
    EXPECT_NE(error_of(words("x -sprt elo0=0 elo1=10 model=bayesian")).find("normalized or logistic"), std::string::npos);
    EXPECT_NE(error_of(words("x -openings file=a.pgn plies=8")).find("cut the lines"), std::string::npos);
    EXPECT_NE(error_of(words("x -config file=c.json")).find("no configuration file"), std::string::npos);
    EXPECT_NE(error_of(words("x -each tc=1+0.01")).find("give the engines with -engine"), std::string::npos);
    EXPECT_NE(error_of(words("x -engine name=a -engine name=b -maxmoves 50 --rules codingame")).find("give the ply limit in --rules"),
              std::string::npos);
    EXPECT_NE(error_of(words("x -engine name=a -engine name=b -rounds 5 --games 10")).find("give one or the other"), std::string::npos);
    EXPECT_NE(error_of(words("x -sprt")).find("give the bounds"), std::string::npos);
    EXPECT_NE(error_of(words("x -engine name=a,b")).find("a value with a comma"), std::string::npos);
}

// cutechess's arg= (one argument each) joins args=; tc=inf is no clock when a limit is given.
TEST(FastchessArgs, CutechessArgAndInfiniteClockWithADepth) {
    const Args in = words("loa-match -engine name=a cmd=./loa arg=uci arg=--quiet -engine name=b depth=3 -each tc=inf depth=2");
    const Args expected = {"loa-match", "--engine", "name=a,cmd=./loa,args=uci --quiet,depth=2", "--engine", "name=b,depth=2"};
    EXPECT_EQ(translate_fastchess_options(in), expected);
    EXPECT_NE(error_of(words("x -engine name=a -engine name=b -each tc=inf")).find("tc=inf: give the engine a limit"), std::string::npos);
}

// The schedule in 64 bits: -rounds 65536 -games 65537 is 4.3e9 games, not a wrapped int.
TEST(FastchessArgs, GamesBeyondTheLimitAreRefusedNotWrapped) {
    EXPECT_NE(error_of(words("x -engine name=a depth=1 -engine name=b depth=1 -rounds 65536 -games 65537")).find("4295032832 games per pairing"),
              std::string::npos);
    EXPECT_NE(error_of(words("x -engine name=a depth=1 -engine name=b depth=1 -rounds 1073741824 -games 2")).find("at most 10000000"),
              std::string::npos);
}

}  // namespace
}  // namespace matches::cli
