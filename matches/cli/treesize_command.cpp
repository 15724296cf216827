#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "common/cli_checks.hpp"
#include "common/error.hpp"
#include "common/file_lock.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "loa/search_game.hpp"
#include "matches/cli/commands.hpp"
#include "matches/own_files.hpp"
#include "matches/slurm.hpp"
#include "matches/treesize.hpp"

namespace matches::cli {

struct Options {
    TreeSizeSettings ts;
    std::vector<std::string> variants;
    std::string study, positions = "data/treesize-positions.txt", depths = "1..5", csv, json, plot, baseline, from_json;
    int limit = 0;
    std::string shard = "1/1", runs;
    // Slurm back end
    int slurm_tasks = 0, slurm_retries = 2, slurm_cpus = 1;
    std::string slurm_args, slurm_dir;
    std::vector<std::string> args;  // the command line as given
};

namespace {

// Options a task does not take from the driver's command line (with their arity).
const std::map<std::string, int> DriverOnlyOptions = {
    {"--slurm", 1}, {"--slurm-args", 1}, {"--slurm-dir", 1}, {"--slurm-retries", 1}, {"--slurm-cpus", 1}, {"--json", 1},
    {"--csv", 1},   {"--plot", 1},       {"--runs", 1},      {"--shard", 1},         {"-j", 1},           {"--concurrency", 1}};

// The positions split over a Slurm job array (matches/slurm.hpp): each task writes the raw
// runs of its shard, and the driver merges them into the result a local run gives.
TreeSizeResult run_on_slurm(const Options& o) {
    if (parse_shard(o.shard).second > 1) throw common::InputError("treesize: --slurm splits the positions itself: leave out --shard");
    SlurmSettings slurm;
    slurm.tasks = o.slurm_tasks;
    slurm.sbatch_args = o.slurm_args;
    slurm.retries = o.slurm_retries;
    slurm.cpus_per_task = o.slurm_cpus;
    slurm.poll_seconds = 1;
    slurm.job_name = "loa-treesize";
    slurm.dir = run_directory_path(!o.slurm_dir.empty() ? o.slurm_dir : (o.json.empty() ? "treesize" : o.json) + ".slurm");
    const common::FileLock claim(slurm.dir);
    SlurmRun run(slurm, task_command(o.args, DriverOnlyOptions), [&](int task) {
        return std::vector<std::string>{"--shard", fmt::format("{}/{}", task, slurm.tasks), "--runs",
                                        fmt::format("{}/task-{}.json", std::filesystem::absolute(slurm.dir).string(), task),
                                        "-j", std::to_string(slurm.cpus_per_task)};
    });
    fmt::print("treesize: {} Slurm tasks, their files in {}\n", slurm.tasks, slurm.dir);
    std::fflush(stdout);
    int done = 0;
    const bool complete = run.run([](int, const std::string&) {},
                                  [&](int task) {
                                      fmt::print("treesize: task {} done ({} of {})\n", task, ++done, slurm.tasks);
                                      std::fflush(stdout);
                                  },
                                  nullptr);
    if (!complete) throw common::InputError("treesize: interrupted");
    TreeSizeResult r;
    std::vector<bool> filled;
    for (int t = 1; t <= slurm.tasks; ++t) merge_treesize_runs(o.ts, run.result_file(t), r, filled);
    if (std::find(filled.begin(), filled.end(), false) != filled.end())
        throw common::InputError("treesize: the tasks' runs do not cover every variant and position");
    run.clean_up();
    return r;
}

}  // namespace

Command add_treesize_command(CLI::App& app, const std::vector<std::string>& args) {
    auto o = std::make_shared<Options>();
    o->args = args;
    CLI::App* treesize = app.add_subcommand("treesize", "Tree-size experiment: nodes per depth of search variants");
    treesize->add_option("--variant", o->variants, "A variant: [name=X,]<search keys> (repeat)");
    treesize->add_option("--study", o->study, "Add a study's variants: history (TT on and off), history-tt, history-nott or combinations");
    treesize->add_option("--positions", o->positions, "Positions file (one position string a line)")->capture_default_str();
    treesize->add_option("--depth", o->depths, "Depth or range D1..D2")->capture_default_str();
    treesize->add_option("--baseline", o->baseline, "Variant the ratios refer to (default: the first)");
    treesize->add_option("--eval", o->ts.eval, "Evaluation: full (= hce), nnue (the shipped net), hand, concentration, simple, material, FILE.json or FILE.nnue")->capture_default_str();
    treesize->add_option("--rps", o->ts.rps, "Realization probabilities (learn-rps JSON) for variants with erps=on")->check(CLI::ExistingFile);
    treesize->add_option("--limit", o->limit, "Use only the first N positions")->check(common::positive_number());
    treesize->add_option("-j,--concurrency", o->ts.concurrency, "Searches at once")->check(CLI::Range(1, 1024))->take_last();
    treesize->add_option("--seed", o->ts.seed, "Seed of the bootstrap")->capture_default_str();
    treesize->add_option("--csv", o->csv, "Per variant, position and depth: nodes, quiescence nodes, time, TT hits, cutoff rate, move, score");
    treesize->add_option("--json", o->json, "The tables as JSON");
    treesize->add_option("--plot", o->plot, "Nodes and ratio to the baseline against depth (PNG, gnuplot)");
    treesize->add_option("--from-json", o->from_json, "Only redraw --plot from the --json of an earlier run (no search)")
        ->check(CLI::ExistingFile);
    treesize->add_option("--runs", o->runs, "Write the raw runs (every variant, position and depth) as JSON");
    treesize->add_option("--shard", o->shard, "Search only the positions p with p mod N = i-1 (needs --runs): i/N")->capture_default_str();
    treesize->add_option("--slurm", o->slurm_tasks, "Split the positions over a Slurm job array of N tasks and merge their runs")
        ->check(CLI::Range(1, 100000));
    treesize->add_option("--slurm-args", o->slurm_args, "Extra sbatch arguments");
    treesize->add_option("--slurm-dir", o->slurm_dir, "Directory of the tasks' files on the shared filesystem (default: <json>.slurm)");
    treesize->add_option("--slurm-retries", o->slurm_retries, "Resubmissions of a failed task")->check(CLI::Range(0, 100))->capture_default_str();
    treesize->add_option("--slurm-cpus", o->slurm_cpus, "Searches at once in each task")->check(CLI::Range(1, 1024))->capture_default_str();
    return {treesize, [o]() -> int {
            if (!o->from_json.empty()) {
                if (o->plot.empty()) throw common::InputError("treesize: --from-json needs --plot");
                treesize_plot(treesize_totals_from_json(o->from_json), o->plot);
                fmt::print("Written {}\n", o->plot);
                return 0;
            }
            for (const std::string& v : o->variants) o->ts.variants.push_back(parse_tree_variant(v));
            if (!o->study.empty())
                for (TreeVariant& v : study_variants(o->study)) o->ts.variants.push_back(std::move(v));
            if (o->ts.variants.empty()) throw common::InputError("treesize: give --variant or --study");
            std::tie(o->ts.min_depth, o->ts.max_depth) = parse_range(o->depths, 1, 30, "treesize: --depth");
            o->ts.positions = load_positions(o->positions);
            if (o->limit > 0 && static_cast<std::size_t>(o->limit) < o->ts.positions.size()) o->ts.positions.resize(static_cast<std::size_t>(o->limit));
            if (!o->baseline.empty()) {
                const auto it = std::find_if(o->ts.variants.begin(), o->ts.variants.end(), [&](const TreeVariant& v) { return v.name == o->baseline; });
                if (it == o->ts.variants.end()) throw common::InputError(fmt::format("treesize: no variant named '{}'", o->baseline));
                o->ts.baseline = static_cast<int>(it - o->ts.variants.begin());
            }
            (void)loa::SearchGame::from_spec(loa::RuleSet{}, o->ts.eval, o->ts.rps);  // a bad eval or rps file fails now
            auto write = [](const std::string& path, const std::string& text) {
                common::replace_file(path, text, own::treesize_output());
                fmt::print("Written {}\n", path);
            };
            const auto [shard, shards] = parse_shard(o->shard);
            if (shards > 1) {  // one task of a split run: its positions' raw runs only
                if (o->runs.empty()) throw common::InputError("treesize: --shard needs --runs FILE");
                TreeSizeSettings part = o->ts;
                std::vector<std::size_t> indices;
                part.positions.clear();
                for (std::size_t p = static_cast<std::size_t>(shard); p < o->ts.positions.size(); p += static_cast<std::size_t>(shards)) {
                    indices.push_back(p);
                    part.positions.push_back(o->ts.positions[p]);
                }
                fmt::print("treesize: shard {}/{}: {} of {} positions\n", shard + 1, shards, indices.size(), o->ts.positions.size());
                write(o->runs, treesize_runs_json(o->ts, run_treesize(part, false), indices));
                return 0;
            }
            fmt::print("treesize: {} variants, {} positions, depth {}..{}, eval {}\n", o->ts.variants.size(), o->ts.positions.size(),
                       o->ts.min_depth, o->ts.max_depth, o->ts.eval);
            const TreeSizeResult r = o->slurm_tasks > 0 ? run_on_slurm(*o) : run_treesize(o->ts, true);
            fmt::print("{}", treesize_table(o->ts, r));
            if (!o->runs.empty()) {
                std::vector<std::size_t> all(o->ts.positions.size());
                for (std::size_t p = 0; p < all.size(); ++p) all[p] = p;
                write(o->runs, treesize_runs_json(o->ts, r, all));
            }
            if (!o->csv.empty()) write(o->csv, treesize_csv(o->ts, r));
            if (!o->json.empty()) write(o->json, treesize_json(o->ts, r) + "\n");
            if (!o->plot.empty()) {
                treesize_plot(treesize_totals(o->ts, r), o->plot);
                fmt::print("Written {}\n", o->plot);
            }
            return 0;
            }};
}

}  // namespace matches::cli
