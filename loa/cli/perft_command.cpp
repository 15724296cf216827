#include <chrono>
#include <string>

#include <fmt/format.h>

#include "loa/cli/commands.hpp"
#include "loa/notation.hpp"
#include "loa/perft.hpp"
#include "loa/position_text.hpp"

namespace loa::cli {

void add_perft_command(CLI::App& app) {
    struct Options {
        int depth = 4;
        std::string position = "startpos";
        bool divide = false;
    };
    auto options = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("perft", "Count legal move sequences (move generator check)");
    cmd->add_option("-d,--depth", options->depth, "Maximum depth; prints one line per depth 1..D")
        ->required()
        ->check(CLI::Range(1, 12));
    cmd->add_option("-p,--position", options->position, "Position text, or startpos / eggs")
        ->capture_default_str();
    cmd->add_flag("--divide", options->divide, "Also list the count under each root move at depth D");
    cmd->callback([options] {
        Position pos = position_from_argument(options->position);
        for (int d = 1; d <= options->depth; ++d) {
            const auto start = std::chrono::steady_clock::now();
            const std::uint64_t count = perft(pos, d);
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            fmt::print("perft {} {} time_ms {:.0f} nps {:.0f}\n", d, count, seconds * 1000,
                       seconds > 0 ? static_cast<double>(count) / seconds : 0.0);
            std::fflush(stdout);
        }
        if (options->divide) {
            std::uint64_t total = 0;
            for (const auto& [move, count] : perft_divide(pos, options->depth)) {
                fmt::print("{} {}\n", move_to_text(move), count);
                total += count;
            }
            fmt::print("moves {} total {}\n", legal_moves(pos).size(), total);
        }
    });
}

}  // namespace loa::cli
