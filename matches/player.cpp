#include "matches/player.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/search/report.hpp"
#include "common/search/time_manager.hpp"
#include "common/text.hpp"
#include "loa/notation.hpp"
#include "matches/process.hpp"

namespace matches {

InProcessPlayer::InProcessPlayer(const EngineSpec& spec, const loa::RuleSet& rules)
    : spec_(spec), searcher_(loa::SearchGame::from_spec(rules, spec.eval, spec.rps), spec.config) {}

MoveChoice InProcessPlayer::choose(const loa::Game& game, const ClockState& clock) {
    search::SearchLimits limits;
    limits.depth = spec_.depth;
    limits.nodes = spec_.nodes;
    if (spec_.move_time_ms > 0) {
        // Fixed time per move: stop a little early to absorb the runner's own overhead.
        limits.hard_time_ms = std::max(1.0, spec_.move_time_ms * 0.95 - 2);
        limits.soft_time_ms = limits.hard_time_ms * 0.6;
    }
    std::optional<search::TimeManager> time;
    if (spec_.move_time_ms <= 0 && spec_.time_control) {
        // Sudden death with increment, the engine's own time manager (classic or tournament);
        // no protocol overhead in process unless option.MoveOverhead asks for one.
        search::ClockLimits c;
        // After an overrun within the margin the clock is below zero; to the time manager a
        // negative time means "no clock", which would search without a limit.
        c.time_left_ms = std::max(0.0, clock.remaining_ms);
        c.increment_ms = clock.increment_ms;
        c.expected_moves_left = loa::expected_moves_left(game);
        time.emplace(c, spec_.move_overhead_ms, spec_.config.timeman, spec_.config.time_tuning);
        limits.timer = &*time;
    }
    limits.game_plies_left = loa::plies_until_limit(game);
    limits.stop = interrupt_;
    const auto history = loa::search_history(game);
    // MultiPV N (option.MultiPV): the move is the best of N lines, as `loa uci` plays it.
    const auto result = searcher_.search_lines(game.position(), limits, history, spec_.multipv, {});
    MoveChoice choice;
    choice.move = result.best_move;
    choice.score = result.score;
    choice.depth = result.depth;
    choice.nodes = result.stats.nodes + result.solver_nodes;  // a solver in front of the search counts too
    choice.time_ms = result.stats.time_ms;
    choice.hard_limit_ms = time ? time->maximum_ms() : limits.hard_time_ms;  // what the runner's report checks
    return choice;
}

std::unique_ptr<Player> make_player(const EngineSpec& spec, const loa::RuleSet& rules) {
    if (spec.external()) return std::make_unique<ExternalPlayer>(spec, rules);
    return std::make_unique<InProcessPlayer>(spec, rules);
}

}  // namespace matches

// ---- external engines ---------------------------------------------------------------------

