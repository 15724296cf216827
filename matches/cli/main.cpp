// loa-match: self-play matches and tournaments between search variants, with Elo, SPRT,
// openings, game records and a JSON result; tree-size experiments, openings, tuning, merging.
#include <csignal>

#include <fmt/format.h>

#include "common/cli_main.hpp"
#include "loa/nnue/kernels.hpp"
#include "matches/cli/commands.hpp"
#include "matches/cli/fastchess_args.hpp"

int main(int argc, char** argv) {
    // A file-size limit reached is a failed write the program reports (and resumes from), not
    // a kill: the runner checks every write of its files.
    std::signal(SIGXFSZ, SIG_IGN);
    CLI::App app{"loa-match: matches between LOA search variants, with Elo, SPRT and game records.\n"
                 "Without --engine it plays the default match: relative vs absolute history heuristic.",
                 "loa-match"};
    std::vector<std::string> args(argv, argv + argc);
    if (args.size() == 1) {  // nothing asked: how to ask (the main job is scripts/main.sh)
        fmt::print("{}", matches::cli::first_steps());
        return 0;
    }
    return common::run_cli("loa-match", app, [&]() -> int {
        (void)loa::nnue::active_kernels();  // a bad LOA_NNUE_KERNEL is refused here, not mid-game
        // A fastchess / cutechess-cli command line is parsed as the loa-match one it means.
        if (matches::cli::uses_fastchess_options(args)) args = matches::cli::translate_fastchess_options(args);
        const matches::cli::Command match = matches::cli::add_match_command(app, args);
        const matches::cli::Command subcommands[] = {
            matches::cli::add_treesize_command(app, args), matches::cli::add_positions_command(app),
            matches::cli::add_openings_command(app), matches::cli::add_tune_command(app),
            matches::cli::add_learn_rps_command(app), matches::cli::add_merge_command(app),
            matches::cli::add_margins_command(app), matches::cli::add_datagen_command(app, args),
            matches::cli::add_spsa_command(app)};
        common::check_subcommand(app, args);
        std::vector<std::string> reversed(args.rbegin(), args.rend() - 1);  // CLI11 takes them last first, without the program
        app.parse(reversed);
        for (const matches::cli::Command& c : subcommands)
            if (c.app->parsed()) return c.run();
        return match.run();
    });
}
