// loa-match datagen: self-play training data for a learned evaluation (matches/datagen.hpp).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/file_lock.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "loa/position_text.hpp"
#include "matches/cli/commands.hpp"
#include "matches/cli/interrupt.hpp"
#include "matches/cli/slurm_options.hpp"
#include "matches/datagen.hpp"
#include "matches/own_files.hpp"
#include "matches/player.hpp"
#include "matches/slurm_driver.hpp"

namespace matches::cli {
namespace {

struct DatagenOptions {
    std::string engine = "name=datagen,preset=full,nodes=5000", openings, start = "startpos", rules, out;
    DatagenSettings s;
    std::string part, counts;  // a Slurm task's: its games "A-B" and where its counts go
    SlurmOptions slurm;
    std::vector<std::string> args;  // the command line as given
};

nlohmann::json counts_json(const DatagenCounts& c) {
    return {{"games", c.games},
            {"resumed_games", c.resumed_games},
            {"black_wins", c.black_wins},
            {"white_wins", c.white_wins},
            {"draws", c.draws},
            {"adjudicated", c.adjudicated},
            {"positions", c.positions},
            {"written", c.written},
            {"skipped_early", c.skipped_early},
            {"skipped_capture", c.skipped_capture},
            {"skipped_decisive", c.skipped_decisive},
            {"skipped_tactical", c.skipped_tactical},
            {"kept_decisive", c.kept_decisive}};
}

// A task's counts, added to `total`; throws when its file is not such counts.
void add_counts(const std::string& path, DatagenCounts& total) {
    const nlohmann::json j = nlohmann::json::parse(common::read_file(path, common::MaxListFile, "datagen"), nullptr, false);
    if (j.is_discarded() || !j.is_object()) throw common::InputError(fmt::format("datagen: '{}' holds no counts", path));
    try {
        total.games += j.at("games").get<int>();
        total.resumed_games += j.at("resumed_games").get<int>();
        total.black_wins += j.at("black_wins").get<int>();
        total.white_wins += j.at("white_wins").get<int>();
        total.draws += j.at("draws").get<int>();
        total.adjudicated += j.at("adjudicated").get<int>();
        total.positions += j.at("positions").get<std::uint64_t>();
        total.written += j.at("written").get<std::uint64_t>();
        total.skipped_early += j.at("skipped_early").get<std::uint64_t>();
        total.skipped_capture += j.at("skipped_capture").get<std::uint64_t>();
        total.skipped_decisive += j.at("skipped_decisive").get<std::uint64_t>();
        total.skipped_tactical += j.at("skipped_tactical").get<std::uint64_t>();
        total.kept_decisive += j.value("kept_decisive", std::uint64_t{0});  // a task of a binary before the option
    } catch (const nlohmann::json::exception&) {
        throw common::InputError(fmt::format("datagen: '{}' holds no counts", path));
    }
}

void print_summary(const DatagenOptions& o, const DatagenCounts& c, double seconds) {
    const DatagenSettings& s = o.s;
    fmt::print("datagen: {} games played in {:.1f} s ({} were in the file already), {}: Black won {}, White {}, draws {} ({} at "
               "the ply cap)\n",
               c.games, seconds, c.resumed_games, o.out, c.black_wins, c.white_wins, c.draws, c.adjudicated);
    fmt::print("positions: {} searched, {} written; left out: {} in the first {} plies after the random ones, {} with a "
               "capture as the best move, {}, {} (the opening and random plies are not searched)\n",
               c.positions, c.written, c.skipped_early, s.skip_plies, c.skipped_capture,
               s.keep_decisive ? fmt::format("none decisive (--keep-decisive: {} written)", c.kept_decisive)
                               : fmt::format("{} decisive", c.skipped_decisive),
               s.keep_tactical ? "none tactical (--keep-tactical)" : fmt::format("{} tactical (quiescence changes the score)", c.skipped_tactical));
    if (seconds > 0 && c.positions > 0) fmt::print("{:.0f} positions searched a second\n", static_cast<double>(c.positions) / seconds);
}

// Options of datagen that a task does not take from the driver's command line (with their
// arity), beside those no task of any command takes: what each task is given instead.
const std::map<std::string, int> DatagenDriverOnlyOptions = {{"--out", 1}, {"-g", 1},      {"--games", 1},
                                                      {"--part", 1}, {"--counts", 1}};

// The games missing from --out split over a Slurm job array (matches/slurm_driver.hpp): task t
// plays its consecutive share into a part file of its own, resumed when resubmitted, and the
// driver joins the parts onto --out when all are complete: the file one local run would write.
int run_on_slurm(DatagenOptions& o) {
    const DatagenSettings& s = o.s;
    check_datagen_settings(s);
    (void)InProcessPlayer(s.engine, s.rules);  // an engine that cannot start fails here, not in every task
    if (std::filesystem::is_symlink(o.out))
        throw common::InputError(fmt::format("datagen: --out '{}' is a symbolic link: give the file it names", o.out));
    const common::FileLock claim_out(o.out);
    const int have = datagen_games_in(s, o.out);
    SlurmDriver driver(o.slurm, {"loa-datagen", "txt", o.out + ".slurm", std::max(1, std::min(o.slurm.tasks, s.games - have))});
    // The split a run directory's parts were made by: "<games in --out before> <games> <tasks>".
    const std::string split_file = driver.dir() + "/datagen-split";
    const std::string split = fmt::format("{} {} {}", have, s.games, driver.tasks());
    std::string recorded;
    if (const auto text = common::read_file_if_exists(split_file, common::MaxListFile, "--slurm-dir")) recorded = text->substr(0, text->find('\n'));
    // A directory whose parts are in --out already (its driver was stopped after the join,
    // before it cleaned up): its files go.
    int recorded_have = 0, recorded_games = 0, recorded_tasks = 0;
    if (const auto words = common::split(recorded, ' '); words.size() == 3) {
        recorded_have = common::parse_int(words[0]).value_or(0);
        recorded_games = common::parse_int(words[1]).value_or(0);
        recorded_tasks = common::parse_int(words[2]).value_or(0);
    }
    if (!recorded.empty() && recorded != split && recorded_games <= have) {
        driver.discard_earlier_run("datagen", "wait for them or scancel them");
        fmt::print("datagen: removed the files of {}, whose parts are in {} already\n", driver.dir(), o.out);
        recorded.clear();
    }
    if (have >= s.games) {
        fmt::print("datagen: {} holds {} games already\n", o.out, have);
        return 0;
    }
    if (!recorded.empty() && recorded != split)
        throw common::InputError(fmt::format("datagen: {} holds the parts of another split of the games (games {}-{} over {} tasks; "
                                             "this run's would be games {}-{} over {}): give the --games and --slurm of that run, "
                                             "or another --slurm-dir",
                                             driver.dir(), recorded_have + 1, recorded_games, recorded_tasks, have + 1, s.games,
                                             driver.tasks()));
    // Task t's games: have+1 .. have + share, consecutive, in order of t.
    auto first_of = [&](int t) {
        return have + static_cast<int>(static_cast<long long>(s.games - have) * (t - 1) / driver.tasks());
    };
    SlurmRun& run = driver.start(o.args, DatagenDriverOnlyOptions, [&](int t) {
        return std::vector<std::string>{"--out", driver.task_file(t, "txt"), "--part",
                                        fmt::format("{}..{}", first_of(t) + 1, first_of(t + 1)), "--counts", driver.task_file(t, "json")};
    });
    if (recorded.empty()) common::replace_file(split_file, split + '\n', common::in_own_directory("the run directory's split"));
    fmt::print("datagen: games {}-{} over {} Slurm tasks, their files in {}\n", have + 1, s.games, driver.tasks(), driver.dir());
    std::fflush(stdout);
    const auto began = std::chrono::steady_clock::now();
    // Progress: the games seen ending in each part (in order within a part; a resumed task
    // writes some again).
    std::map<int, int> last_ended;
    int ended = 0;
    const int every = std::max(1, (s.games - have) / 20);
    auto on_line = [&](int task, const std::string& line) {
        if (!line.starts_with("# end ")) return;
        const auto number = common::parse_int(line.substr(6, line.find(' ', 6) - 6));
        if (!number || *number <= last_ended[task]) return;
        last_ended[task] = *number;
        ++ended;
        if (ended % every == 0 || ended == s.games - have) {
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
            fmt::print(stderr, "datagen: {}/{} games, {:.0f} s\n", have + ended, s.games, seconds);
        }
    };
    install_interrupt_handlers();
    const auto games_so_far = [&] { return fmt::format("after {} of {} games", ended, s.games - have); };
    if (!driver.follow(on_line, [](int) {}, interrupt_requested, games_so_far, "join their parts")) return 130;
    std::vector<std::string> parts;
    DatagenCounts total;
    for (int t = 1; t <= driver.tasks(); ++t) {
        parts.push_back(run.state_file(t));
        add_counts(run.result_file(t), total);
    }
    // The games, results and lines are the parts'; the positions searched and left out are
    // the tasks' counts, which lack the games a failed task played before it was resubmitted.
    const int uncounted = total.resumed_games;
    const JoinedParts joined = join_datagen_parts(s, parts, o.out);
    total.games = joined.part_games;
    total.resumed_games = have;
    total.black_wins = joined.black_wins;
    total.white_wins = joined.white_wins;
    total.draws = joined.draws;
    total.written = joined.positions;
    run.clean_up();
    fmt::print("datagen: joined {} parts onto {}: {} games\n", driver.tasks(), o.out, joined.games);
    print_summary(o, total, std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
    if (uncounted > 0)
        fmt::print("({} games were played by tasks that failed and were resubmitted: the positions searched and left out in them "
                   "are not in the counts above)\n",
                   uncounted);
    return 0;
}

}  // namespace

Command add_datagen_command(CLI::App& app, const std::vector<std::string>& args) {
    auto o = std::make_shared<DatagenOptions>();
    o->args = args;
    CLI::App* datagen = app.add_subcommand(
        "datagen",
        "Self-play training data: each position with the search's score, its best move and the game's result "
        "(text, one position a line; see docs/datagen.md). Seeded, and resumed when run again on its file");
    datagen->add_option("--engine", o->engine, "The engine playing both sides, in-process, with depth= or nodes=")->capture_default_str();
    datagen->add_option("--out", o->out, "The data file (appended to; a run on an existing file of the same settings resumes it)")->required();
    datagen->add_option("-g,--games", o->s.games, "Games the file holds when the run ends (a file holding more is left as it is)")->check(CLI::Range(1, 100'000'000))->capture_default_str();
    datagen->add_option("--openings", o->openings, "Openings file (a position or a move list a line; default: the start)");
    datagen->add_option("--start", o->start, "The start position the openings' moves are from (startpos, eggs or text)")->capture_default_str();
    datagen->add_option("--random-plies", o->s.random_plies, "Uniformly random legal plies after the opening, seeded per game")
        ->check(CLI::Range(0, 200))->capture_default_str();
    datagen->add_option("--skip-plies", o->s.skip_plies, "Positions left out after the random plies")->check(CLI::Range(0, 500))->capture_default_str();
    datagen->add_option("--max-score", o->s.max_abs_score, "Positions whose |score| is above this are left out (proven ones always)")
        ->check(CLI::Range(1, 100'000))->capture_default_str();
    datagen->add_flag("--keep-captures", o->s.keep_captures, "Keep positions whose best move is a capture");
    datagen->add_flag("--keep-decisive", o->s.keep_decisive,
                      "Keep positions with a proven result or |score| above --max-score, the score as searched (a proof: |score| >= 29871)");
    datagen->add_flag("--keep-tactical", o->s.keep_tactical,
                      "Keep positions where quiescence search changes the score (a capture line of the side to move beats standing pat)");
    datagen->add_option("--max-plies", o->s.max_plies, "A game still going after this many plies is a draw")->check(CLI::Range(1, 10'000))->capture_default_str();
    datagen->add_option("--seed", o->s.seed, "Seed of the random plies")->capture_default_str();
    datagen->add_option("-j,--concurrency", o->s.threads, "Games at once (the file is the same for any number)")->check(CLI::Range(1, 1024))->capture_default_str();
    datagen->add_option("--rules", o->rules, "Rules: a named set or key=value list (default olympiad)");
    add_slurm_options(*datagen, o->slurm, {"Split the games over a Slurm job array of N tasks and join their parts onto --out", "<out>.slurm", "Games"});
    // A Slurm task's own options (the driver gives them).
    datagen->add_option("--part", o->part, "(A Slurm task's) play games A to B only, into a part file: A..B")->group("");
    datagen->add_option("--counts", o->counts, "(A Slurm task's) write the counts as JSON here at the end")->group("");
    return {datagen, [o] {
                DatagenSettings& s = o->s;
                s.engine = parse_engine_spec(o->engine, 0);
                check_engine_files(s.engine);
                s.rules = o->rules.empty() ? loa::RuleSet{} : loa::parse_rules(o->rules);
                const loa::Position start = loa::position_from_argument(o->start);
                if (o->openings.empty()) {
                    s.openings = {Opening{o->start, start, {}}};
                    s.openings_name = o->start;
                } else {
                    s.openings = load_openings(o->openings, start, s.rules);
                    s.openings_name = std::filesystem::path(o->openings).filename().string();  // the digest names the content
                }
                if (o->slurm.enabled()) {
                    if (!o->part.empty()) throw common::InputError("datagen: --slurm splits the games itself: leave out --part");
                    return run_on_slurm(*o);
                }
                if (!o->part.empty()) {
                    const auto [first, last] = parse_range(o->part, 1, 100'000'000, "datagen: --part");
                    s.part = true;
                    s.first_game = first - 1;
                    s.games = last;
                }
                const auto began = std::chrono::steady_clock::now();
                // Progress: one line rewritten on a terminal, a line every 5% of the games in a log.
                const bool terminal = isatty(STDERR_FILENO) != 0;
                const int every = std::max(1, s.games / 20);
                int last_step = -1;
                bool progress_shown = false;
                s.on_progress = [&](int done, std::uint64_t written) {
                    // (games are written in batches: a step is printed when one is passed)
                    if (!terminal && done / every == last_step && done != s.games) return;
                    last_step = done / every;
                    progress_shown = terminal;
                    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
                    fmt::print(stderr, "{}datagen: {}/{} games, {} positions written this run, {:.0f} s{}", terminal ? "\r" : "", done, s.games,
                               written, seconds, terminal ? "" : "\n");
                };
                install_interrupt_handlers();
                s.stop = &interrupt_requested;
                const DatagenCounts c = generate_training_data(s, o->out);
                const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
                if (progress_shown) fmt::print(stderr, "\n");
                // (a task's counts say its part is complete: not after an interrupt)
                if (!o->counts.empty() && !c.interrupted) common::replace_file(o->counts, counts_json(c).dump() + '\n', own::datagen_counts());
                print_summary(*o, c, seconds);
                if (c.interrupted) {
                    fmt::print("Interrupted: {} holds the games before the first one not played; run the same command again to "
                               "play on from there.\n",
                               o->out);
                    return 130;
                }
                return 0;
            }};
}

}  // namespace matches::cli
