// The runner's files (issue 54): it never deletes or overwrites what it did not write, every
// write is checked and a failed one stops the run with the file and the cause named, records
// that are not games of the match are refused with their file and line, PGN tags hold any name,
// and a schedule too large to number is refused.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "common/bounded_io.hpp"
#include "common/error.hpp"
#include "common/file_lock.hpp"
#include "common/files.hpp"
#include "matches/live_file.hpp"
#include "matches/match.hpp"
#include "matches/merge.hpp"
#include "matches/own_files.hpp"
#include "matches/records.hpp"
#include "matches/report.hpp"
#include "matches/slurm.hpp"
#include "matches/state.hpp"
#include "support/small_match.hpp"
#include "support/input_error.hpp"
#include "support/scratch.hpp"

namespace matches {
namespace {

namespace fs = std::filesystem;
using loa::testing::read_text;
using loa::testing::error_of;
using loa::testing::scratch_dir;
using fixtures::small_match;

void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

const MatchResult& six_games() {
    static const MatchResult r = run_match(small_match(1), {});
    return r;
}

// ---- what the runner deletes ------------------------------------------------------------

// `--state notes.txt`: once deleted as a "torn settings line" (a file without a newline).
TEST(MatchFiles, AStateFileArgumentThatIsNotAStateIsNeverDeleted) {
    const std::string dir = scratch_dir("match_files", "notes");
    for (const std::string notes : {"my notes, one line without a newline", "line one\nline two\n", "{\"not\": 1}\n"}) {
        const std::string path = dir + "/notes.txt";
        write(path, notes);
        const StateFile state(path, small_match(1));
        EXPECT_NE(error_of([&] { (void)state.load_all(); }).find("not a loa-match state file"), std::string::npos) << notes;
        EXPECT_NE(error_of([&] { state.remove(); }).find("not a loa-match state file"), std::string::npos) << notes;  // --fresh
        EXPECT_EQ(read_text(path), notes);
    }
    // A state file killed while its settings line was written is still removed.
    const std::string torn = dir + "/torn.state";
    write(torn, "{\"engines\":[\"name=a");
    EXPECT_TRUE(StateFile(torn, small_match(1)).load_all().empty());
    EXPECT_FALSE(fs::exists(torn));
}

// A directory given to --slurm-dir that holds anything of the user's is refused untouched
// (`--slurm-dir precious` once deleted precious/ and all in it; `--slurm-dir .` the working
// directory); a run deletes only the files runs write, and the directory only if it made it.
TEST(MatchFiles, ASlurmRunDirectoryIsTheRunsAlone) {
    const std::string dir = scratch_dir("match_files", "slurm");
    const std::string precious = dir + "/precious";
    fs::create_directories(precious);
    write(precious + "/thesis.txt", "x");
    SlurmSettings settings;
    settings.tasks = 2;
    settings.dir = precious;
    auto no_args = [](int) { return std::vector<std::string>{}; };
    EXPECT_NE(error_of([&] { SlurmRun(settings, {}, no_args); }).find("not a loa-match run directory"), std::string::npos);
    EXPECT_EQ(read_text(precious + "/thesis.txt"), "x");
    EXPECT_EQ(std::distance(fs::directory_iterator(precious), fs::directory_iterator()), 1);

    // Made by the run: its files go, then the directory.
    settings.dir = dir + "/made";
    {
        const SlurmRun run(settings, {}, no_args);
        for (const char* name : {"task-1.json", "task-2.json.state", "task-1.out", "task-2.json.state.lock", "jobs", "round",
                                 "task.sbatch", "task-1.json.tmp-4242-0"})
            write(settings.dir + "/" + name, "run");
        run.clean_up();
    }
    EXPECT_FALSE(fs::exists(settings.dir));
    // Made by the run, with a file of the user's put there since: the run's files go, the
    // user's and the directory stay.
    {
        const SlurmRun run(settings, {}, no_args);
        write(settings.dir + "/task-1.json", "run");
        write(settings.dir + "/task-1.json.backup", "user");
        write(settings.dir + "/notes.txt", "user");
        run.clean_up();
    }
    EXPECT_EQ(read_text(settings.dir + "/notes.txt"), "user");
    EXPECT_EQ(read_text(settings.dir + "/task-1.json.backup"), "user");
    EXPECT_FALSE(fs::exists(settings.dir + "/task-1.json"));
    // A run directory named with a trailing slash is the same directory (its lock beside it).
    EXPECT_EQ(run_directory_path(dir + "/made/"), dir + "/made");
    EXPECT_THROW((void)run_directory_path("/"), common::InputError);
    // A run directory of a version before the mark (its job list and run files only) resumes.
    const std::string earlier = dir + "/earlier";
    fs::create_directories(earlier);
    for (const char* name : {"jobs", "task-1.json.state", "task-2.out", "task.sbatch"}) write(earlier + "/" + name, "run");
    settings.dir = earlier;
    EXPECT_NO_THROW(SlurmRun(settings, {}, no_args));
    // An empty directory of the user's: taken, and left in place at the end.
    settings.dir = dir + "/empty";
    fs::create_directories(settings.dir);
    {
        const SlurmRun run(settings, {}, no_args);
        write(settings.dir + "/task-1.json", "run");
        run.clean_up();
    }
    EXPECT_TRUE(fs::is_directory(settings.dir));
    EXPECT_TRUE(fs::is_empty(settings.dir));
}

TEST(MatchFiles, AFileOfTheUsersAtTheLockOrLiveFilesPathIsLeftAlone) {
    const std::string dir = scratch_dir("match_files", "lock");
    for (const std::string content : {"a file of the user's", ""}) {
        write(dir + "/r.state.lock", content);
        EXPECT_NE(error_of([&] { common::FileLock lock(dir + "/r.state"); }).find("not a loa-match lock file"), std::string::npos);
        EXPECT_EQ(read_text(dir + "/r.state.lock"), content);
    }
    { const common::FileLock lock(dir + "/s.state"); }  // its own lock file: made and removed
    EXPECT_FALSE(fs::exists(dir + "/s.state.lock"));
    { const common::FileLock again(dir + "/s.state"); }  // and again: a lock left by a killed run is taken
    // The live file: a user's file or directory there stays as it was; a run's own goes.
    write(dir + "/u.state.live", "precious");
    fs::create_directories(dir + "/d.state.live");
    for (const char* name : {"/u.state.live", "/d.state.live", "/own.state.live"}) {
        LiveFile live(dir + name);
        live.finished(0);
    }
    EXPECT_EQ(read_text(dir + "/u.state.live"), "precious");
    EXPECT_TRUE(fs::is_directory(dir + "/d.state.live"));
    EXPECT_FALSE(fs::exists(dir + "/own.state.live"));
    // An empty file given as the state file is not a state of this program.
    write(dir + "/empty.state", "");
    EXPECT_NE(error_of([&] { (void)StateFile(dir + "/empty.state", small_match(1)).load_all(); }).find("not a loa-match state"),
              std::string::npos);
    EXPECT_THROW(StateFile(dir + "/empty.state", small_match(1)).remove(), common::InputError);
    EXPECT_TRUE(fs::exists(dir + "/empty.state"));
}

// The one way to replace a file (common/files.hpp): a file this program made is replaced whole,
// keeping its permissions; a symbolic link, a user's file, a directory and a FIFO without a
// reader are refused and left as they are; a device is written in place (--pgn /dev/null once
// turned /dev/null into a text file, for root).
TEST(MatchFiles, OnlyAFileThisProgramMadeIsReplaced) {
    const std::string dir = scratch_dir("match_files", "outputs");
    const common::Ownership result = own::result_json();
    write(dir + "/target.json", "{\"event\": 1}");
    fs::create_symlink(dir + "/target.json", dir + "/link.json");
    EXPECT_NE(error_of([&] { common::replace_file(dir + "/link.json", "{\"event\": 2}", result); }).find("symbolic link"),
              std::string::npos);
    EXPECT_TRUE(fs::is_symlink(dir + "/link.json"));
    EXPECT_EQ(read_text(dir + "/target.json"), "{\"event\": 1}");
    write(dir + "/notes.json", "{\"my\": \"notes\"}");
    EXPECT_NE(error_of([&] { common::replace_file(dir + "/notes.json", "{\"event\": 2}", result); }).find("it is not a loa-match result"),
              std::string::npos);
    EXPECT_EQ(read_text(dir + "/notes.json"), "{\"my\": \"notes\"}");
    common::replace_file("/dev/null", "into the void", result);
    EXPECT_TRUE(fs::is_character_file("/dev/null"));
    ASSERT_EQ(::mkfifo((dir + "/fifo").c_str(), 0600), 0);
    EXPECT_THROW(common::replace_file(dir + "/fifo", "x", result), common::InputError);
    fs::create_directories(dir + "/directory");
    EXPECT_NE(error_of([&] { common::replace_file(dir + "/directory", "x", result); }).find("is a directory"), std::string::npos);
    write(dir + "/private.json", "{\"event\": 0}");
    fs::permissions(dir + "/private.json", fs::perms::owner_read | fs::perms::owner_write);
    common::replace_file(dir + "/private.json", "{\"event\": 1}", result);
    EXPECT_EQ(read_text(dir + "/private.json"), "{\"event\": 1}");
    EXPECT_EQ(fs::status(dir + "/private.json").permissions(), fs::perms::owner_read | fs::perms::owner_write);
    for (const auto& e : fs::directory_iterator(dir)) EXPECT_EQ(e.path().filename().string().find("tmp"), std::string::npos);
}

// The one way to create a file: exclusive, never over what is there (a file, a dangling link).
TEST(MatchFiles, CreatingAFileNeverReplacesOne) {
    const std::string dir = scratch_dir("match_files", "create");
    common::create_file(dir + "/new.txt", "header\n");
    EXPECT_EQ(read_text(dir + "/new.txt"), "header\n");
    EXPECT_NE(error_of([&] { common::create_file(dir + "/new.txt", "other\n"); }).find("exists"), std::string::npos);
    EXPECT_EQ(read_text(dir + "/new.txt"), "header\n");
    fs::create_symlink(dir + "/nowhere", dir + "/dangling");
    EXPECT_THROW(common::create_file(dir + "/dangling", "x"), common::InputError);
    EXPECT_FALSE(fs::exists(dir + "/nowhere"));
    for (const auto& e : fs::directory_iterator(dir)) EXPECT_EQ(e.path().filename().string().find("tmp"), std::string::npos);
}

// The one way to read: a regular file within its cap; a FIFO and a device are refused at once
// (--openings FIFO once hung the run, --openings /dev/zero grew to 4.6 GB).
TEST(MatchFiles, ReadingTakesRegularFilesWithinTheirCapOnly) {
    const std::string dir = scratch_dir("match_files", "read");
    write(dir + "/small.txt", "abc\n");
    EXPECT_EQ(common::read_file(dir + "/small.txt", 10, "test"), "abc\n");
    EXPECT_NE(error_of([&] { (void)common::read_file(dir + "/small.txt", 3, "test"); }).find("larger than 3 bytes"), std::string::npos);
    EXPECT_NE(error_of([&] { (void)common::read_file("/dev/zero", 1 << 20, "openings"); }).find("'/dev/zero' is not a regular file"),
              std::string::npos);
    ASSERT_EQ(::mkfifo((dir + "/fifo").c_str(), 0600), 0);
    EXPECT_NE(error_of([&] { (void)common::read_file(dir + "/fifo", 1 << 20, "openings"); }).find("is not a regular file"),
              std::string::npos);
    EXPECT_NE(error_of([&] { (void)common::read_file(dir + "/missing", 1 << 20, "openings"); }).find("No such file"),
              std::string::npos);
    EXPECT_FALSE(common::read_file_if_exists(dir + "/missing", 10, "test"));
    EXPECT_EQ(common::read_file_from(dir + "/small.txt", 1, 10, "test"), "bc\n");
}

// A FIFO named like a run's lock or live file once held a web worker for ever.
TEST(MatchFiles, AFifoWhereALockFileShouldBeDoesNotBlock) {
    const std::string dir = scratch_dir("match_files", "fifo");
    ASSERT_EQ(::mkfifo((dir + "/r.state.lock").c_str(), 0600), 0);
    EXPECT_FALSE(common::FileLock::held(dir + "/r.state"));  // returns at once: not a run's lock
    EXPECT_TRUE(common::names_a_special_file(dir + "/r.state.lock"));
    EXPECT_THROW(common::append_to_file(dir + "/r.state.lock", "x\n"), common::InputError);  // at once, not blocked
}

// ---- checked writes -------------------------------------------------------------------------

// A full disk: each write is checked, the error names the file and the cause, and the file is
// cut back to its whole lines. The failure is a file-size limit: the same failed write(2).
TEST(MatchFiles, AFailedAppendNamesTheFileAndTheCauseAndLeavesWholeLines) {
    const std::string dir = scratch_dir("match_files", "full");
    const std::string path = dir + "/r.state";
    StateFile state(path, small_match(1));
    state.append(six_games().games[0]);
    state.append(six_games().games[1]);
    const std::string before = read_text(path);
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit old{};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    rlimit limit = old;
    limit.rlim_cur = before.size() + 100;  // room for part of the next line only
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limit), 0);
    const std::string error = error_of([&] { state.append(six_games().games[2]); });
    const std::string replaced =
        error_of([&] { common::replace_file(dir + "/big.json", std::string(before.size() + 1000, 'x'), own::result_json()); });
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &old), 0);
    EXPECT_EQ(error, "cannot write '" + path + "': File too large");
    EXPECT_EQ(read_text(path), before);  // no torn tail
    EXPECT_EQ(replaced, "cannot write '" + dir + "/big.json': File too large");
    for (const auto& e : fs::directory_iterator(dir)) EXPECT_EQ(e.path().filename().string().find("tmp"), std::string::npos);
    // Space again: the games resume from the file as it was.
    state.append(six_games().games[2]);
    state.append(six_games().games[3]);
    EXPECT_EQ(state.load().size(), 4u);
}

