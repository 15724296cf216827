// An SPSA run: the same file for any -j and after resumes; other settings or edits refused.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "loa/movegen.hpp"
#include "matches/spsa.hpp"
#include "matches/spsa_run.hpp"
#include "support/scratch.hpp"
#include "support/input_error.hpp"

namespace {

namespace fs = std::filesystem;
using loa::testing::read_text;
using loa::testing::scratch_file;

void write(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

using loa::testing::error_of;

// Four openings: the start and the start after each of three first moves.
std::vector<matches::Opening> four_openings() {
    std::vector<matches::Opening> openings = {{"start", loa::Position::start(), {}}};
    loa::MoveList moves;
    loa::generate_moves(loa::Position::start(), moves);
    for (std::size_t i = 0; i < 3; ++i) openings.push_back({fmt::format("move {}", i), loa::Position::start(), {moves[i * 7]}});
    return openings;
}

matches::SpsaSettings tiny_run(int threads) {
    matches::SpsaSettings s;
    s.engine = "name=t,preset=full,depth=2";
    // Keys that act at depth 2 (the quiescence search, futility at depth 1), with big
    // perturbations and steps: the engines differ and theta moves.
    s.params = {matches::parse_spsa_param("qsearch_plies=4,1,12,3,0.2"), matches::parse_spsa_param("futility=100,10,600,150,0.05")};
    s.schedule.iterations = 4;
    s.pairs = 1;
    s.seed = 21;
    s.threads = threads;
    s.openings = four_openings();
    return s;
}

TEST(SpsaRun, TheSameFileForAnyThreadsAndAfterResumes) {
    const fs::path one = scratch_file("spsa", "one.jsonl"), two = scratch_file("spsa", "two.jsonl");
    const matches::SpsaResult r1 = matches::run_spsa(tiny_run(1), one.string());
    ASSERT_EQ(r1.iterations.size(), 4u);
    EXPECT_EQ(r1.resumed, 0);
    (void)matches::run_spsa(tiny_run(2), two.string());
    const std::string text = read_text(one);
    EXPECT_EQ(text, read_text(two));
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 5);  // the header and 4 iterations
    bool decided = false;
    for (const auto& it : r1.iterations) {
        EXPECT_EQ(it.wins + it.draws + it.losses, 2);
        decided = decided || it.wins != it.losses;
    }
    EXPECT_TRUE(decided) << "every iteration even: the run measured nothing";
    EXPECT_NE(r1.theta, r1.start);

    // Run again: nothing to play, the same theta.
    const matches::SpsaResult again = matches::run_spsa(tiny_run(2), one.string());
    EXPECT_EQ(again.resumed, 4);
    EXPECT_EQ(again.theta, r1.theta);
    EXPECT_EQ(read_text(one), text);

    // A kill in the middle of the last line: that iteration is played again, to the same file.
    const std::size_t last = text.rfind('\n', text.size() - 2);
    write(one, text.substr(0, last + 1 + 10));
    const matches::SpsaResult resumed = matches::run_spsa(tiny_run(1), one.string());
    EXPECT_EQ(resumed.resumed, 3);
    EXPECT_EQ(read_text(one), text);
}

TEST(SpsaRun, AnotherRunsFileOrAnEditedOneIsRefusedAndLeftAlone) {
    const fs::path path = scratch_file("spsa", "run.jsonl");
    (void)matches::run_spsa(tiny_run(2), path.string());
    const std::string text = read_text(path);

    matches::SpsaSettings other = tiny_run(2);
    other.seed = 22;
    EXPECT_NE(error_of([&] { (void)matches::run_spsa(other, path.string()); }).find("not the file of a run with these settings"),
              std::string::npos);
    other = tiny_run(2);
    other.schedule.iterations = 5;  // the schedule depends on N: not an extension of this run
    EXPECT_NE(error_of([&] { (void)matches::run_spsa(other, path.string()); }).find("its iterations is 4, this run's 5"), std::string::npos);
    other = tiny_run(2);
    other.engine = "name=t,preset=full,depth=2,killers=3";
    EXPECT_NE(error_of([&] { (void)matches::run_spsa(other, path.string()); }).find("killers=3 where the saved run had killers=2"),
              std::string::npos);
    EXPECT_EQ(read_text(path), text);
    // The same engine spelled otherwise (a default given, another order) is the same run.
    other = tiny_run(1);
    other.engine = "depth=2,killers=2,preset=full,name=t";
    EXPECT_EQ(matches::run_spsa(other, path.string()).resumed, 4);
    EXPECT_EQ(read_text(path), text);

    // An edited theta, an edited result, an extra line: each named, the file untouched.
    auto edited = [&](const std::string& from, const std::string& to) {
        std::string t = text;
        const auto at = t.rfind(from);
        EXPECT_NE(at, std::string::npos) << from;
        return t.replace(at, from.size(), to);
    };
    const fs::path copy = scratch_file("spsa", "edited.jsonl");
    for (const auto& [changed, message] :
         {std::pair{edited("\"theta\":[", "\"theta\":[1"), std::string("are not those the run computes")},
          std::pair{edited("\"k\":4", "\"k\":5"), std::string("numbered 5")},
          std::pair{text + text.substr(text.rfind('\n', text.size() - 2) + 1), std::string("only 4 iterations")},
          std::pair{std::string("hello\n"), std::string("not JSON")},
          std::pair{std::string(), std::string("is empty")},
          std::pair{text.substr(0, text.find('\n')), std::string("only a torn header")}}) {
        write(copy, changed);
        EXPECT_NE(error_of([&] { (void)matches::run_spsa(tiny_run(1), copy.string()); }).find(message), std::string::npos) << message;
        EXPECT_EQ(read_text(copy), changed);
    }
}

TEST(SpsaRun, UnusableSettingsAreRefusedBeforeAnyGame) {
    const fs::path path = scratch_file("spsa", "refused.jsonl");
    auto refused = [&](matches::SpsaSettings s, const std::string& part) {
        EXPECT_NE(error_of([&] { (void)matches::run_spsa(s, path.string()); }).find(part), std::string::npos) << part;
        EXPECT_FALSE(fs::exists(path));
    };
    matches::SpsaSettings s = tiny_run(1);
    s.engine = "name=t,preset=full";
    refused(s, "has no limit");
    s = tiny_run(1);
    s.engine = "name=x,cmd=/bin/true,depth=2";
    refused(s, "in-process");
    s = tiny_run(1);
    s.params.push_back(matches::parse_spsa_param("qsearch_plies=5,1,12"));
    refused(s, "given twice");
    s = tiny_run(1);
    s.params = {matches::parse_spsa_param("futility=60,10,200"), matches::parse_spsa_param("futility.endgame=300,100,500")};
    refused(s, "given twice");
    s = tiny_run(1);
    s.engine = "name=t,preset=full,depth=2,futility=off";
    s.params = {matches::parse_spsa_param("futility.endgame=300,100,500")};
    refused(s, "'futility' is off");
    s = tiny_run(1);
    s.params.clear();
    refused(s, "no parameter");
    // Parameters that cannot change play, and values inside the bounds the engine refuses.
    s = tiny_run(1);
    s.params = {matches::parse_spsa_param("tm_max=400,200,800,40")};
    refused(s, "act on a clock");
    s.engine = "name=t,preset=full,tc=1+0.01,timeman=classic";
    refused(s, "timeman=tournament");
    s.engine = "name=t,preset=full,depth=2,lmr=off";
    s.params = {matches::parse_spsa_param("lmr_min_moves=3,1,12")};
    refused(s, "LMR is off");
    s.engine = "name=t,preset=full,depth=2,multicut=on";
    s.params = {matches::parse_spsa_param("mc_moves=10,4,16,2"), matches::parse_spsa_param("mc_cuts=3,1,8")};
    refused(s, "refuses values within the bounds (mc_moves=4,mc_cuts=8)");
}

}  // namespace
