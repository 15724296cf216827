// Subcommands of loa-match, one file each. A command adds its options to the CLI11 app and
// returns what runs it once the command line is parsed; main() runs the one given.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace matches::cli {

struct Command {
    CLI::App* app = nullptr;  // the subcommand (nullptr: the root command)
    std::function<int()> run;
};

// What `loa-match` alone prints: what it does, and two commands to start from.
std::string first_steps();

// The root command: a match or tournament. `args` is the command line as given (a run on
// Slurm passes it on to its tasks).
Command add_match_command(CLI::App& app, const std::vector<std::string>& args);
Command add_treesize_command(CLI::App& app, const std::vector<std::string>& args);
Command add_positions_command(CLI::App& app);
Command add_openings_command(CLI::App& app);
Command add_tune_command(CLI::App& app);
Command add_learn_rps_command(CLI::App& app);
Command add_merge_command(CLI::App& app);
Command add_margins_command(CLI::App& app);
Command add_datagen_command(CLI::App& app, const std::vector<std::string>& args);
Command add_spsa_command(CLI::App& app);

// "i/N" (1 <= i <= N) as a 0-based index and the count; throws InputError.
std::pair<int, int> parse_shard(const std::string& text);
// "N" or "N1..N2" within [low, high]; throws InputError naming `what` (e.g. "treesize: --depth").
std::pair<int, int> parse_range(const std::string& text, int low, int high, const std::string& what);

}  // namespace matches::cli
