
#include <fmt/format.h>

#include "common/cli_checks.hpp"
#include "common/error.hpp"
#include "common/files.hpp"
#include "matches/cli/commands.hpp"
#include "matches/margins.hpp"
#include "matches/own_files.hpp"
#include "matches/treesize.hpp"

namespace matches::cli {

Command add_margins_command(CLI::App& app) {
    struct Options {
        MarginSettings settings;
        std::vector<std::string> positions{"data/treesize/opening.txt", "data/treesize/middle.txt", "data/treesize/endgame.txt"};
        std::string json;
        int limit = 0;
    };
    auto o = std::make_shared<Options>();
    CLI::App* margins = app.add_subcommand(
        "margins", "Calibrate the frontier margins: how far one quiet move lifts a node above its evaluation, by pieces on the board");
    margins->add_option("--positions", o->positions, "Positions files (one position string a line; repeat)")->capture_default_str();
    margins->add_option("--depth", o->settings.max_depth, "Deepest frontier depth: 1 futility, 2 extended futility, 3 razoring")
        ->check(CLI::Range(1, 3))
        ->capture_default_str();
    margins->add_option("--variant", o->settings.variant, "Search keys of the searches that value the quiet moves")->capture_default_str();
    margins->add_option("--eval", o->settings.eval, "Evaluation: full (= hce), nnue (the shipped net), hand, concentration, simple, material, FILE.json or FILE.nnue")
        ->capture_default_str();
    margins->add_option("--coverage", o->settings.coverage, "Share of every band's nodes the suggested margins cover")
        ->check(CLI::Range(0.5, 1.0))
        ->capture_default_str();
    margins->add_option("-j,--concurrency", o->settings.concurrency, "Positions probed at once")->check(CLI::Range(1, 1024))->capture_default_str();
    margins->add_option("--limit", o->limit, "Use only the first N positions of each file")->check(common::positive_number());
    margins->add_option("--json", o->json, "The tables and the suggested margins as JSON");
    return {margins, [o]() -> int {
                if (!o->json.empty()) common::check_replaceable(o->json, own::margins_json());
                for (const std::string& path : o->positions) {
                    std::vector<loa::Position> file = load_positions(path);
                    if (o->limit > 0 && static_cast<std::size_t>(o->limit) < file.size()) file.resize(static_cast<std::size_t>(o->limit));
                    for (loa::Position& p : file) o->settings.positions.push_back(std::move(p));
                }
                fmt::print("margins: {} positions, depth 1..{}, -j {}\n", o->settings.positions.size(), o->settings.max_depth,
                           o->settings.concurrency);
                const MarginStudy study = run_margin_study(o->settings, true);
                fmt::print("{}", margin_table(o->settings, study));
                if (!o->json.empty()) {
                    common::replace_file(o->json, margin_json(o->settings, study), own::margins_json());
                    fmt::print("Written {}\n", o->json);
                }
                return 0;
            }};
}

}  // namespace matches::cli
