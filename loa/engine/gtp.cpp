// GTP-style front end (the Go Text Protocol framing used by board-game programs at the
// Computer Olympiads): "= result" or "? error", an optional numeric id echoed back, and a
// blank line after every response.
#include <algorithm>
#include <cctype>
#include <iostream>
#include <new>
#include <optional>
#include <sstream>
#include <string_view>
#include <vector>

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

// The longest time a clock may hold (GTP has no stop to end a search planned on more).
constexpr double MaxClockSeconds = 86'400;

using Tokens = std::vector<std::string>;

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

// The command's argument `k` (the command itself is t[0]).
const std::string& arg(const Tokens& t, std::size_t k) {
    if (t.size() <= k) throw InputError(fmt::format("{}: missing argument", t[0]));
    return t[k];
}

// An optional byo-yomi stone count at `k` (0 when absent); nullopt when malformed.
std::optional<int> stones_at(const Tokens& t, std::size_t k) {
    if (t.size() <= k) return 0;
    const auto n = common::parse_int(t[k]);
    return n && *n >= 0 && *n <= 1000 ? n : std::nullopt;
}

// One GTP session over `session`: one handler a command, each returning what follows "=" in
// its answer (or throwing for "?"), and the loop that reads commands and dispatches them by
// name.
class GtpEngine {
public:
    GtpEngine(Output& out, Session& session) : out_(out), session_(session) {}
    int loop(std::istream& in);

private:
    using Handler = std::string (GtpEngine::*)(const Tokens&);
    struct Command {
        std::string_view name;
        Handler handler;
    };
    // The commands, in the order list_commands gives them: known_command and list_commands
    // answer from this table, so they name exactly the commands there are.
    static const std::vector<Command> Commands;
    static const Command* find(std::string_view command);

    std::string protocol_version(const Tokens&) { return "2"; }
    std::string name(const Tokens&) { return "loa"; }
    std::string version(const Tokens&) { return "0.1"; }
    std::string known_command(const Tokens& t) { return find(arg(t, 1)) ? "true" : "false"; }
    std::string list_commands(const Tokens&);
    std::string quit(const Tokens&);
    std::string clear_board(const Tokens&);
    std::string loa_setup(const Tokens& t);
    std::string play(const Tokens& t);
    std::string genmove(const Tokens& t);
    std::string undo(const Tokens&);
    std::string showboard(const Tokens&);
    std::string final_score(const Tokens&);
    std::string game_result(const Tokens&);
    std::string time_settings(const Tokens& t);
    std::string time_left(const Tokens& t);
    std::string set_option(const Tokens& t);
    std::string boardsize(const Tokens& t);
    std::string komi(const Tokens& t);

    Output& out_;
    Session& session_;
    GtpClocks clocks_;
    bool quit_ = false;
};

const std::vector<GtpEngine::Command> GtpEngine::Commands = {
    {"protocol_version", &GtpEngine::protocol_version},
    {"name", &GtpEngine::name},
    {"version", &GtpEngine::version},
    {"known_command", &GtpEngine::known_command},
    {"list_commands", &GtpEngine::list_commands},
    {"quit", &GtpEngine::quit},
    {"clear_board", &GtpEngine::clear_board},
    {"loa_setup", &GtpEngine::loa_setup},
    {"play", &GtpEngine::play},
    {"genmove", &GtpEngine::genmove},
    {"undo", &GtpEngine::undo},
    {"showboard", &GtpEngine::showboard},
    {"final_score", &GtpEngine::final_score},
    {"game_result", &GtpEngine::game_result},
    {"time_settings", &GtpEngine::time_settings},
    {"time_left", &GtpEngine::time_left},
    {"set_option", &GtpEngine::set_option},
    {"boardsize", &GtpEngine::boardsize},
    {"komi", &GtpEngine::komi},
};

const GtpEngine::Command* GtpEngine::find(std::string_view command) {
    const auto found = std::find_if(Commands.begin(), Commands.end(), [&](const Command& c) { return c.name == command; });
    return found == Commands.end() ? nullptr : &*found;
}

int GtpEngine::loop(std::istream& in) {
    session_.prepare();
    const auto too_long = [&] { out_.line(fmt::format("? a line of over {} bytes was ignored\n", common::MaxProtocolLine)); };
    for (std::string line; common::next_protocol_line(in, line, too_long);) {
        if (const auto hash = line.find('#'); hash != std::string::npos) line.erase(hash);
        std::istringstream words(line);
        Tokens t;
        for (std::string w; words >> w;) t.push_back(w);
        if (t.empty()) continue;
        std::string id;
        if (std::all_of(t[0].begin(), t[0].end(), [](unsigned char c) { return std::isdigit(c); })) {
            id = t[0];
            t.erase(t.begin());
            if (t.empty()) {
                out_.line(fmt::format("?{} missing command\n", id));
                continue;
            }
        }
        try {
            const Command* command = find(t[0]);
            if (!command) throw InputError(fmt::format("unknown command '{}'", common::excerpt(t[0])));
            const std::string result = (this->*command->handler)(t);
            out_.line(fmt::format("={}{}{}\n", id, result.empty() ? "" : " ", result));
            if (quit_) return 0;
        } catch (const InputError& e) {
            out_.line(fmt::format("?{} {}\n", id, common::excerpt(e.what(), MaxErrorBytes)));
        } catch (const std::bad_alloc&) {  // a table too large for the machine: the engine goes on
            out_.line(fmt::format("?{} out of memory: {}\n", id, session_.memory_text()));
        }
    }
    return 0;
}

