// Uci: scripted UCI sessions: options, searches, info lines, errors and a whole game.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/search/report.hpp"
#include "common/text.hpp"
#include "loa/engine/frontends.hpp"
#include "loa/engine/session.hpp"
#include "loa/game.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "support/protocol_helpers.hpp"
#include "support/sanitized_build.hpp"

namespace loa::engine {
namespace {

using loa::testing::contains;

std::string uci(const std::string& script) {
    std::istringstream in(script);
    std::ostringstream out;
    Output output(out);
    EXPECT_EQ(run_uci(in, output), 0);
    return out.str();
}

std::string bestmove(const std::string& output) {
    const std::regex re("bestmove (\\S+)");
    std::string last;
    for (auto it = std::sregex_iterator(output.begin(), output.end(), re); it != std::sregex_iterator(); ++it)
        last = (*it)[1];
    return last;
}

std::vector<std::string> bestmoves(const std::string& output) {
    const std::regex re("bestmove (\\S+)");
    std::vector<std::string> all;
    for (auto it = std::sregex_iterator(output.begin(), output.end(), re); it != std::sregex_iterator(); ++it) all.push_back((*it)[1]);
    return all;
}

TEST(Uci, HandshakeOptionsAndSearch) {
    const std::string out = uci("uci\nisready\nsetoption name Hash value 4\nsetoption name killers value 1\n"
                                "position startpos moves b1d3 a2-c2\ngo depth 3\n");
    EXPECT_TRUE(contains(out, "id name loa"));
    EXPECT_TRUE(contains(out, "option name Hash type spin default 16 min 1 max 65536"));
    EXPECT_TRUE(contains(out, "option name history type combo default relative var none var absolute var butterfly var relative"));
    EXPECT_TRUE(contains(out, "option name killers type spin default 2 min 0 max 8"));
    EXPECT_TRUE(contains(out, "option name pvs type check default true"));
    EXPECT_TRUE(contains(out, "option name Rps type string default <empty>"));
    EXPECT_TRUE(contains(out, "uciok"));
    EXPECT_TRUE(contains(out, "readyok"));
    EXPECT_TRUE(std::regex_search(out, std::regex("info depth 3 seldepth \\d+ score cp -?\\d+ nodes \\d+ nps \\d+ time \\d+ hashfull \\d+ pv")));
    Game game;
    game.play("b1d3");
    game.play("a2c2");
    EXPECT_NO_THROW(parse_move(game.position(), bestmove(out)));
}

// Every option is registered once, typed, and takes back what its registration offers: a GUI
// sends a check box as true/false, a spin box's bounds, each entry of a combo's list.
TEST(Uci, TypedOptionsTakeWhatTheirRegistrationOffers) {
    const std::string out = uci("uci\n");
    std::string script;
    std::vector<std::string> refused_values;
    int options = 0;
    std::set<std::string> names;
    for (const std::string_view view : common::split(out, '\n')) {
        if (!view.starts_with("option ")) continue;
        // option name N type T default D [min A max B | var V ...]: names hold no space here.
        std::vector<std::string> t;
        for (const std::string_view word : common::split(view, ' '))
            if (!word.empty()) t.emplace_back(word);
        ASSERT_GE(t.size(), 7u) << view;
        ASSERT_TRUE(t[1] == "name" && t[3] == "type" && t[5] == "default") << view;
        const std::string &name = t[2], &type = t[4], &fallback = t[6];
        EXPECT_TRUE(names.insert(common::lowercase(name)).second) << "registered twice: " << name;
        ++options;
        auto set = [&](const std::string& value) { script += "setoption name " + name + " value " + value + "\n"; };
        if (type == "check") {
            set("false");
            set("true");
            EXPECT_TRUE(fallback == "true" || fallback == "false") << view;
        } else if (type == "spin") {
            ASSERT_EQ(t.size(), 11u) << view;
            ASSERT_TRUE(t[7] == "min" && t[9] == "max") << view;
            set(t[8]);
            set(t[10]);
            set(std::to_string(std::stoll(t[10]) + 1));
            refused_values.push_back(name);
        } else if (type == "combo") {
            bool default_seen = false;
            for (std::size_t i = 7; i + 1 < t.size(); i += 2) {
                ASSERT_EQ(t[i], "var") << view;
                set(t[i + 1]);
                default_seen = default_seen || t[i + 1] == fallback;
            }
            EXPECT_TRUE(default_seen) << "the default is one of the vars: " << view;
        } else {
            ASSERT_EQ(type, "string") << view;
        }
        if (type != "string") set(fallback);  // back to the default
    }
    EXPECT_GE(options, 40);
    // A spin box's max + 1 is the only refusal.
    const std::string answers = uci(script + "isready\n");
    std::size_t errors = 0;
    for (const std::string_view line : common::split(answers, '\n'))
        if (line.starts_with("info string error")) ++errors;
    EXPECT_EQ(errors, refused_values.size()) << answers;
    EXPECT_TRUE(contains(answers, "readyok"));
}

// A GUI shows the last info line as the engine's line: it must start with the move played, also
// when the search stopped inside an iteration whose new best move it plays.
TEST(Uci, TheLastPvStartsWithTheMovePlayed) {
    auto first_pv_move = [](const std::string& info) {
        const std::string pv = info.substr(info.find(" pv ") + 4);
        return pv.substr(0, pv.find(' '));
    };
    int lines_of_unfinished_iterations = 0;
    for (const char* position : {"startpos", "startpos moves b1d3 a2c2"}) {
        for (int nodes = 2000; nodes <= 40000; nodes += 1900) {
            const std::string out = uci(fmt::format("position {}\ngo nodes {}\n", position, nodes));
            std::vector<std::string> infos;
            for (const std::string_view line : common::split(out, '\n'))
                if (line.starts_with("info depth ")) infos.emplace_back(line);
            ASSERT_FALSE(infos.empty()) << out;
            EXPECT_EQ(first_pv_move(infos.back()), bestmove(out)) << nodes << "\n" << out;
            // The line of a move from the iteration the node limit stopped: it has every node.
            lines_of_unfinished_iterations += contains(infos.back(), fmt::format(" nodes {} ", nodes));
        }
    }
    EXPECT_GT(lines_of_unfinished_iterations, 0) << "no search stopped in an iteration with a new best move: the case is untested";
}

TEST(Uci, MoveOverheadIsAlsoTakenAsGuisSpellIt) {
    const std::string out = uci("setoption name Move Overhead value 100\nsetoption name MoveOverhead value 80\n"
                                "setoption name Move Overhead value 9999\n");
    EXPECT_EQ(std::count(out.begin(), out.end(), '\n'), 1) << out;  // only the out-of-range value is refused
    EXPECT_TRUE(contains(out, "MoveOverhead must be 0..5000 ms, not '9999'")) << out;
}

// The options come from one table (loa/engine/engine_options.hpp): a misspelt name is refused
// with the registered name it is nearest to, and a refused value leaves every option as it was.
TEST(Uci, AMisspeltOptionNamesTheNearestAndARefusedValueChangesNothing) {
    const std::string out = uci("setoption name Hahs value 8\nsetoption name Hash value 0\nsetoption name Hash value 8\n");
    EXPECT_TRUE(contains(out, "unknown option 'Hahs'; did you mean 'Hash'?")) << out;
    EXPECT_TRUE(contains(out, "Hash must be 1..65536 MB, not '0'")) << out;
    Session session;
    const std::string before = session.memory_text();
    EXPECT_THROW(session.set_option("Hash", "0"), common::InputError);
    EXPECT_THROW(session.set_option("Threads", "65"), common::InputError);
    EXPECT_EQ(session.memory_text(), before);
    session.set_option("hash", "8");  // any case
    EXPECT_NE(session.memory_text(), before);
    std::vector<std::string> names;
    for (const OptionInfo& o : session.options()) names.push_back(o.name);
    EXPECT_EQ(names, option_names());
    EXPECT_EQ(std::count(names.begin(), names.end(), "Preset"), 0);  // a spelling, not registered
}

TEST(Uci, DecidedScoresAreMateInMovesAsGuisReadThem) {
    // UCI's "mate M" counts moves, negative when the engine loses; "win N" / "loss N" (plies)
    // are this program's own, for loa analyze.
    EXPECT_EQ(search::format_uci_score(search::win_in(1)), "mate 1");
    EXPECT_EQ(search::format_uci_score(search::win_in(3)), "mate 2");
    EXPECT_EQ(search::format_uci_score(search::loss_in(2)), "mate -1");
    EXPECT_EQ(search::format_uci_score(search::loss_in(4)), "mate -2");
    EXPECT_EQ(search::format_uci_score(search::loss_in(1)), "mate -1");  // a move that connects the opponent
    EXPECT_EQ(search::format_uci_score(35), "cp 35");
    for (int moves : {-5, -2, -1, 1, 2, 7}) EXPECT_EQ(search::mate_moves(search::score_of_mate(moves)), moves) << moves;
    // Black wins in 3 plies (loa analyze: "score win 3"); after Black's move, White loses in 2.
    const std::string position = "3b4/3b4/5b2/5w2/1w2b3/w3b3/1w2w3/8 b";
    const std::string out = uci("position fen " + position + "\ngo depth 4\n");
    EXPECT_TRUE(contains(out, "score mate 2 ")) << out;
    EXPECT_FALSE(contains(out, "score win")) << out;
    const std::string after = uci("position fen " + position + " moves " + bestmove(out) + "\ngo depth 4\n");
    EXPECT_TRUE(contains(after, "score mate -1 ")) << after;
    EXPECT_FALSE(contains(after, "score loss")) << after;
}

TEST(Uci, ErrorsLeaveThePositionUnchanged) {
    const std::string out = uci(
        "position startpos moves b1d3\n"
        "position fen 1bbbbbbbb/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b\n"  // a rank of 9 squares
        "position startpos moves b1d3 b8b6\n"                            // a move of the wrong side
        "position startpos moves b1d3 zz\n"                              // malformed move
        "position nowhere\n"
        "setoption name colour value red\nsetoption value 3\n"
        "go depth x\ngo sideways\nfly\n"
        "d\nquit\n");
    EXPECT_TRUE(contains(out, "info string error: position: rank 8 has more than 8 squares"));
    EXPECT_TRUE(contains(out, "info string error: position: move 'b8b6'"));
    EXPECT_TRUE(contains(out, "info string error: position: move 'zz': malformed move"));
    EXPECT_TRUE(contains(out, "info string error: position: expected 'startpos' or 'fen <position>'"));
    EXPECT_TRUE(contains(out, "info string error: unknown option 'colour'"));
    EXPECT_TRUE(contains(out, "info string error: setoption"));
    // Every go is answered, even one the engine cannot read (a controller would wait for ever),
    // with no move: "(none)", as python-chess reads it.
    EXPECT_TRUE(contains(out, "info string error: go: bad value 'x' for 'depth'\nbestmove (none)\n")) << out;
    // A parameter the engine does not know is ignored, as UCI says (that go is answered "(none)"
    // all the same: the last position command was refused).
    EXPECT_TRUE(contains(out, "info string go: ignored unknown parameter 'sideways'\n")) << out;
    EXPECT_FALSE(contains(out, "error: go: unknown")) << out;
    EXPECT_TRUE(contains(out, "info string error: unknown command 'fly'"));
    Game after;
    after.play("b1d3");
    EXPECT_TRUE(contains(out, after.position().to_text()));  // 'd' shows the last good position
    EXPECT_EQ(bestmoves(out), (std::vector<std::string>{"(none)", "(none)"})) << out;
}

TEST(Uci, PassAndGameOver) {
    EXPECT_EQ(bestmove(uci("position fen 6bw/6bb/8/8/8/8/bb6/wb6 w\ngo depth 2\n")), "pass");
    const std::string over = uci("position startpos moves d1b3 h5g4 b1b4 g4g1 b4e7 a3c1 b3e6 h3f1 e1e5\ngo depth 2\nquit\n");
    EXPECT_TRUE(contains(over, "info string game over: black wins by connection"));
    // No legal move: "(none)", as Stockfish writes it and python-chess reads it ("none" it refuses).
    EXPECT_EQ(bestmove(over), "(none)");
}

TEST(Uci, ASearchThatCannotStartStillAnswersAndLeavesTheEngineUsable) {
    // erps=on without probabilities: the searcher refuses it. isready must still say readyok
    // and go must still answer (bestmove (none)), or the controller drops the engine or waits
    // for a move until its clock runs out; and the engine must not stay "thinking".
    const std::string out = uci("setoption name erps value on\nisready\nposition startpos\ngo wtime 1000 btime 1000\n"
                                "setoption name erps value off\nposition startpos\ngo depth 2\nquit\n");
    EXPECT_TRUE(contains(out, "info string error: erps=on needs")) << out;
    EXPECT_TRUE(contains(out, "readyok")) << out;
    EXPECT_FALSE(contains(out, "the engine is thinking")) << out;
    const std::vector<std::string> answers = bestmoves(out);
    ASSERT_EQ(answers.size(), 2u) << out;
    EXPECT_EQ(answers[0], "(none)");
    EXPECT_NO_THROW(parse_move(Position::start(), answers[1])) << out;
}

// MCTS over UCI (issue 59): Variant mcts plays, with nodes counting play-outs (on two threads
// sharing the tree too, the budget exactly); Hash sizes the tree; move knowledge without Rps
// is refused at the search, as erps=on is, until the option changes.
TEST(Uci, MctsTakesItsOptionsAndRefusesWhatItCannotDo) {
    const std::string out = uci("setoption name Variant value mcts\nsetoption name Threads value 2\nsetoption name Hash value 8\n"
                                "isready\nposition startpos\ngo nodes 500\n");
    EXPECT_FALSE(contains(out, "info string error")) << out;
    EXPECT_TRUE(contains(out, "memory 9 MB: MCTS tree 8 MB")) << out;
    EXPECT_TRUE(contains(out, " nodes 500 ")) << out;  // play-outs, as asked
    EXPECT_NO_THROW(parse_move(Position::start(), bestmove(out))) << out;
    const std::string knowledge = uci("setoption name Variant value mcts\nsetoption name mcts_bias value 100\nposition startpos\n"
                                      "go nodes 300\nsetoption name mcts_bias value 0\ngo nodes 300\n");
    EXPECT_TRUE(contains(knowledge, "mcts_bias and playout=weighted need the game's realization probabilities")) << knowledge;
    const std::vector<std::string> answers = bestmoves(knowledge);
    ASSERT_EQ(answers.size(), 2u) << knowledge;
    EXPECT_EQ(answers[0], "(none)");
    EXPECT_NO_THROW(parse_move(Position::start(), answers[1])) << knowledge;
}

// MultiPV (issue 58), the UCI convention: each depth's N lines together, "multipv K" after
// seldepth, best first, each starting with another move; bestmove is the last depth's line 1;
// one line prints no multipv field; a count outside 1..64 is refused.
TEST(Uci, MultiPvPrintsTheBestLinesOfEachDepth) {
    const std::string out = uci("uci\nsetoption name MultiPV value 3\nposition startpos\ngo depth 3\n");
    EXPECT_TRUE(contains(out, "option name MultiPV type spin default 1 min 1 max 64")) << out;
    const std::regex line_re("info depth (\\d+) seldepth \\d+ multipv (\\d+) score (cp|mate) (-?\\d+) .* pv (\\S+)");
    std::vector<std::tuple<int, int, int, std::string>> lines;  // depth, multipv, score, first move
    for (auto it = std::sregex_iterator(out.begin(), out.end(), line_re); it != std::sregex_iterator(); ++it)
        lines.emplace_back(std::stoi((*it)[1]), std::stoi((*it)[2]), std::stoi((*it)[4]), (*it)[5]);
    ASSERT_EQ(lines.size(), 9u) << out;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto& [depth, k, score, move] = lines[i];
        EXPECT_EQ(depth, static_cast<int>(i / 3) + 1) << out;
        EXPECT_EQ(k, static_cast<int>(i % 3) + 1) << out;
        if (k > 1) {
            EXPECT_LE(score, std::get<2>(lines[i - 1])) << out;
            EXPECT_NE(move, std::get<3>(lines[i - 1])) << out;
            if (k > 2) {
                EXPECT_NE(move, std::get<3>(lines[i - 2])) << out;
            }
        }
    }
    EXPECT_EQ(bestmove(out), std::get<3>(lines[6])) << out;
    EXPECT_FALSE(contains(uci("position startpos\ngo depth 2\n"), "multipv"));
    const std::string bad = uci("setoption name MultiPV value 0\nsetoption name MultiPV value 65\n");
    EXPECT_TRUE(contains(bad, "MultiPV must be 1..64, not '0'")) << bad;
    EXPECT_TRUE(contains(bad, "MultiPV must be 1..64, not '65'")) << bad;
}

TEST(Uci, GoAfterARefusedPositionPlaysNoMoveOfTheGameBefore) {
    // The refused command named a game two plies on; a move of the game before would be a
    // move for another position.
    const std::string out = uci("position startpos moves b1d3\nposition startpos moves b1d3 a2c2 zz\ngo depth 2\n"
                                "position startpos moves b1d3 a2c2\ngo depth 2\nquit\n");
    EXPECT_TRUE(contains(out, "info string error: go: the last position command was refused")) << out;
    const std::vector<std::string> answers = bestmoves(out);
    ASSERT_EQ(answers.size(), 2u) << out;
    EXPECT_EQ(answers[0], "(none)");
    Game game;
    game.play("b1d3");
    game.play("a2c2");
    EXPECT_NO_THROW(parse_move(game.position(), answers[1])) << out;
}

// Once answered `bestmove (none)` at once: a GUI that pondered on a finished game read it as
// the answer to a command it had not sent yet.
TEST(Uci, PonderOrInfiniteOnAFinishedGameAnswersOnlyAfterPonderhitOrStop) {
    const std::string over = "position startpos moves d1b3 h5g4 b1b4 g4g1 b4e7 a3c1 b3e6 h3f1 e1e5\n";
    for (const std::string& go_then_release : {std::string("go ponder wtime 1000 btime 1000\nisready\nponderhit\n"),
                                               std::string("go ponder\nisready\nstop\n"),
                                               std::string("go infinite\nisready\nstop\n")}) {
        const std::string out = uci(over + go_then_release + "isready\nquit\n");
        const auto ready = out.find("readyok"), best = out.find("bestmove (none)");
        ASSERT_NE(best, std::string::npos) << out;
        EXPECT_LT(ready, best) << go_then_release << out;
        EXPECT_EQ(out.find("bestmove", best + 1), std::string::npos) << "answered twice: " << out;
        EXPECT_NE(out.find("readyok", best), std::string::npos) << "not idle afterwards: " << out;
    }
    // A plain go still answers at once, and the engine takes the next command.
    const std::string plain = uci(over + "go depth 2\nposition startpos\ngo depth 1\nquit\n");
    EXPECT_TRUE(contains(plain, "bestmove (none)")) << plain;
    EXPECT_FALSE(contains(plain, "the engine is thinking")) << plain;
    EXPECT_NO_THROW(parse_move(Position::start(), bestmove(plain)));
}

// Some GUIs send a negative time after an overrun: the engine moves (at once) instead of
// refusing the go and leaving the GUI waiting for a bestmove.
TEST(Uci, ANegativeClockMeansNoTimeLeftAndAHugeMovesToGoIsCapped) {
    for (const std::string go : {"go wtime -20 btime -20 winc 0 binc 0", "go wtime 1000 btime 1000 movestogo 100000000000000000"}) {
        const std::string out = uci("position startpos\n" + go + "\n");
        EXPECT_FALSE(contains(out, "error")) << out;
        EXPECT_NO_THROW(parse_move(Position::start(), bestmove(out))) << out;
    }
    EXPECT_TRUE(contains(uci("go wtime x\n"), "info string error: go: bad value 'x' for 'wtime'"));
    EXPECT_TRUE(contains(uci("go depth -1\n"), "info string error: go: bad value '-1' for 'depth'"));
}

TEST(Uci, InfiniteSearchAnswersOnlyAfterStop) {
    const std::string out = uci("position startpos\ngo infinite\nisready\nposition startpos moves b1d3\nstop\nquit\n");
    const auto ready = out.find("readyok"), refused = out.find("position: the engine is thinking"), best = out.find("bestmove");
    ASSERT_NE(ready, std::string::npos);
    ASSERT_NE(refused, std::string::npos);
    ASSERT_NE(best, std::string::npos);
    EXPECT_LT(ready, best);
    EXPECT_LT(refused, best);
}

TEST(Uci, TheReaderNeverWaitsForASearch) {
    // Once a deadlock: setoption waited for a depth-50 search, so stop and quit were never read.
    const auto start = std::chrono::steady_clock::now();
    const std::string out = uci("position startpos\ngo depth 50\nsetoption name Hash value 16\nposition startpos moves b1d3\n"
                                "ucinewgame\ngo depth 2\nisready\nstop\nquit\n");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_LT(seconds, 5.0);  // a depth-50 search would take hours
    EXPECT_TRUE(contains(out, "info string error: setoption: the engine is thinking (send stop first, or wait for bestmove)")) << out;
    EXPECT_TRUE(contains(out, "info string error: position: the engine is thinking")) << out;
    EXPECT_TRUE(contains(out, "info string error: ucinewgame: the engine is thinking")) << out;
    EXPECT_TRUE(contains(out, "info string error: go: the engine is thinking")) << out;
    const auto ready = out.find("readyok"), best = out.find("\nbestmove ");
    ASSERT_NE(ready, std::string::npos);
    ASSERT_NE(best, std::string::npos);
    EXPECT_LT(ready, best);  // answered while thinking
    EXPECT_NO_THROW(parse_move(Position::start(), bestmove(out)));  // the refused position did not apply
}

TEST(Uci, QuitEndsAnInfiniteSearchAtOnce) {
    const auto start = std::chrono::steady_clock::now();
    const std::string out = uci("position startpos\ngo infinite\nquit\n");
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
    EXPECT_TRUE(contains(out, "bestmove")) << out;
}

TEST(Uci, PlaysAWholeGameThroughTheProtocol) {
    Game game;
    std::string moves;
    while (!game.over() && game.ply() < 200) {
        const std::string out = uci("setoption name Variant value full\nposition startpos moves " + moves +
                                    "\ngo depth 2\n");
        const std::string m = bestmove(out);
        ASSERT_NO_THROW(game.play(m)) << "ply " << game.ply() << ": " << m;
        moves += " " + m;
    }
    EXPECT_TRUE(game.over());
}

// ---- one command may not take more memory or time than it was allowed (issue 54) ----------

// A token of 100 KB is quoted in the error by its first bytes only; a line over the protocol's
// bound (1 MB) is refused as a whole, not read into memory.
TEST(Uci, AHugeBadTokenIsNotEchoedBackInFull) {
    const std::string out = uci("go depth " + std::string(100'000, 'x') + "\n" + "go " + std::string(2'000'000, 'y') + "\nisready\n");
    EXPECT_TRUE(contains(out, "... (100000 bytes)")) << out.substr(0, 500);
    EXPECT_TRUE(contains(out, "info string error: a line of over 1048576 bytes was ignored"));
    EXPECT_LT(out.size(), 2000u);
    EXPECT_TRUE(contains(out, "readyok"));
}

// An option file is read only if it is a regular file of bounded size: /dev/zero once read
// for ever (a FIFO would have blocked).
TEST(Uci, AnOptionFileThatIsNotARegularFileIsRefusedAtOnce) {
    const std::string out = uci("setoption name Eval value /dev/zero\nsetoption name Rps value /dev/zero\nisready\n");
    EXPECT_TRUE(contains(out, "info string error: evaluation weights: '/dev/zero' is not a regular file")) << out;
    EXPECT_TRUE(contains(out, "info string error: realization probabilities: '/dev/zero' is not a regular file")) << out;
    EXPECT_TRUE(contains(out, "readyok"));
}

// The operator may ask for any table; the engine says what the tables claim when it changes
// (Threads alone changes nothing without an evaluation cache).
TEST(Uci, TheMemoryTheTablesClaimIsReported) {
    const std::string out = uci("setoption name Threads value 4\nsetoption name eval_cache value 64\nsetoption name Hash value 32\n");
    EXPECT_TRUE(contains(out, "info string memory 273 MB: hash 16 MB + PV lines 0.6 MB + eval cache 64 MB x 4 threads")) << out;
    EXPECT_TRUE(contains(out, "info string memory 289 MB: hash 32 MB + PV lines 1.1 MB + eval cache 64 MB x 4 threads")) << out;
}

// Issue 82: what `loa uci` answers is what a GUI expects.

// Scripts sent one after the other to one engine (its tables kept), each to its end: a search
// with a limit answers before the next script starts, as a GUI waits for bestmove.
std::vector<std::string> uci_in_turn(const std::vector<std::string>& scripts) {
    Session session;
    std::vector<std::string> outputs;
    for (const std::string& script : scripts) {
        std::istringstream in(script);
        std::ostringstream out;
        Output output(out);
        EXPECT_EQ(run_uci(in, output, session), 0);
        outputs.push_back(out.str());
    }
    return outputs;
}

struct InfoLine {
    int depth = 0;
    std::vector<std::string> pv;
    std::string text;
};

std::vector<InfoLine> info_lines(const std::string& output) {
    std::vector<InfoLine> lines;
    for (const std::string_view line : common::split(output, '\n')) {
        if (!line.starts_with("info depth ")) continue;
        InfoLine info;
        info.text = std::string(line);
        info.depth = std::stoi(info.text.substr(11));
        std::istringstream pv(info.text.substr(info.text.find(" pv ") + 4));
        for (std::string move; pv >> move;) info.pv.push_back(move);
        lines.push_back(std::move(info));
    }
    return lines;
}

// An info line's PV, replayed from `start`: legal move after legal move, and as many moves as
// its depth unless the game ends (or repeats a position of the line) first.
void expect_whole_pv(const InfoLine& info, Game game) {
    std::set<std::uint64_t> seen{game.position().key()};
    bool ended = false;
    for (const std::string& move : info.pv) {
        ASSERT_FALSE(ended) << "a move after the end: " << info.text;
        ASSERT_NO_THROW(game.play(move)) << move << " in " << info.text;
        ended = game.over() || !seen.insert(game.position().key()).second;
    }
    if (!ended) {
        EXPECT_GE(static_cast<int>(info.pv.size()), info.depth) << info.text;
    }
}

// Every info line's PV checked so; how many lines there were.
int expect_whole_pvs(const std::string& output, const Game& start) {
    const auto infos = info_lines(output);
    for (const InfoLine& info : infos) expect_whole_pv(info, start);
    return static_cast<int>(infos.size());
}

TEST(Uci, ASecondSearchOfThePositionPrintsItsWholeLine) {
    // Once "info depth 9 seldepth 2 ... pv b8b6" and no ponder move: the table answered the
    // root's first child at once, and the line ended there.
    const int depth = loa::testing::sanitized_build ? 5 : 8;
    const std::string go = fmt::format("go depth {}\n", depth);
    const auto out = uci_in_turn({"position startpos\n" + go, go});
    EXPECT_EQ(expect_whole_pvs(out[0], Game()), depth) << out[0];
    EXPECT_EQ(expect_whole_pvs(out[1], Game()), depth) << out[1];
    const std::regex answer("bestmove [a-h][1-8][a-h][1-8] ponder [a-h][1-8][a-h][1-8]\n");
    EXPECT_TRUE(std::regex_search(out[0], answer)) << out[0];
    EXPECT_TRUE(std::regex_search(out[1], answer)) << out[1];
}

TEST(Uci, MultiPvLinesAreAsLongAsTheirSearch) {
    // Once "multipv 2 ... pv g1g3 h2f2 b8b6 a7c7" at depth 8, and one move a line at the
    // second search.
    const int depth = loa::testing::sanitized_build ? 4 : 7;
    const std::string go = fmt::format("go depth {}\n", depth);
    const auto out = uci_in_turn({"setoption name MultiPV value 3\nposition startpos\n" + go, go});
    EXPECT_EQ(expect_whole_pvs(out[0], Game()), 3 * depth) << out[0];
    EXPECT_EQ(expect_whole_pvs(out[1], Game()), 3 * depth) << out[1];
}

TEST(Uci, MultiPvStoppedAtOnceStillPlaysALegalMove) {
    // Once "bestmove none" in most runs (the stop came before the first line began) while the
    // game went on.
    for (int run = 0; run < (loa::testing::sanitized_build ? 10 : 50); ++run) {
        const std::string out = uci("setoption name MultiPV value 3\nposition startpos\ngo infinite\nstop\nquit\n");
        ASSERT_NO_THROW(parse_move(Position::start(), bestmove(out))) << "run " << run << ":\n" << out;
    }
}

TEST(Uci, SearchMovesKeepsTheSearchToThem) {
    // Two moves that are not the engine's choice at the start (b8b6 or g1g3); the parameters
    // after the moves are read too.
    const std::set<std::string> asked{"c1c3", "f8f6"};
    for (const std::string& setup : {std::string(), std::string("setoption name MultiPV value 3\n")}) {
        const std::string out = uci(setup + "position startpos\ngo searchmoves c1c3 f8f6 depth 4\n");
        EXPECT_EQ(asked.count(bestmove(out)), 1u) << out;
        const auto infos = info_lines(out);
        ASSERT_FALSE(infos.empty()) << out;
        for (const InfoLine& info : infos) {
            EXPECT_EQ(asked.count(info.pv.front()), 1u) << info.text;
            EXPECT_LE(info.depth, 4) << info.text;
            EXPECT_FALSE(contains(info.text, "multipv 3")) << "two moves make two lines: " << info.text;
        }
        EXPECT_TRUE(contains(out, "info depth 4 ")) << out;
    }
    // No legal move after it: refused, and still answered.
    const std::string none = uci("position startpos\ngo searchmoves a1a1 depth 2\n");
    EXPECT_TRUE(contains(none, "info string error: go: searchmoves: 'a1a1' is not a legal move here\nbestmove (none)\n")) << none;
}

TEST(Uci, GoMateLooksForAWinAndUnknownParametersAreIgnored) {
    // Black wins in 3 plies, 2 moves: go mate 2 finds it; go mate 1 (a depth-1 search) still
    // answers a move.
    const std::string position = "position fen 3b4/3b4/5b2/5w2/1w2b3/w3b3/1w2w3/8 b\n";
    const std::string two = uci(position + "go mate 2\n");
    EXPECT_TRUE(contains(two, "score mate 2 ")) << two;
    EXPECT_FALSE(contains(two, "error")) << two;
    const std::string one = uci("position startpos\ngo mate 1\n");
    EXPECT_TRUE(contains(one, "info depth 1 ")) << one;
    EXPECT_FALSE(contains(one, "info depth 2 ")) << one;
    EXPECT_NO_THROW(parse_move(Position::start(), bestmove(one))) << one;
    // UCI: an engine ignores what it does not know.
    const std::string unknown = uci("position startpos\ngo depth 2 sideways 3\n");
    EXPECT_TRUE(contains(unknown, "info string go: ignored unknown parameter 'sideways 3'\n")) << unknown;
    EXPECT_TRUE(contains(unknown, "info depth 2 ")) << unknown;
    EXPECT_NO_THROW(parse_move(Position::start(), bestmove(unknown))) << unknown;
}

TEST(Uci, DebugRegisterAndPonderAreAnswered) {
    const std::string out = uci("uci\ndebug on\nregister later\nsetoption name Ponder value true\nuci\n"
                                "position startpos\ngo depth 2\n");
    EXPECT_FALSE(contains(out, "error")) << out;
    EXPECT_TRUE(contains(out, "option name Ponder type check default false\n")) << out;
    EXPECT_TRUE(contains(out, "option name Ponder type check default true\n")) << out;  // as set
    EXPECT_TRUE(contains(out, "info string debug on\n")) << out;
    EXPECT_TRUE(contains(out, "registration ok\n")) << out;
    EXPECT_TRUE(contains(out, "info string stats nodes ")) << out;  // debug: the search's statistics
    const std::string off = uci("debug off\nsetoption name Ponder value maybe\nposition startpos\ngo depth 2\n");
    EXPECT_TRUE(contains(off, "info string debug off\n")) << off;
    EXPECT_FALSE(contains(off, "info string stats")) << off;
    EXPECT_TRUE(contains(off, "info string error: Ponder must be true or false, not 'maybe'")) << off;
}

// ucinewgame goes back to the start position; show is d's other name.
TEST(Uci, UciNewGameStartsAgainAndShowIsD) {
    EXPECT_EQ(uci("position startpos moves b1d3\nucinewgame\nshow\nd\n"),
              "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b\n"
              "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b\n");
}

TEST(Uci, ChangingTheRulesKeepsTheGame) {
    // Once reset to the start: the next go searched the start position, for Black.
    Game game;
    game.play("b1d3");
    const std::string out = uci("position startpos moves b1d3\nsetoption name Rules value openspiel\nd\ngo depth 2\n");
    EXPECT_FALSE(contains(out, "error")) << out;
    EXPECT_TRUE(contains(out, game.position().to_text())) << out;
    EXPECT_NO_THROW(parse_move(game.position(), bestmove(out))) << out;  // a move for White
    // A game the new rules end earlier stops there: d1b3 ... e1e5 connects Black at ply 9, and
    // a ply limit of 4 ends it at ply 4 instead, drawn.
    const std::string limited = uci("position startpos moves d1b3 h5g4 b1b4 g4g1 b4e7 a3c1\n"
                                    "setoption name Rules value olympiad,plylimit=4\ngo depth 2\n");
    EXPECT_TRUE(contains(limited, "info string game over: draw by ")) << limited;
    EXPECT_EQ(bestmove(limited), "(none)") << limited;
}

TEST(Uci, AProvenWinSaysHowFarItIs) {
    // Black wins in 3 plies (2 moves). The solver proves it without a distance, and once said
    // "score mate 64": the distance is searched for, and the line that reaches it printed.
    const std::string out = uci("setoption name solver value 100000\nposition fen 3b4/3b4/5b2/5w2/1w2b3/w3b3/1w2w3/8 b\n"
                                "go depth 4\n");
    EXPECT_TRUE(contains(out, "info string solver: proven win")) << out;
    EXPECT_TRUE(contains(out, "score mate 2 ")) << out;
    EXPECT_FALSE(contains(out, "mate 64")) << out;
    const auto infos = info_lines(out);
    ASSERT_EQ(infos.size(), 1u) << out;
    ASSERT_EQ(infos[0].pv.size(), 3u) << out;
    Game game(parse_position("3b4/3b4/5b2/5w2/1w2b3/w3b3/1w2w3/8 b"));
    for (const std::string& move : infos[0].pv) ASSERT_NO_THROW(game.play(move)) << out;
    EXPECT_TRUE(game.over()) << out;
    EXPECT_EQ(game.result().outcome, Outcome::BlackWins) << out;
}

}  // namespace
}  // namespace loa::engine