namespace matches {
namespace {

constexpr double StartupTimeoutMs = 10000;
constexpr double ReadyTimeoutMs = 5000;

int parse_uci_score(const std::string& info, int previous) {
    std::istringstream in(info);
    std::vector<std::string> t;
    for (std::string w; in >> w;) t.push_back(w);
    for (std::size_t i = 0; i + 2 < t.size(); ++i) {
        if (t[i] != "score") continue;
        const auto v = common::parse_int(t[i + 2]);
        if (!v) return previous;
        if (t[i + 1] == "cp") return *v;
        if (t[i + 1] == "mate") return search::score_of_mate(*v);  // moves; UCI's
        if (t[i + 1] == "win") return search::win_in(*v);         // plies: this program's binaries before UCI's mate
        if (t[i + 1] == "loss") return search::loss_in(*v);
    }
    return previous;
}

// How UCI engines refuse a `setoption`: Stockfish says "No such option: X", others (this
// program among them) "info string error: ..." or "Unknown option".
bool refuses_option(const std::string& line) {
    const std::string said = common::lowercase(line);
    if (said.find("no such option") != std::string::npos || said.find("unknown option") != std::string::npos) return true;
    return said.starts_with("info string") &&
           (said.find("error") != std::string::npos || said.find("invalid") != std::string::npos ||
            said.find("refused") != std::string::npos);
}

// GTP times are in seconds. Whole seconds print as integers (what GTP engines expect);
// fractions keep milliseconds, so a control under a second is not sent as 0.
std::string gtp_seconds(double ms) {
    const double rounded_ms = std::round(ms);
    if (std::fmod(rounded_ms, 1000.0) == 0) return fmt::format("{:.0f}", rounded_ms / 1000);
    std::string text = fmt::format("{:.3f}", rounded_ms / 1000);
    while (text.back() == '0') text.pop_back();
    return text;
}

}  // namespace

std::string uci_clocks(bool black_to_move, const ClockState& clock) {
    // Both clocks, in the order cutechess and fastchess send them; an opponent off the clock
    // (a depth or node limit) has no time to send.
    const double own = std::max(0.0, clock.remaining_ms), theirs = std::max(0.0, clock.opponent_remaining_ms);
    if (!clock.opponent_on_clock)
        return black_to_move ? fmt::format(" btime {:.0f} binc {:.0f}", own, clock.increment_ms)
                             : fmt::format(" wtime {:.0f} winc {:.0f}", own, clock.increment_ms);
    const double white = black_to_move ? theirs : own, black = black_to_move ? own : theirs;
    const double white_inc = black_to_move ? clock.opponent_increment_ms : clock.increment_ms;
    const double black_inc = black_to_move ? clock.increment_ms : clock.opponent_increment_ms;
    return fmt::format(" wtime {:.0f} btime {:.0f} winc {:.0f} binc {:.0f}", white, black, white_inc, black_inc);
}

std::string uci_position(PositionCommand how, const loa::Game& game) {
    std::string moves;
    for (const loa::Move m : game.moves()) common::append_word(moves, loa::move_to_compact(m));
    const bool standard = game.start_position() == loa::Position::start();
    const std::string start = how == PositionCommand::StartPos || (how == PositionCommand::Auto && standard)
                                  ? "startpos"
                                  : "fen " + game.start_position().to_text();
    return fmt::format("position {}{}{}", start, moves.empty() ? "" : " moves ", moves);
}

ExternalPlayer::ExternalPlayer(const EngineSpec& spec, const loa::RuleSet& rules)
    : spec_(spec), rules_(rules), process_(std::make_unique<ChildProcess>()) {
    start();
}

void ExternalPlayer::start() {
    process_->start(spec_.cmd, spec_.args);
    const std::string who = fmt::format("engine '{}' ({})", spec_.name, spec_.cmd);
    if (spec_.proto == "uci") {
        process_->write_line("uci");
        if (!expect("uciok", StartupTimeoutMs)) throw common::InputError(who + ": no 'uciok' after 'uci'");
        // Each option is followed by isready, so that what the engine says before readyok is
        // its answer to that option: a refusal stops the run before its first game (an
        // experiment played with other settings than asked for measures the wrong thing).
        for (const auto& [name, value] : spec_.options) {
            process_->write_line(fmt::format("setoption name {} value {}", name, value));
            process_->write_line("isready");
            std::vector<std::string> said;
            if (!expect("readyok", ReadyTimeoutMs, &said))
                throw common::InputError(fmt::format("{}: no 'readyok' after 'setoption name {}'", who, name));
            for (const std::string& line : said)
                if (refuses_option(line))
                    throw common::InputError(fmt::format("{} refused option.{}={}: {}", who, name, value, common::excerpt(line)));
        }
        process_->write_line("isready");
        if (!expect("readyok", ReadyTimeoutMs)) throw common::InputError(who + ": no 'readyok' after 'isready'");
    } else {
        if (!gtp("protocol_version", StartupTimeoutMs)) throw common::InputError(who + ": no answer to 'protocol_version'");
        for (const auto& [name, value] : spec_.options)
            if (!gtp(fmt::format("set_option {} {}", name, value), ReadyTimeoutMs))
                throw common::InputError(fmt::format("{}: option {} refused", who, name));
    }
}

std::optional<std::string> ExternalPlayer::read_line(double timeout_ms) {
    // In slices, so that an interrupt (Ctrl-C) is seen within a few tens of milliseconds.
    constexpr double SliceMs = 50;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(static_cast<long long>(timeout_ms * 1000));
    for (;;) {
        if (interrupted()) return std::nullopt;
        const double left = std::chrono::duration<double, std::milli>(deadline - std::chrono::steady_clock::now()).count();
        if (left <= 0) return std::nullopt;
        if (auto line = process_->read_line(std::min(left, SliceMs))) return line;
        if (process_->gone()) return std::nullopt;
    }
}

std::optional<std::string> ExternalPlayer::expect(const std::string& prefix, double timeout_ms, std::vector<std::string>* before) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::microseconds(static_cast<long long>(timeout_ms * 1000));
    for (;;) {
        const double left = std::chrono::duration<double, std::milli>(deadline - std::chrono::steady_clock::now()).count();
        const auto line = read_line(std::max(0.0, left));
        if (!line) return std::nullopt;
        if (line->starts_with(prefix)) return line;
        last_info_ = *line;
        if (before && before->size() < 100) before->push_back(*line);
    }
}

std::optional<std::string> ExternalPlayer::gtp(const std::string& command, double timeout_ms) {
    if (!process_->write_line(command)) return std::nullopt;
    for (;;) {
        const auto line = read_line(timeout_ms);
        if (!line) return std::nullopt;
        if (line->empty()) continue;
        if ((*line)[0] == '?') {
            process_->read_line(100);  // the blank line that ends the response
            return std::nullopt;
        }
        if ((*line)[0] == '=') {
            process_->read_line(100);
            const auto space = line->find(' ');
            return space == std::string::npos ? std::string() : line->substr(space + 1);
        }
    }
}

