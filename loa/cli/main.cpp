// `loa`: the Lines of Action engine and its tools.
#include <cstdio>
#include <exception>

#include <fmt/format.h>

#include "loa/cli/commands.hpp"
#include "loa/error.hpp"

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
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const loa::InputError& e) {
        fmt::print(stderr, "loa: error: {}\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "loa: internal error: {}\n", e.what());
        return 3;
    }
    return 0;
}
