// `loa`: the Lines of Action engine and its tools.
#include "common/cli_main.hpp"
#include "loa/cli/commands.hpp"

int main(int argc, char** argv) {
    CLI::App app{"loa: Lines of Action engine and tools (Computer Olympiad rules)"};
    app.require_subcommand(1);
    loa::cli::add_perft_command(app);
    loa::cli::add_show_command(app);
    loa::cli::add_analyze_command(app);
    loa::cli::add_bench_command(app);
    loa::cli::add_variants_command(app);
    loa::cli::add_eval_command(app);
    loa::cli::add_protocol_commands(app);
    loa::cli::add_play_command(app);
    return common::run_cli("loa", app, [&] {
        app.parse(argc, argv);
        return 0;
    });
}
