#include <iostream>
#include <memory>

#include "loa/cli/commands.hpp"
#include "loa/engine/frontends.hpp"

namespace loa::cli {

void add_protocol_commands(CLI::App& app) {
    app.add_subcommand("uci", "Run as an engine over the UCI-style protocol (stdin/stdout)")->callback([] {
        engine::Output out(std::cout);
        engine::run_uci(std::cin, out);
    });
    app.add_subcommand("gtp", "Run as an engine over the GTP-style protocol (stdin/stdout)")->callback([] {
        engine::Output out(std::cout);
        engine::run_gtp(std::cin, out);
    });
    auto settings = std::make_shared<engine::CodinGameSettings>();
    CLI::App* cg = app.add_subcommand("codingame", "Run as a bot under the CodinGame LOA referee protocol");
    cg->add_option("-r,--rules", settings->rules, "Rules (the referee's by default; see loa --help)")->capture_default_str();
    cg->add_option("--eval", settings->eval, "Evaluation, as the Eval option (default: the shipped network); e.g. hce");
    cg->add_option("--margin", settings->margin_percent, "Percent of each time limit kept back (the arena's servers are slower)")
        ->check(CLI::Range(0.0, 90.0))
        ->capture_default_str();
    cg->callback([settings] {
        if (const int status = engine::run_codingame(std::cin, std::cout, std::cerr, *settings)) std::exit(status);
    });
}

}  // namespace loa::cli
