#include <iostream>
#include <string>

#include <fmt/format.h>

#include "common/text.hpp"
#include "loa/cli/commands.hpp"
#include "loa/display.hpp"
#include "loa/engine/session.hpp"
#include "loa/error.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/search_output.hpp"

namespace loa::cli {

void add_play_command(CLI::App& app) {
    struct Options {
        std::string engine_side = "w";
        double movetime = 1000;
        std::string variant = "full";
        std::string position = "startpos";
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("play", "Play against the engine in the terminal");
    cmd->add_option("-e,--engine-side", o->engine_side, "The engine's colour: b or w")
        ->check(CLI::IsMember({"b", "w"}))
        ->capture_default_str();
    cmd->add_option("-t,--movetime", o->movetime, "Engine thinking time per move, ms")->capture_default_str();
    cmd->add_option("-v,--variant", o->variant, "Engine search variant")->capture_default_str();
    cmd->add_option("-p,--position", o->position, "Start position")->capture_default_str();
    cmd->callback([o] {
        engine::Session session;
        session.set_option("Variant", o->variant);
        session.new_game(position_from_argument(o->position));
        const Colour engine_colour = o->engine_side == "b" ? Colour::Black : Colour::White;
        fmt::print("Moves: b1-d3, c1xa3, b1d3 or pass; 'undo' takes back your last move, 'quit' ends.\n");
        for (;;) {
            const Game& game = session.game();
            fmt::print("\n{}", diagram(game.position()));
            if (game.over()) {
                fmt::print("Game over: {}\n", describe(game.result()));
                return;
            }
            if (game.position().side_to_move() == engine_colour) {
                search::ClockLimits clock;
                clock.move_time_ms = o->movetime;
                const auto r = session.think(clock);
                Game next = game;
                next.play(r.best_move);
                session.set_game(std::move(next));
                fmt::print("Engine plays {} (score {}, depth {})\n", move_to_text(r.best_move),
                           search::format_score(r.score), r.depth);
                continue;
            }
            fmt::print("Your move ({}): ", colour_name(game.position().side_to_move()));
            std::fflush(stdout);
            std::string line;
            if (!std::getline(std::cin, line)) return;
            const std::string_view text = common::trim(line);
            if (text == "quit") return;
            try {
                Game next = game;
                if (text == "undo") {
                    // Back to the previous position where it was our turn: the engine's reply
                    // and our move.
                    next.undo();
                    while (next.ply() > 0 && next.position().side_to_move() == engine_colour) next.undo();
                } else {
                    next.play(text);
                }
                session.set_game(std::move(next));
            } catch (const InputError& e) {
                fmt::print("{}\n", e.what());
            }
        }
    });
}

}  // namespace loa::cli