std::string GtpEngine::list_commands(const Tokens&) {
    std::string list;
    for (const Command& c : Commands) {
        if (!list.empty()) list += '\n';
        list += c.name;
    }
    return list;
}

std::string GtpEngine::quit(const Tokens&) {
    quit_ = true;
    return "";
}

std::string GtpEngine::boardsize(const Tokens& t) {
    // Generic controllers set the board up before a game: LOA's is 8x8, no other.
    if (arg(t, 1) != "8") throw InputError("unacceptable size");
    return "";
}

std::string GtpEngine::komi(const Tokens& t) {
    // Accepted for the same controllers; LOA has no komi, the value changes nothing.
    if (!common::parse_double(arg(t, 1))) throw InputError("syntax error");
    return "";
}

std::string GtpEngine::clear_board(const Tokens&) {
    session_.new_game();
    clocks_.forget();
    return "";
}

std::string GtpEngine::loa_setup(const Tokens& t) {
    std::string text;
    for (std::size_t k = 1; k < t.size(); ++k) common::append_word(text, t[k]);
    const Position start = position_from_argument(text);
    session_.new_game(start);
    clocks_.forget();
    return "";
}

std::string GtpEngine::play(const Tokens& t) {
    require_turn(session_.game(), parse_colour(arg(t, 1)));
    Game next = session_.game();
    next.play(arg(t, 2));
    session_.set_game(std::move(next));
    return "";
}

std::string GtpEngine::genmove(const Tokens& t) {
    const search::Stopwatch thinking;  // from the command, as the controller counts
    const Colour c = parse_colour(arg(t, 1));
    require_turn(session_.game(), c);
    const int side = index(c);
    const search::ClockLimits clock = clocks_.plan(side);
    const Result r = session_.think(clock);
    Game next = session_.game();
    next.play(r.best_move);
    session_.set_game(std::move(next));
    clocks_.moved(side, clock, thinking.elapsed_ms());
    return move_to_text(r.best_move);
}

std::string GtpEngine::undo(const Tokens&) {
    Game next = session_.game();
    next.undo();
    session_.set_game(std::move(next));
    return "";
}

std::string GtpEngine::showboard(const Tokens&) {
    return fmt::format("\n{}position {}", diagram(session_.game().position()), session_.game().position().to_text());
}

std::string GtpEngine::final_score(const Tokens& t) {
    // GTP's final_score is an error while the game goes on (game_result says "?").
    if (session_.game().result().outcome == Outcome::Ongoing) throw InputError("cannot score: the game is not over");
    return game_result(t);
}

std::string GtpEngine::game_result(const Tokens&) {
    const Outcome outcome = session_.game().result().outcome;
    return outcome == Outcome::BlackWins   ? "B+"
           : outcome == Outcome::WhiteWins ? "W+"
           : outcome == Outcome::Draw      ? "0"
                                           : "?";
}

std::string GtpEngine::time_settings(const Tokens& t) {
    // Seconds may carry decimals: controls under a second must not round to 0.
    // Two numbers: main time and increment; three: the standard's Canadian byo-yomi.
    const auto m = common::parse_double(arg(t, 1)), second = common::parse_double(arg(t, 2));
    const bool byo_yomi = t.size() == 4;
    const auto stones = stones_at(t, 3);
    if (!m || !second || *m < 0 || *second < 0 || !stones || t.size() > 4)
        throw InputError("time_settings: expected <main_s> <increment_s> or <main_s> <byo_yomi_s> <byo_yomi_stones>");
    // GTP has no stop: a genmove planned on a clock of 1e308 s would never answer.
    if (*m > MaxClockSeconds || *second > MaxClockSeconds)
        throw InputError(fmt::format("time_settings: at most {:g} s (a day) for a time", MaxClockSeconds));
    if (byo_yomi) clocks_.set_byo_yomi(1000.0 * *m, 1000.0 * *second, *stones);
    else clocks_.set_control(1000.0 * *m, 1000.0 * *second);
    return "";
}

std::string GtpEngine::time_left(const Tokens& t) {
    const Colour c = parse_colour(arg(t, 1));
    const auto s = common::parse_double(arg(t, 2));
    const auto stones = stones_at(t, 3);
    if (!s || *s < 0 || !stones || t.size() > 4) throw InputError("time_left: expected <colour> <seconds> [<stones>]");
    if (*s > MaxClockSeconds) throw InputError(fmt::format("time_left: at most {:g} s (a day)", MaxClockSeconds));
    clocks_.set_time_left(index(c), 1000.0 * *s, *stones);
    return "";
}

std::string GtpEngine::set_option(const Tokens& t) {
    std::string value;
    for (std::size_t k = 2; k < t.size(); ++k) common::append_word(value, t[k]);
    session_.set_option(arg(t, 1), value);
    if (common::lowercase(arg(t, 1)) == "rules") clocks_.forget();  // a new game
    try {
        session_.prepare();
    } catch (const InputError& e) {  // set (another option may complete it), but not yet searchable
        throw InputError(fmt::format("{} is set, but the engine cannot search so: {}", arg(t, 1), e.what()));
    }
    // What the operator asked for is allowed; what it claims is said.
    return session_.memory_text();
}

}  // namespace

int run_gtp(std::istream& in, Output& out) {
    Session session;
    return run_gtp(in, out, session);
}

int run_gtp(std::istream& in, Output& out, Session& session) {
    GtpEngine engine(out, session);
    return engine.loop(in);
}

}  // namespace loa::engine