std::string ExternalPlayer::no_answer(const char* otherwise) {
    return interrupted() ? "interrupted" : process_->gone() ? "engine crashed" : otherwise;
}

MoveChoice ExternalPlayer::fail(std::string why) {
    process_->stop();  // restarted before the next game
    MoveChoice c;
    c.failure = std::move(why);
    return c;
}

void ExternalPlayer::new_game() {
    if (!process_->running()) {
        // Restart after a crash or hang; if that fails too, this game is lost at its first move.
        try {
            start();
        } catch (const common::InputError&) {
            process_->stop();
            return;
        }
    }
    if (spec_.proto == "uci") {
        process_->write_line("ucinewgame");
        process_->write_line("isready");
        if (!expect("readyok", ReadyTimeoutMs)) process_->stop();
    } else if (!gtp("clear_board", ReadyTimeoutMs)) {
        process_->stop();
    }
}

MoveChoice ExternalPlayer::choose(const loa::Game& game, const ClockState& clock) {
    if (!process_->running()) return fail("engine not running");
    const loa::Position& pos = game.position();
    const bool black = pos.side_to_move() == loa::Colour::Black;
    double timeout = spec_.move_timeout_ms;
    if (spec_.move_time_ms > 0) timeout = spec_.move_time_ms + 1000;
    // On a clock: wait until the flag has certainly fallen (the margin and a second more), so
    // that an overrun is judged by the runner's clock and not cut short here.
    if (spec_.time_control) timeout = std::max(0.0, clock.remaining_ms + clock.margin_ms) + 1000;
    std::string move_text;
    int score = 0;
    double thought_ms = 0;  // from go/genmove to the answer: what the clock is charged
    if (spec_.proto == "uci") {
        process_->write_line(uci_position(spec_.position_command, game));
        std::string go = "go";
        if (spec_.depth) go += fmt::format(" depth {}", spec_.depth);
        if (spec_.nodes) go += fmt::format(" nodes {}", spec_.nodes);
        if (spec_.move_time_ms > 0) go += fmt::format(" movetime {:.0f}", spec_.move_time_ms);
        if (spec_.time_control) go += uci_clocks(black, clock);
        last_info_.clear();
        const search::Stopwatch asked;
        process_->write_line(go);
        const auto answer = expect("bestmove", timeout);
        thought_ms = asked.elapsed_ms();
        if (!answer) return fail(no_answer("no bestmove in time"));
        score = parse_uci_score(last_info_, 0);
        std::istringstream in(*answer);
        std::string word;
        in >> word >> move_text;
    } else {
        const char* colour = black ? "b" : "w";
        if (!gtp(fmt::format("loa_setup {}", game.start_position().to_text()), ReadyTimeoutMs)) return fail("loa_setup refused");
        loa::Position replay = game.start_position();
        for (const loa::Move m : game.moves()) {
            if (!gtp(fmt::format("play {} {}", loa::colour_char(replay.side_to_move()), loa::move_to_text(m)), ReadyTimeoutMs))
                return fail("a move of the game was refused");
            replay.make(m);
        }
        if (spec_.time_control) {
            gtp(fmt::format("time_settings {} {}", gtp_seconds(spec_.time_control->base_ms), gtp_seconds(spec_.time_control->increment_ms)),
                ReadyTimeoutMs);
            gtp(fmt::format("time_left {} {}", colour, gtp_seconds(std::max(0.0, clock.remaining_ms))), ReadyTimeoutMs);
            if (clock.opponent_on_clock)  // both clocks, as GTP controllers send them
                gtp(fmt::format("time_left {} {}", black ? "w" : "b", gtp_seconds(std::max(0.0, clock.opponent_remaining_ms))),
                    ReadyTimeoutMs);
        }
        const search::Stopwatch asked;
        const auto answer = gtp(fmt::format("genmove {}", colour), timeout);
        thought_ms = asked.elapsed_ms();
        if (!answer) return fail(no_answer("no move in time or genmove refused"));
        move_text = std::string(common::trim(*answer));
    }
    MoveChoice choice;
    choice.score = score;
    choice.clock_ms = thought_ms;
    // A fixed time a move is the move's hard limit: a later answer is an overshoot, and past the
    // runner's margin a loss on time (game_runner.cpp), as for the engines in process.
    if (spec_.move_time_ms > 0) choice.hard_limit_ms = spec_.move_time_ms;
    // Engines that know no pass (LinesOfActionBot says "(none)") when passing is the only move.
    if ((move_text == "(none)" || move_text == "0000" || move_text == "none") && !loa::has_real_move(pos)) move_text = "pass";
    try {
        choice.move = loa::parse_move(pos, move_text);
    } catch (const common::InputError&) {
        choice.failure = fmt::format("illegal move '{}'", move_text);
    }
    return choice;
}

}  // namespace matches
