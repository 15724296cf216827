// GTP-style front end (the Go Text Protocol framing used by board-game programs at the
// Computer Olympiads): "= result" or "? error", an optional numeric id echoed back, and a
// blank line after every response.
#include <algorithm>
#include <cctype>
#include <iostream>
#include <new>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "common/search/limits.hpp"
#include "common/bounded_io.hpp"
#include "common/text.hpp"
#include "loa/display.hpp"
#include "loa/engine/frontends.hpp"
#include "loa/engine/gtp_clock.hpp"
#include "loa/error.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"

namespace loa::engine {
namespace {

// An error that quotes the input is cut to this: a 10 MB bad token is not echoed back.
constexpr std::size_t MaxErrorBytes = 400;
// The longest time a clock may hold (GTP has no stop to end a search planned on more).
constexpr double MaxClockSeconds = 86'400;

const std::vector<std::string> Commands = {
    "protocol_version", "name",       "version",       "known_command", "list_commands", "quit",
    "clear_board",      "loa_setup",  "play",          "genmove",       "undo",          "showboard",
    "final_score",      "game_result", "time_settings", "time_left",     "set_option",    "boardsize",
    "komi"};

Colour parse_colour(const std::string& text) {
    const std::string c = common::lowercase(text);
    if (c == "b" || c == "black") return Colour::Black;
    if (c == "w" || c == "white") return Colour::White;
    throw InputError(fmt::format("invalid colour '{}'", common::excerpt(text)));
}

// play and genmove name the side to move; anything else is a protocol error.
void require_turn(const Game& game, Colour c) {
    if (game.over()) throw InputError(fmt::format("the game is over ({})", describe(game.result())));
    if (c != game.position().side_to_move())
        throw InputError(fmt::format("it is {}'s turn", colour_name(game.position().side_to_move())));
}

}  // namespace

int run_gtp(std::istream& in, Output& out) {
    Session session;
    return run_gtp(in, out, session);
}

int run_gtp(std::istream& in, Output& out, Session& session) {
    session.prepare();
    GtpClocks clocks;

    const auto too_long = [&] { out.line(fmt::format("? a line of over {} bytes was ignored\n", common::MaxProtocolLine)); };
    for (std::string line; common::next_protocol_line(in, line, too_long);) {
        if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::istringstream words(line);
        std::vector<std::string> t;
        for (std::string w; words >> w;) t.push_back(w);
        if (t.empty()) continue;
        std::string id;
        if (std::all_of(t[0].begin(), t[0].end(), [](unsigned char c) { return std::isdigit(c); })) {
            id = t[0];
            t.erase(t.begin());
            if (t.empty()) {
                out.line(fmt::format("?{} missing command\n", id));
                continue;
            }
        }
        auto ok = [&](const std::string& result) { out.line(fmt::format("={}{}{}\n", id, result.empty() ? "" : " ", result)); };
        auto arg = [&](std::size_t k) -> const std::string& {
            if (t.size() <= k) throw InputError(fmt::format("{}: missing argument", t[0]));
            return t[k];
        };
        // An optional byo-yomi stone count at `k` (0 when absent); nullopt when malformed.
        auto stones_at = [&](std::size_t k) -> std::optional<int> {
            if (t.size() <= k) return 0;
            const auto n = common::parse_int(t[k]);
            return n && *n >= 0 && *n <= 1000 ? n : std::nullopt;
        };
        const std::string& cmd = t[0];
        try {
            if (cmd == "protocol_version") ok("2");
            else if (cmd == "name") ok("loa");
            else if (cmd == "version") ok("0.1");
            else if (cmd == "known_command") ok(std::find(Commands.begin(), Commands.end(), arg(1)) != Commands.end() ? "true" : "false");
            else if (cmd == "list_commands") {
                std::string list;
                for (const auto& c : Commands) {
                    if (!list.empty()) list += '\n';
                    list += c;
                }
                ok(list);
            } else if (cmd == "quit") {
                ok("");
                return 0;
            } else if (cmd == "boardsize") {
                // Generic controllers set the board up before a game: LOA's is 8x8, no other.
                if (arg(1) != "8") throw InputError("unacceptable size");
                ok("");
            } else if (cmd == "komi") {
                // Accepted for the same controllers; LOA has no komi, the value changes nothing.
                if (!common::parse_double(arg(1))) throw InputError("syntax error");
                ok("");
            } else if (cmd == "clear_board") {
                session.new_game();
                clocks.forget();
                ok("");
            } else if (cmd == "loa_setup") {
                std::string text;
                for (std::size_t k = 1; k < t.size(); ++k) common::append_word(text, t[k]);
                const Position start = position_from_argument(text);
                session.new_game(start);
                clocks.forget();
                ok("");
            } else if (cmd == "play") {
                require_turn(session.game(), parse_colour(arg(1)));
                Game next = session.game();
                next.play(arg(2));
                session.set_game(std::move(next));
                ok("");
            } else if (cmd == "genmove") {
                const search::Stopwatch thinking;  // from the command, as the controller counts
                const Colour c = parse_colour(arg(1));
                require_turn(session.game(), c);
                const int side = index(c);
                const search::ClockLimits clock = clocks.plan(side);
                const Result r = session.think(clock);
                Game next = session.game();
                next.play(r.best_move);
                session.set_game(std::move(next));
                clocks.moved(side, clock, thinking.elapsed_ms());
                ok(move_to_text(r.best_move));
            } else if (cmd == "undo") {
                Game next = session.game();
                next.undo();
                session.set_game(std::move(next));
                ok("");
            } else if (cmd == "showboard") {
                ok(fmt::format("\n{}position {}", diagram(session.game().position()), session.game().position().to_text()));
            } else if (cmd == "final_score" || cmd == "game_result") {
                const GameResult& r = session.game().result();
                // GTP's final_score is an error while the game goes on (game_result says "?").
                if (cmd == "final_score" && r.outcome == Outcome::Ongoing) throw InputError("cannot score: the game is not over");
                ok(r.outcome == Outcome::BlackWins   ? "B+"
                   : r.outcome == Outcome::WhiteWins ? "W+"
                   : r.outcome == Outcome::Draw      ? "0"
                                                     : "?");
            } else if (cmd == "time_settings") {
                // Seconds may carry decimals: controls under a second must not round to 0.
                // Two numbers: main time and increment; three: the standard's Canadian byo-yomi.
                const auto m = common::parse_double(arg(1)), second = common::parse_double(arg(2));
                const bool byo_yomi = t.size() == 4;
                const auto stones = stones_at(3);
                if (!m || !second || *m < 0 || *second < 0 || !stones || t.size() > 4)
                    throw InputError("time_settings: expected <main_s> <increment_s> or <main_s> <byo_yomi_s> <byo_yomi_stones>");
                // GTP has no stop: a genmove planned on a clock of 1e308 s would never answer.
                if (*m > MaxClockSeconds || *second > MaxClockSeconds)
                    throw InputError(fmt::format("time_settings: at most {:g} s (a day) for a time", MaxClockSeconds));
                if (byo_yomi) clocks.set_byo_yomi(1000.0 * *m, 1000.0 * *second, *stones);
                else clocks.set_control(1000.0 * *m, 1000.0 * *second);
                ok("");
            } else if (cmd == "time_left") {
                const Colour c = parse_colour(arg(1));
                const auto s = common::parse_double(arg(2));
                const auto stones = stones_at(3);
                if (!s || *s < 0 || !stones || t.size() > 4)
                    throw InputError("time_left: expected <colour> <seconds> [<stones>]");
                if (*s > MaxClockSeconds) throw InputError(fmt::format("time_left: at most {:g} s (a day)", MaxClockSeconds));
                clocks.set_time_left(index(c), 1000.0 * *s, *stones);
                ok("");
            } else if (cmd == "set_option") {
                std::string value;
                for (std::size_t k = 2; k < t.size(); ++k) common::append_word(value, t[k]);
                session.set_option(arg(1), value);
                if (common::lowercase(arg(1)) == "rules") clocks.forget();  // a new game
                try {
                    session.prepare();
                } catch (const InputError& e) {  // set (another option may complete it), but not yet searchable
                    throw InputError(fmt::format("{} is set, but the engine cannot search so: {}", arg(1), e.what()));
                }
                // What the operator asked for is allowed; what it claims is said.
                ok(session.memory_text());
            } else {
                throw InputError(fmt::format("unknown command '{}'", common::excerpt(cmd)));
            }
        } catch (const InputError& e) {
            out.line(fmt::format("?{} {}\n", id, common::excerpt(e.what(), MaxErrorBytes)));
        } catch (const std::bad_alloc&) {  // a table too large for the machine: the engine goes on
            out.line(fmt::format("?{} out of memory: {}\n", id, session.memory_text()));
        }
    }
    return 0;
}

}  // namespace loa::engine
