// `loa codingame`: the CodinGame arena's protocol (codingame_protocol.hpp) on the engine's
// session, with every option the engine has.
#include <iostream>

#include <fmt/format.h>

#include "loa/engine/frontends.hpp"
#include "loa/error.hpp"

namespace loa::engine {

int run_codingame(std::istream& in, std::ostream& out, std::ostream& log, const CodinGameSettings& settings) {
    Session session;
    auto ready = [&](Colour) {
        session.set_option("Rules", settings.rules);
        if (!settings.eval.empty()) session.set_option("Eval", settings.eval);
        session.set_option("MoveOverhead", fmt::format("{:g}", settings.overhead_ms));
        session.cap_nodes(settings.node_cap);
        session.prepare();  // before the first turn's clock runs
    };
    auto think = [&](const CodinGameTurn& turn) {
        session.set_game(Game(turn.position, session.rules(), turn.plies_before));
        search::ClockLimits clock;
        clock.move_time_ms = turn.move_time_ms;
        return session.think(clock).best_move;
    };
    return play_codingame(in, out, log, settings, ready, think);
}

}  // namespace loa::engine
