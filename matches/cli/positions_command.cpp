#include <iostream>

#include <fmt/format.h>

#include "common/files.hpp"
#include "matches/cli/commands.hpp"
#include "matches/own_files.hpp"
#include "matches/treesize.hpp"

namespace matches::cli {

Command add_positions_command(CLI::App& app) {
    struct Options {
        std::string pgn, out;
        int per_game = 2, min_ply = 10, max_ply = 40;
        std::uint64_t seed = 1;
        std::string before_end;
    };
    auto o = std::make_shared<Options>();
    CLI::App* positions = app.add_subcommand("positions", "Sample distinct positions from game records (middle games, or endgames with --before-end)");
    positions->add_option("--pgn", o->pgn, "Game records written by --pgn")->required()->check(CLI::ExistingFile);
    positions->add_option("--per-game", o->per_game, "Positions taken from each game")->capture_default_str();
    positions->add_option("--min-ply", o->min_ply, "Earliest ply")->capture_default_str();
    positions->add_option("--max-ply", o->max_ply, "Latest ply")->capture_default_str();
    positions->add_option("--before-end", o->before_end,
                          "A..B: positions A to B plies before the end of games won by connection (endgames; "
                          "replaces --min-ply/--max-ply)");
    positions->add_option("--seed", o->seed, "Seed of the sampling")->capture_default_str();
    positions->add_option("--out", o->out, "Output file (default: standard output)");
    return {positions, [o] {
                if (!o->out.empty()) common::check_replaceable(o->out, own::positions_file());
                std::optional<std::pair<int, int>> before_end;
                if (!o->before_end.empty()) before_end = parse_range(o->before_end, 1, 1000, "--before-end");
                const auto sample = sample_positions(o->pgn, o->per_game, o->min_ply, o->max_ply, o->seed, before_end);
                std::string text;
                for (const loa::Position& p : sample) text += p.to_text() + '\n';
                if (o->out.empty()) std::cout << text;
                else common::replace_file(o->out, text, own::positions_file());
                fmt::print(stderr, "{} positions\n", sample.size());
                return 0;
            }};
}

}  // namespace matches::cli
