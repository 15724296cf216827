#include <string>

#include <fmt/format.h>

#include "loa/cli/commands.hpp"
#include "loa/display.hpp"
#include "loa/error.hpp"
#include "loa/game.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"

namespace loa::cli {

void add_show_command(CLI::App& app) {
    struct Options {
        std::string position = "startpos";
        std::string moves;
        std::string rules = "olympiad";
    };
    auto options = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("show", "Show a position: diagram, text, legal moves, result");
    cmd->add_option("-p,--position", options->position, "Position text, or startpos / eggs")->capture_default_str();
    cmd->add_option("-m,--moves", options->moves, "Moves to play first, e.g. \"b1-d3 a2c2\"");
    cmd->add_option("-r,--rules", options->rules,
                    "Rules: a named set (olympiad, codingame, loabot, openspiel) and/or key=value list (simultaneous=draw|mover, nomove=pass|lose|draw, "
                    "repetition=on|off, plylimit=N)")
        ->capture_default_str();
    cmd->callback([options] {
        Game game(position_from_argument(options->position), parse_rules(options->rules));
        int ply = 0;
        for (const std::string_view text : split_move_list(options->moves)) {
            ++ply;
            try {
                game.play(text);
            } catch (const InputError& e) {
                throw InputError(fmt::format("move {} ('{}'): {}", ply, text, e.what()));
            }
        }
        const Position& pos = game.position();
        fmt::print("{}", diagram(pos));
        fmt::print("position {}\n", pos.to_text());
        fmt::print("key {:016x}\n", pos.key());
        std::string list;
        const MoveList moves = legal_moves(pos);
        for (const Move m : moves) list += (list.empty() ? "" : " ") + move_to_text(m);
        fmt::print("moves {} {}\n", moves.size(), list);
        fmt::print("result {}\n", describe(game.result()));
    });
}

}  // namespace loa::cli
