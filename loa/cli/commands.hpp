// Subcommands of the `loa` binary. Each adds itself to the CLI11 app; the work runs in the
// callback, and input errors propagate as InputError to main, which prints them.
#pragma once

#include <CLI/CLI.hpp>

namespace loa::cli {

void add_perft_command(CLI::App& app);
void add_show_command(CLI::App& app);
void add_analyze_command(CLI::App& app);
void add_analyze_game_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_variants_command(CLI::App& app);
void add_eval_command(CLI::App& app);
void add_protocol_commands(CLI::App& app);
void add_play_command(CLI::App& app);
void add_serve_command(CLI::App& app);
void add_solve_command(CLI::App& app);

}  // namespace loa::cli
