#include <chrono>
#include <iostream>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "matches/cli/commands.hpp"
#include "matches/openings.hpp"
#include "matches/own_files.hpp"

namespace matches::cli {

Command add_openings_command(CLI::App& app) {
    struct Options {
        OpeningGenerator g;
        std::string plies = "4..8", out, start = "standard", rules = "olympiad";
    };
    auto o = std::make_shared<Options>();
    o->g.count = 2000;
    o->g.balance_depth = 5;
    o->g.max_abs_score = 50;
    o->g.distinct_under_symmetry = true;
    CLI::App* openings = app.add_subcommand("openings", "Generate a file of balanced openings (random plies kept when a search scores them near 0)");
    openings->add_option("--count", o->g.count, "Openings to keep")->check(CLI::Range(1, 10000000))->capture_default_str();
    openings->add_option("--plies", o->plies, "Random plies: N or N1..N2 (drawn uniformly)")->capture_default_str();
    openings->add_option("--depth", o->g.balance_depth, "Depth of the balance search")->check(CLI::Range(1, 30))->capture_default_str();
    openings->add_option("--margin", o->g.max_abs_score, "Kept when |score| <= this (centi-units)")->check(CLI::Range(0, 100000))->capture_default_str();
    openings->add_option("--seed", o->g.seed, "Seed of the random plies")->capture_default_str();
    openings->add_option("--start", o->start, "Start position: standard or eggs")->check(CLI::IsMember({"standard", "eggs"}))->capture_default_str();
    openings->add_option("--rules", o->rules, "Rules (as for a match)")->capture_default_str();
    openings->add_option("--out", o->out, "Output file (default: standard output)");
    return {openings, [o] {
                if (!o->out.empty()) common::check_replaceable(o->out, own::openings_file());
                std::tie(o->g.plies, o->g.max_plies) = parse_range(o->plies, 0, 40, "openings: --plies");
                const loa::RuleSet rules = loa::parse_rules(o->rules);
                const auto started = std::chrono::steady_clock::now();
                o->g.on_progress = [&](int kept, int tried) {
                    if (kept % 100 != 0 && kept != o->g.count) return;
                    const std::chrono::duration<double> t = std::chrono::steady_clock::now() - started;
                    fmt::print(stderr, "openings: {} of {} kept, {} tried, {:.0f} s\n", kept, o->g.count, tried, t.count());
                };
                const auto made = generate_openings(o->g, o->start == "eggs" ? loa::Position::scrambled_eggs() : loa::Position::start(), rules);
                const std::vector<std::string> header = {
                    fmt::format("{} balanced LOA openings, one move list a line from the {} start position", made.size(), o->start),
                    fmt::format("made by: loa-match openings --count {} --plies {} --depth {} --margin {} --seed {} --start {} --rules {}",
                                o->g.count, o->plies, o->g.balance_depth, o->g.max_abs_score, o->g.seed, o->start, o->rules),
                    fmt::format("random plies drawn from {}, kept when a depth-{} search (preset full) scores the position within +-{}",
                                o->plies, o->g.balance_depth, o->g.max_abs_score),
                    "centi-units for the side to move; distinct positions, also under the mirror images of the board"};
                if (o->out.empty()) std::cout << openings_file_text(made, header);
                else common::replace_file(o->out, openings_file_text(made, header), own::openings_file());
                if (!o->out.empty()) fmt::print("Written {} openings to {}\n", made.size(), o->out);
                return 0;
            }};
}

}  // namespace matches::cli
