// loa-match datagen: self-play training data for a learned evaluation (matches/datagen.hpp).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/text.hpp"
#include "loa/position_text.hpp"
#include "matches/checked_file.hpp"
#include "matches/cli/commands.hpp"
#include "matches/cli/interrupt.hpp"
#include "matches/datagen.hpp"
#include "matches/file_lock.hpp"
#include "matches/slurm.hpp"

namespace matches::cli {
namespace {

struct Options {
    std::string engine = "name=datagen,preset=full,nodes=5000", openings, start = "startpos", rules, out;
    DatagenSettings s;
    std::string part, counts;  // a Slurm task's: its games "A-B" and where its counts go
    int slurm_tasks = 0, slurm_retries = 2, slurm_cpus = 1;
    std::string slurm_args, slurm_dir;
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
            {"skipped_tactical", c.skipped_tactical}};
}

// A task's counts, added to `total`; throws when its file is not such counts.
void add_counts(const std::string& path, DatagenCounts& total) {
    std::ifstream in(path);
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
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
    } catch (const nlohmann::json::exception&) {
        throw common::InputError(fmt::format("datagen: '{}' holds no counts", path));
    }
}

void print_summary(const Options& o, const DatagenCounts& c, double seconds) {
    const DatagenSettings& s = o.s;
    fmt::print("datagen: {} games played in {:.1f} s ({} were in the file already), {}: Black won {}, White {}, draws {} ({} at "
               "the ply cap)\n",
               c.games, seconds, c.resumed_games, o.out, c.black_wins, c.white_wins, c.draws, c.adjudicated);
    fmt::print("positions: {} searched, {} written; left out: {} in the first {} plies after the random ones, {} with a "
               "capture as the best move, {} decisive, {} (the opening and random plies are not searched)\n",
               c.positions, c.written, c.skipped_early, s.skip_plies, c.skipped_capture, c.skipped_decisive,
               s.keep_tactical ? "none tactical (--keep-tactical)" : fmt::format("{} tactical (quiescence changes the score)", c.skipped_tactical));
    if (seconds > 0 && c.positions > 0) fmt::print("{:.0f} positions searched a second\n", static_cast<double>(c.positions) / seconds);
}

// Options a task does not take from the driver's command line (with their arity): the
// driver's own, and what each task is given instead.
const std::map<std::string, int> DriverOnlyOptions = {
    {"--slurm", 1}, {"--slurm-args", 1}, {"--slurm-dir", 1}, {"--slurm-retries", 1}, {"--slurm-cpus", 1}, {"--out", 1},
    {"-g", 1},      {"--games", 1},      {"-j", 1},          {"--concurrency", 1},   {"--part", 1},       {"--counts", 1}};

