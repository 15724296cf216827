#include <fstream>
#include <iostream>

#include <fmt/format.h>

#include "matches/cli/commands.hpp"
#include "matches/treesize.hpp"

namespace matches::cli {

Command add_positions_command(CLI::App& app) {
    struct Options {
        std::string pgn, out;
        int per_game = 2, min_ply = 10, max_ply = 40;
        std::uint64_t seed = 1;
    };
    auto o = std::make_shared<Options>();
    CLI::App* positions = app.add_subcommand("positions", "Sample distinct middle-game positions from game records");
    positions->add_option("--pgn", o->pgn, "Game records written by --pgn")->required()->check(CLI::ExistingFile);
    positions->add_option("--per-game", o->per_game, "Positions taken from each game")->capture_default_str();
    positions->add_option("--min-ply", o->min_ply, "Earliest ply")->capture_default_str();
    positions->add_option("--max-ply", o->max_ply, "Latest ply")->capture_default_str();
    positions->add_option("--seed", o->seed, "Seed of the sampling")->capture_default_str();
    positions->add_option("--out", o->out, "Output file (default: standard output)");
    return {positions, [o] {
                const auto sample = sample_positions(o->pgn, o->per_game, o->min_ply, o->max_ply, o->seed);
                std::ofstream file;
                if (!o->out.empty()) file.open(o->out);
                std::ostream& out = o->out.empty() ? std::cout : file;
                for (const loa::Position& p : sample) out << p.to_text() << '\n';
                fmt::print(stderr, "{} positions\n", sample.size());
                return 0;
            }};
}

}  // namespace matches::cli