// ---- records that are not games of the match ----------------------------------------------------

TEST(MatchFiles, ABadRecordIsNamedByItsFileAndLine) {
    const std::string dir = scratch_dir("match_files", "bad_record");
    const std::string path = dir + "/r.state";
    const MatchSettings s = small_match(1);
    StateFile(path, s).append(six_games().games[0]);
    nlohmann::ordered_json bad = game_json(six_games().games[1]);
    bad["moves"] = "a1-a1";
    std::ofstream(path, std::ios::app) << bad.dump() << '\n';
    const std::string error = error_of([&] { (void)StateFile(path, s).load(); });
    EXPECT_NE(error.find("state file '" + path + "', line 3: "), std::string::npos) << error;
    EXPECT_NE(error.find("a1-a1"), std::string::npos) << error;
}

TEST(MatchFiles, RecordsOutsideTheScheduleOrOfOtherPlayersAreRefused) {
    const MatchSettings s = small_match(1);  // 6 games of a against b
    const GameRecord good = six_games().games[2];
    EXPECT_NO_THROW(check_scheduled(s, good));
    GameRecord beyond = good;
    beyond.index = 98;
    beyond.pair = 49;
    EXPECT_NE(error_of([&] { check_scheduled(s, beyond); }).find("not in the match's schedule of 6 games"), std::string::npos);
    GameRecord stranger = good;
    stranger.white = "mallory";
    EXPECT_NE(error_of([&] { check_scheduled(s, stranger); }).find("'mallory'"), std::string::npos);
    GameRecord swapped = good;
    std::swap(swapped.black, swapped.white);
    EXPECT_THROW(check_scheduled(s, swapped), common::InputError);
    GameRecord other_pair = good;
    other_pair.pair = 0;
    EXPECT_THROW(check_scheduled(s, other_pair), common::InputError);
    // A result the rules do not give after the moves (flipped), moves after the end.
    GameRecord flipped = good;
    ASSERT_TRUE(flipped.rules_ending);
    flipped.outcome = flipped.outcome == loa::Outcome::BlackWins ? loa::Outcome::WhiteWins : loa::Outcome::BlackWins;
    EXPECT_NE(error_of([&] { check_scheduled(s, flipped); }).find("is not what the rules give"), std::string::npos);
    GameRecord adjudicated = good;
    adjudicated.rules_ending = false;
    EXPECT_NE(error_of([&] { check_scheduled(s, adjudicated); }).find("the rules ended it"), std::string::npos);
    // Thousands of engines in a file are refused before any list of their pairings is made.
    MatchSettings crowd = s;
    for (int i = 0; crowd.engines.size() < 3000; ++i) crowd.engines.push_back(crowd.engines[0]);
    EXPECT_NE(error_of([&] { check_scheduled(crowd, good); }).find("at most 1000"), std::string::npos);

    // In a state file, with its line; in a result file that merge reads, with its record.
    const std::string dir = scratch_dir("match_files", "schedule");
    const std::string path = dir + "/r.state";
    StateFile(path, s).append(six_games().games[0]);
    std::ofstream(path, std::ios::app) << game_json(beyond).dump() << '\n';
    EXPECT_NE(error_of([&] { (void)StateFile(path, s).load(); }).find("line 3: game 99 is not in"), std::string::npos);
    nlohmann::json result = nlohmann::json::parse(result_json(s, six_games()));
    result["games"].push_back(nlohmann::json::parse(game_json(stranger).dump()));
    write(dir + "/r.json", result.dump());
    EXPECT_NE(error_of([&] { (void)merge_result_files({dir + "/r.json"}); }).find("'mallory'"), std::string::npos);
}

