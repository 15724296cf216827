// `loa`: the Lines of Action engine and its tools.
#include "common/cli_main.hpp"
#include "loa/cli/commands.hpp"
#include "loa/nnue/kernels.hpp"
#include "loa/rules.hpp"

#include <fmt/format.h>

int main(int argc, char** argv) {
    std::string footer = "Rule sets (--rules NAME, or NAME,key=value,... to override keys):";
    for (const loa::NamedRuleSet& n : loa::named_rule_sets())
        footer += fmt::format("\n  {:<10} {} ({})", n.name, n.description, loa::to_string(n.rules));
    CLI::App app{"loa: Lines of Action engine and tools (Computer Olympiad rules by default)"};
    app.footer(footer);
    app.require_subcommand(1);
    loa::cli::add_perft_command(app);
    loa::cli::add_show_command(app);
    loa::cli::add_analyze_command(app);
    loa::cli::add_analyze_game_command(app);
    loa::cli::add_bench_command(app);
    loa::cli::add_variants_command(app);
    loa::cli::add_eval_command(app);
    loa::cli::add_protocol_commands(app);
    loa::cli::add_play_command(app);
    loa::cli::add_serve_command(app);
    loa::cli::add_solve_command(app);
    return common::run_cli("loa", app, [&] {
        (void)loa::nnue::active_kernels();  // a bad LOA_NNUE_KERNEL is refused here, not mid-search
        common::check_subcommand(app, std::vector<std::string>(argv, argv + argc));
        app.parse(argc, argv);
        return 0;
    });
}
