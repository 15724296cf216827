#include <iostream>

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
    app.add_subcommand("codingame", "Run as a bot under the CodinGame LOA referee protocol")->callback([] {
        engine::Output out(std::cout);
        if (const int status = engine::run_codingame(std::cin, out, std::cerr)) std::exit(status);
    });
}

}  // namespace loa::cli
