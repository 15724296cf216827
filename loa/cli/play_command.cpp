#include <chrono>
#include <cmath>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/cli_checks.hpp"
#include "common/text.hpp"
#include "loa/cli/commands.hpp"
#include "loa/display.hpp"
#include "loa/engine/session.hpp"
#include "loa/error.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "loa/search_output.hpp"

namespace loa::cli {
namespace {

// "BASE+INC" in seconds, e.g. "1800+0" (30 minutes sudden death) or "300+2".
std::pair<double, double> parse_clock(const std::string& text) {
    const auto plus = text.find('+');
    const auto base = common::parse_double(text.substr(0, plus));
    const auto inc = plus == std::string::npos ? std::optional<double>(0.0) : common::parse_double(text.substr(plus + 1));
    if (!base || !inc || *base <= 0 || *inc < 0)
        throw InputError(fmt::format("--clock: expected BASE+INC in seconds (e.g. 1800+0), not '{}'", text));
    return {*base * 1000.0, *inc * 1000.0};
}

std::string format_clock(double ms) {
    const long tenths = std::lround(std::max(0.0, ms) / 100.0);
    return fmt::format("{}:{:02}.{}", tenths / 600, tenths / 10 % 60, tenths % 10);
}

}  // namespace

void add_play_command(CLI::App& app) {
    struct Options {
        std::string engine_side = "w";
        double movetime = 1000;
        std::string variant = "full";
        std::string eval = std::string(DefaultEval);
        std::string position = "startpos";
        std::string clock;
        std::string rules = "olympiad";
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("play", "Play against the engine in the terminal");
    cmd->add_option("-e,--engine-side", o->engine_side, "The engine's colour: b or w")
        ->check(CLI::IsMember({"b", "w"}))
        ->capture_default_str();
    cmd->add_option("-t,--movetime", o->movetime, "Engine thinking time per move, ms (or 1.5s, 250ms)")
        ->transform(common::milliseconds())
        ->capture_default_str();
    cmd->add_option("-v,--variant", o->variant, "Engine search variant")->capture_default_str();
    cmd->add_option("--eval", o->eval, "Evaluation: nnue (the shipped network), hce (the hand-written one), a .nnue or weights file")
        ->capture_default_str();
    cmd->add_option("-c,--clock", o->clock,
                    "Play on a clock, BASE+INC seconds for each side (e.g. 1800+0): both clocks are shown, the "
                    "engine manages its time (timeman=tournament, the default; timeman=classic in --variant for the old plan), a flag fall loses");
    cmd->add_option("-p,--position", o->position, "Start position")->capture_default_str();
    cmd->add_option("-r,--rules", o->rules, "Rules: a named set (olympiad, codingame, loabot, openspiel) and/or key=value list")
        ->capture_default_str();
    cmd->callback([o] {
        engine::Session session;
        session.set_option("Variant", o->variant);
        session.set_option("Eval", o->eval);
        session.set_option("Rules", o->rules);
        session.new_game(position_from_argument(o->position));
        const Colour engine_colour = o->engine_side == "b" ? Colour::Black : Colour::White;
        std::optional<std::pair<double, double>> clock_setting;
        if (!o->clock.empty()) clock_setting = parse_clock(o->clock);
        double left[2] = {0, 0};  // by colour index
        if (clock_setting) left[0] = left[1] = clock_setting->first;
        auto elapsed_since = [](std::chrono::steady_clock::time_point t) {
            return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
        };
        // Charges the side that just moved, adds its increment; true when its flag fell.
        auto charge = [&](Colour side, double used_ms) {
            if (!clock_setting) return false;
            left[index(side)] -= used_ms;
            if (left[index(side)] < 0) return true;
            left[index(side)] += clock_setting->second;
            return false;
        };
        constexpr const char* Help =
            "Moves: b1-d3, c1xa3, b1d3 or pass. Commands: 'moves' lists your legal moves, 'undo' takes back your\n"
            "last move (and the engine's reply), 'help' prints this, 'quit' ends.\n";
        fmt::print("{}", Help);
        // A turn's clock runs from the end of the previous move, across refused input.
        auto turn_start = std::chrono::steady_clock::now();
        for (;;) {
            const Game& game = session.game();
            fmt::print("\n{}", diagram(game.position()));
            if (clock_setting)
                fmt::print("Clocks: Black {}  White {}\n", format_clock(left[index(Colour::Black)]),
                           format_clock(left[index(Colour::White)]));
            if (game.over()) {
                fmt::print("Game over: {}\n", describe(game.result()));
                return;
            }
            if (game.position().side_to_move() == engine_colour) {
                search::ClockLimits clock;
                if (clock_setting) {
                    clock.time_left_ms = left[index(engine_colour)];
                    clock.increment_ms = clock_setting->second;
                } else {
                    clock.move_time_ms = o->movetime;
                }
                const auto r = session.think(clock);
                if (charge(engine_colour, elapsed_since(turn_start))) {
                    fmt::print("The engine's flag fell: {} wins on time\n", colour_name(~engine_colour));
                    return;
                }
                turn_start = std::chrono::steady_clock::now();
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
            if (text == "help") {
                fmt::print("{}", Help);
                continue;
            }
            if (text == "moves") {
                std::vector<std::string> moves;
                for (const Move m : legal_moves(game.position())) moves.push_back(move_to_text(m));
                fmt::print("{} legal move{}: {}\n", moves.size(), moves.size() == 1 ? "" : "s", fmt::join(moves, " "));
                continue;
            }
            try {
                Game next = game;
                if (text == "undo") {
                    // Back to before the user's last move, taking the engine's reply with it; when
                    // the engine made the only moves, there is nothing of the user's to take back
                    // (undoing the engine's first move would only let it play it again).
                    bool undid_own_move = false;
                    while (!undid_own_move && next.ply() > 0) {
                        next.undo();
                        undid_own_move = next.position().side_to_move() != engine_colour;
                    }
                    if (!undid_own_move) {
                        fmt::print("Nothing to undo: you have not moved yet\n");
                        continue;
                    }
                } else {
                    next.play(text);
                    if (charge(game.position().side_to_move(), elapsed_since(turn_start))) {
                        fmt::print("Your flag fell: {} wins on time\n", colour_name(engine_colour));
                        return;
                    }
                    turn_start = std::chrono::steady_clock::now();
                }
                session.set_game(std::move(next));
            } catch (const InputError& e) {
                fmt::print("{}\n", e.what());
            }
        }
    });
}

}  // namespace loa::cli
