// loa-match: self-play matches and tournaments between search variants, with Elo, SPRT,
// openings, game records and a JSON result; tree-size experiments, openings, tuning, merging.
#include <csignal>

#include "common/cli_main.hpp"
#include "matches/cli/commands.hpp"

int main(int argc, char** argv) {
    // A file-size limit reached is a failed write the program reports (and resumes from), not
    // a kill: the runner checks every write of its files.
    std::signal(SIGXFSZ, SIG_IGN);
    CLI::App app{"loa-match: matches between LOA search variants, with Elo, SPRT and game records.\n"
                 "Without --engine it plays the default match: relative vs absolute history heuristic."};
    const std::vector<std::string> args(argv, argv + argc);
    const matches::cli::Command match = matches::cli::add_match_command(app, args);
    const matches::cli::Command subcommands[] = {
        matches::cli::add_treesize_command(app, args), matches::cli::add_positions_command(app),
        matches::cli::add_openings_command(app), matches::cli::add_tune_command(app),
        matches::cli::add_learn_rps_command(app), matches::cli::add_merge_command(app),
        matches::cli::add_margins_command(app)};
    return common::run_cli("loa-match", app, [&]() -> int {
        app.parse(argc, argv);
        for (const matches::cli::Command& c : subcommands)
            if (c.app->parsed()) return c.run();
        return match.run();
    });
}
