// UCI-style front end, as chess engines and the public LOA engines speak it.
#include "loa/engine/frontends.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "common/bounded_io.hpp"
#include "common/text.hpp"
#include "loa/error.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/search_output.hpp"

namespace loa::engine {
namespace {

// An error that quotes the input is cut to this: a 10 MB bad token is not echoed back.
constexpr std::size_t MaxErrorBytes = 400;

// "option name killers type spin default 2 min 0 max 8": typed as the option's key is, as
// Stockfish registers its options, so that a GUI draws a spin box, a check box or a list. An
// empty string default is "<empty>", the word GUIs send back for it.
std::string uci_option_line(const OptionInfo& o) {
    switch (o.kind) {
        case search::KeyKind::Switch:
            return fmt::format("option name {} type check default {}", o.name, o.value == "on" ? "true" : "false");
        case search::KeyKind::Integer:
            return fmt::format("option name {} type spin default {} min {} max {}", o.name, o.value, o.min, o.max);
        case search::KeyKind::Choice: {
            std::string line = fmt::format("option name {} type combo default {}", o.name, o.value);
            for (const std::string& choice : o.choices) line += " var " + choice;
            return line;
        }
        case search::KeyKind::Text: break;
    }
    return fmt::format("option name {} type string default {}", o.name, o.value.empty() ? "<empty>" : o.value);
}

std::vector<std::string> tokens_of(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> out;
    for (std::string t; in >> t;) out.push_back(t);
    return out;
}

// position startpos|fen <board> <side> [moves m1 m2 ...]: the new game is built aside and
// only replaces the session's when every part is valid.
Game parse_position_command(const std::vector<std::string>& t, const RuleSet& rules) {
    std::size_t i = 1;
    Position start;
    if (i < t.size() && t[i] == "startpos") {
        start = Position::start();
        ++i;
    } else if (i < t.size() && (t[i] == "fen" || t[i] == "pos")) {
        std::string text;
        for (++i; i < t.size() && t[i] != "moves"; ++i) common::append_word(text, t[i]);
        start = parse_position(text);
    } else {
        throw InputError("position: expected 'startpos' or 'fen <position>'");
    }
    Game game(start, rules);
    if (i < t.size()) {
        if (t[i] != "moves") throw InputError(fmt::format("position: unexpected '{}'", t[i]));
        for (++i; i < t.size(); ++i) {
            try {
                game.play(t[i]);
            } catch (const InputError& e) {
                throw InputError(fmt::format("position: move '{}': {}", t[i], e.what()));
            }
        }
    }
    return game;
}

double signed_number_after(const std::vector<std::string>& t, std::size_t& i) {
    if (i + 1 >= t.size()) throw InputError(fmt::format("go: '{}' needs a value", t[i]));
    const auto v = common::parse_int64(t[++i]);
    if (!v) throw InputError(fmt::format("go: bad value '{}' for '{}'", common::excerpt(t[i]), t[i - 1]));
    return static_cast<double>(*v);
}

double number_after(const std::vector<std::string>& t, std::size_t& i) {
    const double v = signed_number_after(t, i);
    if (v < 0) throw InputError(fmt::format("go: bad value '{}' for '{}'", common::excerpt(t[i]), t[i - 1]));
    return v;
}

// What `go ...` asks: the limits, the root moves to keep to, and the parameters it does not
// know (ignored, as UCI says an engine should; told back in an info string).
struct GoCommand {
    search::ClockLimits clock;
    std::vector<Move> search_moves;
    std::vector<std::string> ignored;
};

// A word written as a move ("b1d3", "b1-d3", "b1xd3", "pass"): what searchmoves takes, legal
// or not, so that an illegal one is named instead of read as the next parameter.
bool shaped_like_a_move(const std::string& w) {
    // Two squares, with parse_move's optional '-' or 'x' (either case) between them.
    if (w == "pass") return true;
    if (w.size() != 4 && w.size() != 5) return false;
    if (w.size() == 5 && w[2] != '-' && w[2] != 'x' && w[2] != 'X') return false;
    return parse_square(std::string_view(w).substr(0, 2)) && parse_square(std::string_view(w).substr(w.size() - 2));
}

// `searchmoves m1 m2 ...`: the move-shaped words that follow; one that is not a legal move of
// `pos` is refused by name.
std::vector<Move> parse_search_moves(const std::vector<std::string>& t, std::size_t& i, const Position& pos) {
    std::vector<Move> moves;
    while (i + 1 < t.size() && shaped_like_a_move(t[i + 1])) {
        try {
            moves.push_back(parse_move(pos, t[i + 1]));
        } catch (const InputError&) {
            throw InputError(fmt::format("go: searchmoves: '{}' is not a legal move here", t[i + 1]));
        }
        ++i;
    }
    return moves;
}

// `go mate N`: a win in N moves comes within 2N - 1 plies, the depth searched (a win found
// within it ends the search at once).
int mate_depth(double moves) { return static_cast<int>(std::clamp(2 * moves - 1, 1.0, 100.0)); }

// The `go ...` of `pos`'s side to move; throws InputError on a value it cannot read.
GoCommand parse_go(const std::vector<std::string>& t, const Position& pos) {
    const bool black = pos.side_to_move() == Colour::Black;
    GoCommand go;
    search::ClockLimits& clock = go.clock;
    for (std::size_t i = 1; i < t.size(); ++i) {
        const std::string& k = t[i];
        // 0 for depth, nodes or movetime would mean no limit at all, a search that only
        // `stop` ends: a controller asking for no time gets a move at once instead (depth 1).
        if (k == "depth") {
            // With `mate` too, the smaller limit holds, in whichever order they come.
            const int depth = static_cast<int>(std::clamp(number_after(t, i), 1.0, 100.0));
            clock.depth = clock.depth > 0 ? std::min(clock.depth, depth) : depth;
        }
        else if (k == "nodes") {
            const double n = number_after(t, i);
            if (n > 0) clock.nodes = static_cast<std::uint64_t>(n);
            else clock.depth = 1;
        } else if (k == "movetime") {
            clock.move_time_ms = number_after(t, i);
            if (clock.move_time_ms <= 0) clock.depth = 1;
        }
        else if (k == "wtime" || k == "btime") {
            // Some GUIs send a negative time after an overrun: it means none left.
            const double v = std::max(0.0, signed_number_after(t, i));
            if ((k == "btime") == black) clock.time_left_ms = v;
        } else if (k == "winc" || k == "binc") {
            const double v = number_after(t, i);
            if ((k == "binc") == black) clock.increment_ms = v;
        } else if (k == "movestogo") clock.moves_to_go = static_cast<int>(std::min(1000.0, number_after(t, i)));
        else if (k == "infinite") clock.infinite = true;
        else if (k == "ponder") clock.ponder = true;
        else if (k == "searchmoves") {
            go.search_moves = parse_search_moves(t, i, pos);
            if (go.search_moves.empty()) throw InputError("go: searchmoves names no legal move");
        } else if (k == "mate") {
            const int depth = mate_depth(number_after(t, i));
            clock.depth = clock.depth > 0 ? std::min(clock.depth, depth) : depth;
        } else go.ignored.push_back(k);
    }
    return go;
}

// A move as UCI writes it; no move at all is "(none)", as Stockfish and python-chess write it.
std::string uci_move(Move m) { return m.is_none() ? "(none)" : move_to_compact(m); }

}  // namespace

// The input reader never waits for a search: `stop`, `quit` and `isready` are answered in every
// state, and a command that needs an idle engine (setoption, ucinewgame, position, go) while a
// search runs, or while its bestmove is still owed, is refused with `info string error: ...`.
// `stop` ends a search within a few milliseconds (the search polls its stop flag every 256
// nodes), so waiting for it is not waiting on the search.
int run_uci(std::istream& in, Output& out) {
    Session session;
    return run_uci(in, out, session);
}

int run_uci(std::istream& in, Output& out, Session& session) {
    std::mutex lock;
    std::condition_variable stopped;
    bool infinite = false, pondering = false, stop_requested = false;
    bool busy = false;  // from go until its bestmove is written (guarded by lock)
    // A `go ponder` or `go infinite` on a finished game owes its `bestmove (none)` until ponderhit
    // or stop, like any other pondering or infinite search (guarded by lock).
    bool owes_none = false;
    bool position_refused = false;  // the last position command failed (input thread only)
    std::string reported_memory = session.memory_text();  // the tables' claim the controller was last told
    // `debug on`: each search's statistics as an info string before its bestmove (read by the
    // search thread, written by this one).
    std::atomic<bool> debug{false};
    bool ponder_option = false;  // the GUI's Ponder option: whether it may send `go ponder` (nothing to do here)
    auto answer_owed = [&] {  // with lock held
        if (owes_none && ((!infinite && !pondering) || stop_requested)) {
            out.line("bestmove " + uci_move(Move::none()));
            owes_none = false;
            busy = false;
        }
    };

    auto finish_search = [&] {
        session.stop();
        {
            const std::lock_guard guard(lock);
            stop_requested = true;
            answer_owed();
        }
        stopped.notify_all();
        session.wait();
    };

    auto settle = [&](const std::string& what) {
        {
            const std::lock_guard guard(lock);
            if (busy) throw InputError(fmt::format("{}: the engine is thinking (send stop first, or wait for bestmove)", what));
        }
        session.wait();  // a finished search's thread: joins at once
    };

    const auto too_long = [&] { out.line(fmt::format("info string error: a line of over {} bytes was ignored", common::MaxProtocolLine)); };
    for (std::string line; common::next_protocol_line(in, line, too_long);) {
        const auto t = tokens_of(line);
        if (t.empty()) continue;
        const std::string& cmd = t[0];
        try {
            if (cmd == "uci") {
                out.line("id name loa 0.1");
                out.line("id author the LOA engine authors");
                for (const OptionInfo& o : session.options()) out.line(uci_option_line(o));
                // GUIs offer pondering only to an engine that registers Ponder.
                out.line(fmt::format("option name Ponder type check default {}", ponder_option ? "true" : "false"));
                out.line("uciok");
            } else if (cmd == "debug") {
                if (t.size() != 2 || (t[1] != "on" && t[1] != "off")) throw InputError("debug: expected 'debug on' or 'debug off'");
                debug = t[1] == "on";
                out.line(fmt::format("info string debug {}", t[1]));
            } else if (cmd == "register") {
                out.line("registration ok");  // nothing to register: every feature is free
            } else if (cmd == "isready") {
                // readyok is owed whatever happens: a controller that does not get it drops the
                // engine. A configuration the searcher refuses is reported, and refused again
                // by the next go.
                try {
                    session.prepare();
                } catch (const std::exception& e) {  // a refused configuration, a table too large
                    out.line(fmt::format("info string error: {}", e.what()));
                }
                out.line("readyok");
            } else if (cmd == "setoption") {
                // setoption name <name...> value <value...>
                std::string name, value;
                std::string* target = nullptr;
                for (std::size_t i = 1; i < t.size(); ++i) {
                    if (t[i] == "name" && !target) target = &name;
                    else if (t[i] == "value" && target == &name) target = &value;
                    else if (target) common::append_word(*target, t[i]);
                    else throw InputError("setoption: expected 'name <name> value <value>'");
                }
                if (name.empty()) throw InputError("setoption: missing name");
                settle("setoption");
                if (common::lowercase(name) == "ponder") {
                    const std::string v = common::lowercase(value);
                    if (v != "true" && v != "false" && v != "on" && v != "off")
                        throw InputError(fmt::format("Ponder must be true or false, not '{}'", common::excerpt(value)));
                    ponder_option = v == "true" || v == "on";
                    continue;
                }
                session.set_option(name, value);
                // Whatever the operator asks for is allowed; what the tables claim is said.
                if (const std::string memory = session.memory_text(); memory != reported_memory) {
                    out.line("info string " + memory);
                    reported_memory = memory;
                }
            } else if (cmd == "ucinewgame") {
                settle("ucinewgame");
                session.new_game();
                position_refused = false;
            } else if (cmd == "position") {
                // A refused position (also one refused while the engine thinks) leaves no game
                // to search: the next go must not answer with a move of the game before it.
                position_refused = true;
                settle("position");
                session.set_game(parse_position_command(t, session.rules()));
                position_refused = false;
            } else if (cmd == "go") {
                settle("go");
                GoCommand go;
                try {
                    go = parse_go(t, session.game().position());
                } catch (const InputError& e) {
                    // A go the engine cannot read is still answered: the controller would
                    // otherwise wait for a move until the engine loses on time.
                    out.line(fmt::format("info string error: {}", common::excerpt(e.what(), MaxErrorBytes)));
                    out.line("bestmove " + uci_move(Move::none()));
                    continue;
                }
                if (!go.ignored.empty()) {
                    std::string ignored;
                    for (const std::string& word : go.ignored) common::append_word(ignored, word);
                    out.line(fmt::format("info string go: ignored unknown parameter '{}'", common::excerpt(ignored, MaxErrorBytes)));
                }
                const search::ClockLimits& clock = go.clock;
                // No search either after a refused position: the game held is not the one asked.
                const bool over = position_refused || session.game().over();
                if (position_refused) out.line("info string error: go: the last position command was refused; send a valid one");
                else if (over) out.line(fmt::format("info string game over: {}", describe(session.game().result())));
                {
                    // Pondering answers, like an infinite search, only after ponderhit or stop.
                    const std::lock_guard guard(lock);
                    infinite = clock.infinite;
                    pondering = clock.ponder;
                    stop_requested = false;
                    busy = true;
                    // A finished game has no search to run, but its answer is owed the same way.
                    owes_none = over;
                    answer_owed();
                }
                if (over) continue;
                // A search that cannot start or fails still owes its bestmove ("(none)", after the
                // error): without it the controller waits until the engine loses on time, and
                // every later command would be refused as the engine thinking.
                auto owe_none = [&](const std::string& error) {
                    out.line(fmt::format("info string error: {}", common::excerpt(error, MaxErrorBytes)));
                    const std::lock_guard guard(lock);
                    owes_none = true;
                    answer_owed();
                };
                try {
                    session.start(
                        clock, [&out](const IterationInfo& it) { out.line(format_info(it, ScoreStyle::UciMate)); },
                        [&](const Result& r) {
                            // In infinite mode the answer waits for 'stop', as UCI requires.
                            std::unique_lock guard(lock);
                            stopped.wait(guard, [&] { return (!infinite && !pondering) || stop_requested; });
                            if (r.proven_win)
                                out.line(fmt::format("info string solver: proven win, {} nodes", r.solver_nodes));
                            if (r.unfinished) out.line(format_unfinished_info(r, ScoreStyle::UciMate));
                            if (debug) out.line("info string stats " + search::format_stats(r.stats));
                            std::string line = fmt::format("bestmove {}", uci_move(r.best_move));
                            if (r.pv.size() >= 2 && r.pv.front() == r.best_move)
                                line += fmt::format(" ponder {}", move_to_compact(r.pv[1]));
                            out.line(line);
                            busy = false;
                        },
                        owe_none, go.search_moves);
                } catch (const std::exception& e) {
                    owe_none(e.what());
                }
            } else if (cmd == "ponderhit") {
                // The expected move was played: the search goes on as a timed one, its plan
                // counted from its start (a search already long enough answers at once).
                session.ponderhit();
                {
                    const std::lock_guard guard(lock);
                    pondering = false;
                    answer_owed();
                }
                stopped.notify_all();
            } else if (cmd == "stop") {
                finish_search();
            } else if (cmd == "quit") {
                finish_search();
                return 0;
            } else if (cmd == "d" || cmd == "show") {
                out.line(session.game().position().to_text());
            } else {
                out.line(fmt::format("info string error: unknown command '{}'", common::excerpt(cmd)));
            }
        } catch (const InputError& e) {
            out.line(fmt::format("info string error: {}", common::excerpt(e.what(), MaxErrorBytes)));
        }
    }
    // End of input: a search with a limit ends by itself and still answers; an infinite one
    // is stopped.
    {
        bool unlimited;
        {
            const std::lock_guard guard(lock);
            unlimited = infinite || pondering;
        }
        if (unlimited) finish_search();
        session.wait();
    }
    return 0;
}

}  // namespace loa::engine
