// ExternalEngines: engines run as processes over UCI and GTP: crashes, hangs, bad moves, clocks.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "loa/game.hpp"
#include "loa/rules.hpp"
#include "matches/engine_spec.hpp"
#include "matches/match.hpp"
#include "matches/openings.hpp"
#include "matches/player.hpp"

namespace matches {
namespace {

MatchResult against_fake(const std::string& mode, const std::string& limit, int games, int concurrency = 1) {
    MatchSettings s;
    s.engines = {parse_engine_spec("name=fake,cmd=bash,proto=uci,args=" LOA_TEST_SOURCE_DIR "/support/fake_engines/uci_fake.sh " + mode + "," + limit, 0),
                 parse_engine_spec("name=ours,preset=pvs+tt+rhh,depth=1", 1)};
    s.games = games;
    s.concurrency = concurrency;
    OpeningGenerator g;
    g.count = games;
    g.balance_depth = 1;
    g.max_abs_score = 5000;
    s.openings = generate_openings(g, loa::Position::start(), s.rules);
    return run_match(s, {});
}

TEST(ExternalEngines, ACrashLosesTheGameAndTheEngineRestarts) {
    const MatchResult r = against_fake("crash", "depth=2", 4);
    ASSERT_EQ(r.games.size(), 4u);
    for (const GameRecord& g : r.games) {
        const bool fake_black = g.black == "fake";
        EXPECT_EQ(g.outcome, fake_black ? loa::Outcome::WhiteWins : loa::Outcome::BlackWins);
        // The fake engine moves first as Black; as White it crashes at its first move too.
        EXPECT_NE(g.termination.find("engine crashed"), std::string::npos) << g.termination;
    }
    EXPECT_EQ(r.pairings[0].games.losses, 4);
}

TEST(ExternalEngines, AHungEngineLosesOnItsMoveTimeout) {
    const MatchResult r = against_fake("hang", "st=0.1", 2, 2);  // both games wait at once
    ASSERT_EQ(r.games.size(), 2u);
    for (const GameRecord& g : r.games) EXPECT_NE(g.termination.find("no bestmove in time"), std::string::npos) << g.termination;
}

TEST(ExternalEngines, AnIllegalMoveLosesAndIsRecorded) {
    const MatchResult r = against_fake("illegal", "depth=2", 2);
    for (const GameRecord& g : r.games) EXPECT_NE(g.termination.find("illegal move 'a1a1'"), std::string::npos) << g.termination;
}

// Processes whose command line contains `marker` (read from /proc).
int processes_with(const std::string& marker) {
    int found = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        std::ifstream in(entry.path() / "cmdline");
        std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
        if (cmdline.find(marker) != std::string::npos && cmdline.find("gtest") == std::string::npos) ++found;
    }
    return found;
}

TEST(ExternalEngines, AHungWrapperScriptLeavesNoProcessBehind) {
    // The wrapper hangs on 'go' with children of its own: the move timeout kills the whole
    // process group, not only the script.
    const std::string marker = fmt::format("{}.{}", 7000 + getpid() % 1000, 271828);
    MatchSettings s;
    s.engines = {parse_engine_spec("name=wrapped,cmd=bash,proto=uci,st=0.1,args=" LOA_TEST_SOURCE_DIR
                                   "/support/fake_engines/wrapper.sh " + marker + " hang", 0),
                 parse_engine_spec("name=ours,preset=pvs+tt+rhh,depth=1", 1)};
    s.games = 2;
    s.concurrency = 2;  // both games wait for their timeout at once
    s.openings = {Opening{"start", loa::Position::start(), {}}};
    const MatchResult r = run_match(s, {});
    ASSERT_EQ(r.games.size(), 2u);
    for (const GameRecord& g : r.games) EXPECT_NE(g.termination.find("no bestmove in time"), std::string::npos) << g.termination;
    EXPECT_EQ(processes_with("sleep " + marker), 0);
}

TEST(ExternalEngines, AnEngineThatDoesNotStartFailsAtOnce) {
    MatchSettings s;
    s.engines = {parse_engine_spec("name=x,cmd=/nonexistent/engine,depth=1", 0), parse_engine_spec("name=y,depth=1", 1)};
    s.openings = {Opening{"start", loa::Position::start(), {}}};
    try {
        (void)run_match(s, {});
        ADD_FAILURE() << "started";
    } catch (const common::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("cannot start '/nonexistent/engine'"), std::string::npos) << e.what();
    }
}

