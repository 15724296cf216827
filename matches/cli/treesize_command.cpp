#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "common/cli_checks.hpp"
#include "common/error.hpp"
#include "common/file_lock.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "loa/search_game.hpp"
#include "matches/cli/commands.hpp"
#include "matches/cli/interrupt.hpp"
#include "matches/cli/slurm_options.hpp"
#include "matches/own_files.hpp"
#include "matches/slurm_driver.hpp"
#include "matches/treesize.hpp"

namespace matches::cli {

struct TreeSizeOptions {
    TreeSizeSettings ts;
    std::vector<std::string> variants;
    std::string study, positions = "data/treesize-positions.txt", depths = "1..5", csv, json, plot, baseline, from_json;
    int limit = 0;
    std::string shard = "1/1", runs;
    SlurmOptions slurm;
    std::vector<std::string> args;  // the command line as given
};

namespace {

// Options of treesize that a task does not take from the driver's command line (with their
// arity), beside those no task of any command takes: the outputs, and the task's runs file.
const std::map<std::string, int> TreeSizeDriverOnlyOptions = {{"--json", 1}, {"--csv", 1}, {"--plot", 1}, {"--runs", 1}};

// The positions split over a Slurm job array (matches/slurm_driver.hpp): each task writes the
// raw runs of its shard, and the driver merges them into the result a local run gives (none
// after an interrupt: the tasks go on).
std::optional<TreeSizeResult> run_on_slurm(const TreeSizeOptions& o) {
    if (parse_shard(o.shard).second > 1) throw common::InputError("treesize: --slurm splits the positions itself: leave out --shard");
    install_interrupt_handlers();
    SlurmDriver driver(o.slurm, {"loa-treesize", "json.state", (o.json.empty() ? "treesize" : o.json) + ".slurm", 0});
    SlurmRun& run = driver.start(o.args, TreeSizeDriverOnlyOptions, [&](int task) {
        return std::vector<std::string>{"--shard", fmt::format("{}/{}", task, driver.tasks()), "--runs", driver.task_file(task, "json")};
    });
    fmt::print("treesize: {} Slurm tasks, their files in {}\n", driver.tasks(), driver.dir());
    std::fflush(stdout);
    int done = 0;
    const auto on_done = [&](int task) {
        fmt::print("treesize: task {} done ({} of {})\n", task, ++done, driver.tasks());
        std::fflush(stdout);
    };
    const auto tasks_so_far = [&] { return fmt::format("with {} of {} tasks done", done, driver.tasks()); };
    if (!driver.follow([](int, const std::string&) {}, on_done, interrupt_requested, tasks_so_far, "merge their runs"))
        return std::nullopt;
    TreeSizeResult r;
    std::vector<bool> filled;
    for (int t = 1; t <= driver.tasks(); ++t) merge_treesize_runs(o.ts, run.result_file(t), r, filled);
    if (std::find(filled.begin(), filled.end(), false) != filled.end())
        throw common::InputError("treesize: the tasks' runs do not cover every variant and position");
    run.clean_up();
    return r;
}

}  // namespace

Command add_treesize_command(CLI::App& app, const std::vector<std::string>& args) {
    auto o = std::make_shared<TreeSizeOptions>();
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
    add_slurm_options(*treesize, o->slurm, {"Split the positions over a Slurm job array of N tasks and merge their runs", "<json>.slurm", "Searches"});
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
            const std::optional<TreeSizeResult> on_slurm = o->slurm.enabled() ? run_on_slurm(*o) : std::nullopt;
            if (o->slurm.enabled() && !on_slurm) return 130;
            const TreeSizeResult r = on_slurm ? *on_slurm : run_treesize(o->ts, true);
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