// The games missing from --out split over a Slurm job array (matches/slurm.hpp): task t plays
// its consecutive share into a part file of its own, resumed when resubmitted, and the driver
// joins the parts onto --out when all are complete: the file one local run would write.
int run_on_slurm(Options& o) {
    const DatagenSettings& s = o.s;
    check_datagen_settings(s);
    const FileLock claim_out(o.out);
    const int have = datagen_games_in(s, o.out);
    if (have >= s.games) {
        fmt::print("datagen: {} holds {} games already\n", o.out, have);
        return 0;
    }
    SlurmSettings slurm;
    slurm.tasks = std::min(o.slurm_tasks, s.games - have);
    slurm.sbatch_args = o.slurm_args;
    slurm.retries = o.slurm_retries;
    slurm.cpus_per_task = o.slurm_cpus;
    slurm.poll_seconds = 1;
    slurm.job_name = "loa-datagen";
    slurm.state_name = "txt";
    slurm.dir = run_directory_path(!o.slurm_dir.empty() ? o.slurm_dir : o.out + ".slurm");
    const FileLock claim(slurm.dir);
    // Task t's games: have+1 .. have + share, consecutive, in order of t.
    auto first_of = [&](int t) {
        return have + static_cast<int>(static_cast<long long>(s.games - have) * (t - 1) / slurm.tasks);
    };
    auto part_settings = [&](int t) {
        DatagenSettings p = s;
        p.part = true;
        p.first_game = first_of(t);
        p.games = first_of(t + 1);
        return p;
    };
    SlurmRun run(slurm, task_command(o.args, DriverOnlyOptions), [&](int t) {
        const std::string dir = std::filesystem::absolute(slurm.dir).string();
        return std::vector<std::string>{"--out", fmt::format("{}/task-{}.txt", dir, t), "--part",
                                        fmt::format("{}..{}", first_of(t) + 1, first_of(t + 1)), "--counts",
                                        fmt::format("{}/task-{}.json", dir, t), "-j", std::to_string(slurm.cpus_per_task)};
    });
    // Parts of another split (an earlier driver with another --slurm, or before games were
    // added to --out) would fail in every task: refused here, with the reason.
    for (int t = 1; t <= slurm.tasks; ++t) {
        std::ifstream in(run.state_file(t), std::ios::binary);
        std::string line;
        if (in && std::getline(in, line) && line != datagen_header(part_settings(t)))
            throw common::InputError(fmt::format("datagen: {} holds a part of another split of the games (its first line is '{}'): "
                                                 "give the same --slurm as the run that made it, or another --slurm-dir",
                                                 run.state_file(t), line.substr(0, 200)));
    }
    fmt::print("datagen: games {}-{} over {} Slurm tasks, their files in {}\n", have + 1, s.games, slurm.tasks, slurm.dir);
    std::fflush(stdout);
    const auto began = std::chrono::steady_clock::now();
    std::set<int> ended;  // games seen ending in the parts (a resumed task writes some again)
    const int every = std::max(1, (s.games - have) / 20);
    auto on_line = [&](int, const std::string& line) {
        if (!line.starts_with("# end ")) return;
        const auto number = common::parse_int(line.substr(6, line.find(' ', 6) - 6));
        if (!number || !ended.insert(*number).second) return;
        const int done = static_cast<int>(ended.size());
        if (done % every == 0 || done == s.games - have) {
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
            fmt::print(stderr, "datagen: {}/{} games, {:.0f} s\n", have + done, s.games, seconds);
        }
    };
    if (!run.run(on_line, [](int) {}, nullptr)) throw common::InputError("datagen: interrupted; the Slurm tasks go on");
    std::vector<std::string> parts;
    DatagenCounts total;
    for (int t = 1; t <= slurm.tasks; ++t) {
        parts.push_back(run.state_file(t));
        add_counts(run.result_file(t), total);
    }
    // A resubmitted task resumed games an earlier attempt of this run played: they are this
    // run's, but their positions were counted by the attempt that failed.
    const int uncounted = total.resumed_games;
    total.games += uncounted;
    total.resumed_games = have;
    const int games = join_datagen_parts(s, parts, o.out);
    run.clean_up();
    fmt::print("datagen: joined {} parts onto {}: {} games\n", slurm.tasks, o.out, games);
    print_summary(o, total, std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
    if (uncounted > 0)
        fmt::print("({} games were played by tasks that failed and were resubmitted: their positions are not in the counts above)\n",
                   uncounted);
    return 0;
}

}  // namespace

Command add_datagen_command(CLI::App& app, const std::vector<std::string>& args) {
    auto o = std::make_shared<Options>();
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
    datagen->add_flag("--keep-tactical", o->s.keep_tactical,
                      "Keep positions where quiescence search changes the score (a capture pending for either side)");
    datagen->add_option("--max-plies", o->s.max_plies, "A game still going after this many plies is a draw")->check(CLI::Range(1, 10'000))->capture_default_str();
    datagen->add_option("--seed", o->s.seed, "Seed of the random plies")->capture_default_str();
    datagen->add_option("-j,--concurrency", o->s.threads, "Games at once (the file is the same for any number)")->check(CLI::Range(1, 1024))->capture_default_str();
    datagen->add_option("--rules", o->rules, "Rules: a named set or key=value list (default olympiad)");
    datagen->add_option("--slurm", o->slurm_tasks, "Split the games over a Slurm job array of N tasks and join their parts onto --out")
        ->check(CLI::Range(1, 100000));
    datagen->add_option("--slurm-args", o->slurm_args, "Extra sbatch arguments");
    datagen->add_option("--slurm-dir", o->slurm_dir, "Directory of the tasks' files on the shared filesystem (default: <out>.slurm)");
    datagen->add_option("--slurm-retries", o->slurm_retries, "Resubmissions of a failed task")->check(CLI::Range(0, 100))->capture_default_str();
    datagen->add_option("--slurm-cpus", o->slurm_cpus, "Games at once in each task")->check(CLI::Range(1, 1024))->capture_default_str();
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
                if (o->slurm_tasks > 0) {
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
                if (!o->counts.empty() && !c.interrupted) replace_file(o->counts, counts_json(c).dump() + '\n');
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