TEST(ExternalEngines, GtpClocksUnderASecondAreSentWithTheirFractions) {
    const std::string log = testing::TempDir() + "gtp_wire.log";
    std::remove(log.c_str());
    MatchSettings s;
    s.engines = {parse_engine_spec("name=gtp,cmd=bash,proto=gtp,tc=0.5+0.05,args=" LOA_TEST_SOURCE_DIR
                                   "/support/fake_engines/logging_wrapper.sh " + log + " " LOA_BINARY " gtp", 0),
                 parse_engine_spec("name=ours,preset=pvs+tt+rhh,depth=1", 1)};
    s.games = 2;
    s.openings = {Opening{"start", loa::Position::start(), {}}};
    const MatchResult r = run_match(s, {});
    ASSERT_EQ(r.games.size(), 2u);
    std::ifstream in(log);
    const std::string wire((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(wire.find("time_settings 0.5 0.05\n"), std::string::npos) << wire;
    EXPECT_NE(wire.find("time_left b 0.5\n"), std::string::npos) << wire;  // its first move as Black
    EXPECT_EQ(wire.find("time_settings 0 0"), std::string::npos) << wire;
}

// Two games from the start: our binary over `proto` behind tests/support/fake_engines/delay_wrapper.sh
// (each line it is sent that starts with `prefix` arrives `seconds` late), named `name`, on
// `clock`, against a depth-1 engine in process. The two games are played at once: each spends
// most of its time waiting for the delayed lines.
MatchSettings against_delayed_engine(const std::string& name, const std::string& proto, const std::string& clock,
                                     const std::string& prefix, const std::string& seconds) {
    MatchSettings s;
    s.engines = {parse_engine_spec(fmt::format("name={},cmd=bash,proto={},{},args={}/support/fake_engines/delay_wrapper.sh {} {} {} {}",
                                               name, proto, clock, LOA_TEST_SOURCE_DIR, prefix, seconds, LOA_BINARY, proto),
                                   0),
                 parse_engine_spec("name=ours,preset=pvs+tt+rhh,depth=1", 1)};
    s.games = 2;
    s.concurrency = 2;
    s.openings = {Opening{"start", loa::Position::start(), {}}};
    return s;
}

// The runner lets a clock overrun by --time-margin; waiting for the move only a second past the
// clock once cut such a move short as "no bestmove in time" instead.
TEST(ExternalEngines, AnOverrunWithinTheMarginIsJudgedByTheClockNotCutShort) {
    MatchSettings s = against_delayed_engine("late", "uci", "tc=0.2+0", "go", "0.8");
    s.adjudication.time_margin_ms = 2000;  // 0.8 s late twice is within it, three times is not
    const MatchResult r = run_match(s, {});
    ASSERT_EQ(r.games.size(), 2u);
    for (const GameRecord& g : r.games) {
        EXPECT_NE(g.termination.find("loses on time"), std::string::npos) << g.termination;
        const auto& late_moves = g.black == "late" ? g.black_move_ms : g.white_move_ms;
        EXPECT_EQ(late_moves.size(), 3u) << g.termination;  // moved twice within the margin
    }
}

// A GTP engine is told the game one `play` at a time before each genmove; that set-up is the
// runner's business and once counted against the engine's clock, which lost long games on time.
TEST(ExternalEngines, ReplayingTheGameToAGtpEngineCostsNoClockTime) {
    MatchSettings s = against_delayed_engine("gtp", "gtp", "tc=0.6+0.03", "play", "0.03");
    s.rules = loa::parse_rules("plylimit=20");  // 0.03 s a ply of set-up: 2.7 s by ply 20 against a 0.9 s clock
    const MatchResult r = run_match(s, {});
    ASSERT_EQ(r.games.size(), 2u);
    for (const GameRecord& g : r.games) {
        EXPECT_EQ(g.termination.find("on time"), std::string::npos) << g.termination;
        EXPECT_GE(g.moves.size(), 12u) << g.termination;
        const double clock_ms = g.black == "gtp" ? g.black_ms : g.white_ms;
        EXPECT_LT(clock_ms, 600 + 10 * 30 + 30) << g.termination;
    }
}

TEST(ExternalEngines, TheUciPositionCommandUsesStartposForStandardStarts) {
    loa::Game game;
    EXPECT_EQ(uci_position(PositionCommand::Auto, game), "position startpos");
    game.play("b1-d3");
    game.play("a2-c2");
    EXPECT_EQ(uci_position(PositionCommand::Auto, game), "position startpos moves b1d3 a2c2");
    EXPECT_EQ(uci_position(PositionCommand::Fen, game),
              "position fen " + loa::Position::start().to_text() + " moves b1d3 a2c2");
    const loa::Game eggs(loa::Position::scrambled_eggs());
    EXPECT_EQ(uci_position(PositionCommand::Auto, eggs), "position fen " + eggs.start_position().to_text());
    EXPECT_THROW(parse_engine_spec("name=x,cmd=/bin/true,position=board,depth=1", 0), common::InputError);
}

// A picky engine that takes only 'position startpos moves ...', prints no info lines and
// ignores stop (tests/support/fake_engines/startpos_only.sh) plays whole games with generated
// (move-list) openings; told a FEN, it exits, and the runner records a crash.
MatchResult against_picky(const std::string& extra_keys, const std::vector<Opening>& openings) {
    MatchSettings s;
    s.engines = {parse_engine_spec("name=picky,cmd=bash,proto=uci,st=0.05,args=" LOA_TEST_SOURCE_DIR
                                   "/support/fake_engines/startpos_only.sh " LOA_BINARY + extra_keys, 0),
                 parse_engine_spec("name=ours,preset=pvs+tt+rhh,depth=1", 1)};
    s.games = 2;
    s.openings = openings;
    return run_match(s, {});
}

TEST(ExternalEngines, AnEngineThatKnowsOnlyStartposPlaysWholeGames) {
    OpeningGenerator g;
    g.count = 1;
    g.balance_depth = 1;
    const MatchResult r = against_picky("", generate_openings(g, loa::Position::start(), loa::RuleSet{}));
    ASSERT_EQ(r.games.size(), 2u);
    for (const GameRecord& g : r.games) {
        EXPECT_EQ(g.termination.find("engine"), std::string::npos) << g.termination;
        EXPECT_EQ(g.termination.find("illegal"), std::string::npos) << g.termination;
        EXPECT_NE(g.outcome, loa::Outcome::Ongoing);
    }
    const MatchResult fen = against_picky(",position=fen", {Opening{"start", loa::Position::start(), {}}});
    for (const GameRecord& g : fen.games) EXPECT_NE(g.termination.find("engine crashed"), std::string::npos) << g.termination;
}

TEST(ExternalEngines, PositionStartposRefusesOpeningsFromElsewhere) {
    try {
        (void)against_picky(",position=startpos", {Opening{"eggs", loa::Position::scrambled_eggs(), {}}});
        ADD_FAILURE() << "played";
    } catch (const common::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("position=startpos, but opening 'eggs'"), std::string::npos) << e.what();
    }
}

TEST(ExternalEngines, OurOwnBinaryOverUciPlaysLikeTheInProcessEngine) {
    // Same variant, fixed depth: the external process and the in-process searcher must choose
    // the same moves, so every game pair splits 1-1 with mirrored games.
    MatchSettings s;
    s.engines = {parse_engine_spec("name=external,cmd=" LOA_BINARY ",args=uci,proto=uci,depth=2,option.Hash=16", 0),
                 parse_engine_spec("name=inprocess,preset=full,depth=2", 1)};
    s.games = 2;
    OpeningGenerator g;
    g.count = 1;
    g.balance_depth = 1;
    s.openings = generate_openings(g, loa::Position::start(), s.rules);
    const MatchResult r = run_match(s, {});
    ASSERT_EQ(r.games.size(), 2u);
    EXPECT_EQ(r.games[0].moves, r.games[1].moves);
}

}  // namespace
}  // namespace matches