// A run's summary in docs/results (scripts/results-archive.py: the result without its games,
// which git's history keeps) is refused by merge with the way to the whole file, not read as
// a run of no games.
TEST(MatchFiles, MergeOfASummaryWhoseGamesAreArchivedSaysHowToRestoreThem) {
    const MatchSettings s = small_match(1);  // the settings of six_games()
    nlohmann::json summary = nlohmann::json::parse(result_json(s, six_games()));
    const std::string dir = scratch_dir("match_files", "archived");
    write(dir + "/whole.json", summary.dump());
    EXPECT_EQ(merge_result_files({dir + "/whole.json"}).games.size(), six_games().games.size());
    summary.erase("games");
    summary["games_archived"] = {{"games", 6}, {"commit", "fd86e6c"}, {"path", "docs/results/x.json"}};
    write(dir + "/summary.json", summary.dump());
    EXPECT_NE(error_of([&] { (void)merge_result_files({dir + "/summary.json"}); })
                  .find("games are archived: scripts/results-archive.py restore docs/results/x.json"),
              std::string::npos);
}

// ---- PGN tags and the size of a schedule ----------------------------------------------------------

TEST(MatchFiles, PgnTagValuesAreEscapedAsTheStandardSays) {
    GameRecord g = six_games().games[0];
    g.white = "quote \" and backslash \\ inside";
    std::ostringstream out;
    write_record(out, g, "an event\nwith a newline\tand a tab");
    const std::string text = out.str();
    EXPECT_NE(text.find("[White \"quote \\\" and backslash \\\\ inside\"]\n"), std::string::npos) << text;
    EXPECT_NE(text.find("[Event \"an event with a newline and a tab\"]\n"), std::string::npos) << text;
    std::istringstream in(text);
    const std::vector<ParsedRecord> back = read_records(in);  // the program reads its own file back
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0].tags.at("White"), g.white);
    EXPECT_EQ(back[0].moves.size(), g.moves.size());
    // Names with control characters are refused where they are given.
    EXPECT_THROW((void)parse_engine_spec("name=two\nlines,depth=1", 0), common::InputError);
}

// 2^31 game pairs once overflowed to "Finished game -1".
TEST(MatchFiles, AScheduleTooLargeToNumberIsRefused) {
    MatchSettings s = small_match(1);
    s.engines.push_back(parse_engine_spec("name=c,depth=1", 2));  // 3 pairings
    s.games = 1'000'000'000;
    EXPECT_NE(error_of([&] { check_schedule_size(s); }).find("more than the 1000000000 a match may have"), std::string::npos);
    EXPECT_THROW((void)scheduled_games(s), common::InputError);
    EXPECT_THROW((void)run_match(s, {}), common::InputError);
    s.games = 2'000'000'000;
    EXPECT_THROW((void)settings_from_json(settings_json(s)), common::InputError);
    s.games = 300'000'000;  // 900 million: allowed, and counted without overflow
    EXPECT_EQ(scheduled_games(s), 900'000'000);
    s.shard_count = 7;
    s.shard_index = 6;
    EXPECT_EQ(scheduled_games(s), 2 * (450'000'000 / 7));
}

}  // namespace
}  // namespace matches
