#include <algorithm>
#include <fstream>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/text.hpp"
#include "loa/search_game.hpp"
#include "matches/cli/commands.hpp"
#include "matches/treesize.hpp"

namespace matches::cli {

Command add_treesize_command(CLI::App& app) {
    struct Options {
        TreeSizeSettings ts;
        std::vector<std::string> variants;
        std::string study, positions = "data/treesize-positions.txt", depths = "1..5", csv, json, plot, baseline, from_json;
        int limit = 0, slurm_tasks = 0;
    };
    auto o = std::make_shared<Options>();
    CLI::App* treesize = app.add_subcommand("treesize", "Tree-size experiment: nodes per depth of search variants");
    treesize->add_option("--variant", o->variants, "A variant: [name=X,]<search keys> (repeat)");
    treesize->add_option("--study", o->study, "Add a study's variants: history (TT on and off), history-tt, history-nott or combinations");
    treesize->add_option("--positions", o->positions, "Positions file (one position string a line)")->capture_default_str();
    treesize->add_option("--depth", o->depths, "Depth or range D1..D2")->capture_default_str();
    treesize->add_option("--baseline", o->baseline, "Variant the ratios refer to (default: the first)");
    treesize->add_option("--eval", o->ts.eval, "Evaluation: full, concentration, simple, material or FILE.json")->capture_default_str();
    treesize->add_option("--limit", o->limit, "Use only the first N positions")->check(CLI::PositiveNumber);
    treesize->add_option("-j,--concurrency", o->ts.concurrency, "Searches at once")->check(CLI::Range(1, 1024));
    treesize->add_option("--seed", o->ts.seed, "Seed of the bootstrap")->capture_default_str();
    treesize->add_option("--csv", o->csv, "Per variant, position and depth: nodes, quiescence nodes, time, TT hits, cutoff rate, move, score");
    treesize->add_option("--json", o->json, "The tables as JSON");
    treesize->add_option("--plot", o->plot, "Nodes and ratio to the baseline against depth (PNG, gnuplot)");
    treesize->add_option("--from-json", o->from_json, "Only redraw --plot from the --json of an earlier run (no search)")
        ->check(CLI::ExistingFile);
    treesize->add_option("--slurm", o->slurm_tasks, "(not yet) split the positions over a Slurm job array");
    return {treesize, [o]() -> int {
            if (o->slurm_tasks > 0)
                throw common::InputError("treesize --slurm is not supported yet: run shards of the positions by hand (--limit) or locally");
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
            const auto dots = o->depths.find("..");
            const auto lo = common::parse_int(o->depths.substr(0, dots));
            const auto hi = dots == std::string::npos ? lo : common::parse_int(o->depths.substr(dots + 2));
            if (!lo || !hi || *lo < 1 || *hi < *lo || *hi > 30)
                throw common::InputError(fmt::format("treesize: bad depth '{}' (D or D1..D2, at most 30)", o->depths));
            o->ts.min_depth = *lo;
            o->ts.max_depth = *hi;
            o->ts.positions = load_positions(o->positions);
            if (o->limit > 0 && static_cast<std::size_t>(o->limit) < o->ts.positions.size()) o->ts.positions.resize(static_cast<std::size_t>(o->limit));
            if (!o->baseline.empty()) {
                const auto it = std::find_if(o->ts.variants.begin(), o->ts.variants.end(), [&](const TreeVariant& v) { return v.name == o->baseline; });
                if (it == o->ts.variants.end()) throw common::InputError(fmt::format("treesize: no variant named '{}'", o->baseline));
                o->ts.baseline = static_cast<int>(it - o->ts.variants.begin());
            }
            (void)loa::SearchGame::from_spec(loa::RuleSet{}, o->ts.eval);  // a bad eval fails now
            fmt::print("treesize: {} variants, {} positions, depth {}..{}, eval {}\n", o->ts.variants.size(), o->ts.positions.size(),
                       o->ts.min_depth, o->ts.max_depth, o->ts.eval);
            const TreeSizeResult r = run_treesize(o->ts, true);
            fmt::print("{}", treesize_table(o->ts, r));
            auto write = [](const std::string& path, const std::string& text) {
                std::ofstream out(path);
                if (!out) throw common::InputError(fmt::format("cannot write '{}'", path));
                out << text;
                fmt::print("Written {}\n", path);
            };
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
