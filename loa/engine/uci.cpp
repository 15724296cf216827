// UCI-style front end, as chess engines and the public LOA engines speak it.
#include "loa/engine/frontends.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <iostream>
#include <map>
#include <mutex>
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

// "option name killers type spin default 2 min 0 max 8": typed as the option's key is, as
// Stockfish registers its options, so that a GUI draws a spin box, a check box or a list. An
// empty string default is "<empty>", the word GUIs send back for it.
std::string uci_option_line(const OptionInfo& o) {
    switch (o.kind) {
        case variant::KeyKind::Switch:
            return fmt::format("option name {} type check default {}", o.name, o.value == "on" ? "true" : "false");
        case variant::KeyKind::Integer:
            return fmt::format("option name {} type spin default {} min {} max {}", o.name, o.value, o.min, o.max);
        case variant::KeyKind::Choice: {
            std::string line = fmt::format("option name {} type combo default {}", o.name, o.value);
            for (const std::string& choice : o.choices) line += " var " + choice;
            return line;
        }
        case variant::KeyKind::Text: break;
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

using Tokens = std::vector<std::string>;

// One UCI session over `session`: the state its commands share, one handler a command, and
// the loop that reads commands and dispatches them by name.
//
// The input reader never waits for a search: `stop`, `quit` and `isready` are answered in every
// state, and a command that needs an idle engine (setoption, ucinewgame, position, go) while a
// search runs, or while its bestmove is still owed, is refused with `info string error: ...`.
// `stop` ends a search within a few milliseconds (the search polls its stop flag every 256
// nodes), so waiting for it is not waiting on the search.
class UciEngine {
public:
    UciEngine(Output& out, Session& session) : out_(out), session_(session), reported_memory_(session.memory_text()) {}
    int loop(std::istream& in);

private:
    using Handler = void (UciEngine::*)(const Tokens&);
    // The commands by name; any other is answered as unknown.
    static const std::map<std::string, Handler, std::less<>> Handlers;

    void uci(const Tokens&);
    void debug(const Tokens& t);
    void registration(const Tokens&);
    void isready(const Tokens&);
    void setoption(const Tokens& t);
    void ucinewgame(const Tokens&);
    void position(const Tokens& t);
    void go(const Tokens& t);
    void ponderhit(const Tokens&);
    void stop(const Tokens&);
    void quit(const Tokens&);
    void show(const Tokens&);

    void start_search(const GoCommand& go);
    void write_bestmove(const Result& r);
    void owe_none(const std::string& error);
    void answer_owed();
    void finish_search();
    void settle(const std::string& what);

    Output& out_;
    Session& session_;
    std::mutex lock_;
    std::condition_variable stopped_;
    bool infinite_ = false, pondering_ = false, stop_requested_ = false;  // guarded by lock_
    bool busy_ = false;  // from go until its bestmove is written (guarded by lock_)
    // A `go ponder` or `go infinite` on a finished game owes its `bestmove (none)` until ponderhit
    // or stop, like any other pondering or infinite search (guarded by lock_).
    bool owes_none_ = false;
    bool position_refused_ = false;  // the last position command failed (input thread only)
    std::string reported_memory_;    // the tables' claim the controller was last told
    // `debug on`: each search's statistics as an info string before its bestmove (read by the
    // search thread, written by this one).
    std::atomic<bool> debug_{false};
    bool ponder_option_ = false;  // the GUI's Ponder option: whether it may send `go ponder` (nothing to do here)
    bool quit_ = false;
};

const std::map<std::string, UciEngine::Handler, std::less<>> UciEngine::Handlers = {
    {"uci", &UciEngine::uci},
    {"debug", &UciEngine::debug},
    {"register", &UciEngine::registration},
    {"isready", &UciEngine::isready},
    {"setoption", &UciEngine::setoption},
    {"ucinewgame", &UciEngine::ucinewgame},
    {"position", &UciEngine::position},
    {"go", &UciEngine::go},
    {"ponderhit", &UciEngine::ponderhit},
    {"stop", &UciEngine::stop},
    {"quit", &UciEngine::quit},
    {"d", &UciEngine::show},
    {"show", &UciEngine::show},
};

int UciEngine::loop(std::istream& in) {
    const auto too_long = [&] { out_.line(fmt::format("info string error: a line of over {} bytes was ignored", common::MaxProtocolLine)); };
    for (std::string line; common::next_protocol_line(in, line, too_long);) {
        const Tokens t = tokens_of(line);
        if (t.empty()) continue;
        try {
            if (const auto handler = Handlers.find(t[0]); handler != Handlers.end()) (this->*handler->second)(t);
            else out_.line(fmt::format("info string error: unknown command '{}'", common::excerpt(t[0])));
        } catch (const InputError& e) {
            out_.line(fmt::format("info string error: {}", common::excerpt(e.what(), MaxErrorBytes)));
        }
        if (quit_) return 0;
    }
    // End of input: a search with a limit ends by itself and still answers; an infinite one
    // is stopped.
    bool unlimited;
    {
        const std::lock_guard guard(lock_);
        unlimited = infinite_ || pondering_;
    }
    if (unlimited) finish_search();
    session_.wait();
    return 0;
}

// Writes the `bestmove (none)` owed once it may go (not before stop or ponderhit for an
// infinite or pondering go); with lock_ held.
void UciEngine::answer_owed() {
    if (owes_none_ && ((!infinite_ && !pondering_) || stop_requested_)) {
        out_.line("bestmove " + uci_move(Move::none()));
        owes_none_ = false;
        busy_ = false;
    }
}

void UciEngine::finish_search() {
    session_.stop();
    {
        const std::lock_guard guard(lock_);
        stop_requested_ = true;
        answer_owed();
    }
    stopped_.notify_all();
    session_.wait();
}

// Throws InputError naming `what` while a search runs or its bestmove is owed.
void UciEngine::settle(const std::string& what) {
    {
        const std::lock_guard guard(lock_);
        if (busy_) throw InputError(fmt::format("{}: the engine is thinking (send stop first, or wait for bestmove)", what));
    }
    session_.wait();  // a finished search's thread: joins at once
}

void UciEngine::uci(const Tokens&) {
    out_.line("id name loa 0.1");
    out_.line("id author the LOA engine authors");
    for (const OptionInfo& o : session_.options()) out_.line(uci_option_line(o));
    // GUIs offer pondering only to an engine that registers Ponder.
    out_.line(fmt::format("option name Ponder type check default {}", ponder_option_ ? "true" : "false"));
    out_.line("uciok");
}

void UciEngine::debug(const Tokens& t) {
    if (t.size() != 2 || (t[1] != "on" && t[1] != "off")) throw InputError("debug: expected 'debug on' or 'debug off'");
    debug_ = t[1] == "on";
    out_.line(fmt::format("info string debug {}", t[1]));
}

void UciEngine::registration(const Tokens&) {
    out_.line("registration ok");  // nothing to register: every feature is free
}

void UciEngine::isready(const Tokens&) {
    // readyok is owed whatever happens: a controller that does not get it drops the
    // engine. A configuration the searcher refuses is reported, and refused again
    // by the next go.
    try {
        session_.prepare();
    } catch (const std::exception& e) {  // a refused configuration, a table too large
        out_.line(fmt::format("info string error: {}", e.what()));
    }
    out_.line("readyok");
}

// setoption name <name...> value <value...>
void UciEngine::setoption(const Tokens& t) {
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
        ponder_option_ = v == "true" || v == "on";
        return;
    }
    session_.set_option(name, value);
    // Whatever the operator asks for is allowed; what the tables claim is said.
    if (const std::string memory = session_.memory_text(); memory != reported_memory_) {
        out_.line("info string " + memory);
        reported_memory_ = memory;
    }
}

void UciEngine::ucinewgame(const Tokens&) {
    settle("ucinewgame");
    session_.new_game();
    position_refused_ = false;
}

void UciEngine::position(const Tokens& t) {
    // A refused position (also one refused while the engine thinks) leaves no game
    // to search: the next go must not answer with a move of the game before it.
    position_refused_ = true;
    settle("position");
    session_.set_game(parse_position_command(t, session_.rules()));
    position_refused_ = false;
}

void UciEngine::go(const Tokens& t) {
    settle("go");
    GoCommand go;
    try {
        go = parse_go(t, session_.game().position());
    } catch (const InputError& e) {
        // A go the engine cannot read is still answered: the controller would
        // otherwise wait for a move until the engine loses on time.
        out_.line(fmt::format("info string error: {}", common::excerpt(e.what(), MaxErrorBytes)));
        out_.line("bestmove " + uci_move(Move::none()));
        return;
    }
    if (!go.ignored.empty()) {
        std::string ignored;
        for (const std::string& word : go.ignored) common::append_word(ignored, word);
        out_.line(fmt::format("info string go: ignored unknown parameter '{}'", common::excerpt(ignored, MaxErrorBytes)));
    }
    // No search either after a refused position: the game held is not the one asked.
    const bool over = position_refused_ || session_.game().over();
    if (position_refused_) out_.line("info string error: go: the last position command was refused; send a valid one");
    else if (over) out_.line(fmt::format("info string game over: {}", describe(session_.game().result())));
    {
        // Pondering answers, like an infinite search, only after ponderhit or stop.
        const std::lock_guard guard(lock_);
        infinite_ = go.clock.infinite;
        pondering_ = go.clock.ponder;
        stop_requested_ = false;
        busy_ = true;
        // A finished game has no search to run, but its answer is owed the same way.
        owes_none_ = over;
        answer_owed();
    }
    if (!over) start_search(go);
}

void UciEngine::start_search(const GoCommand& go) {
    try {
        session_.start(
            go.clock, [this](const IterationInfo& it) { out_.line(format_info(it, ScoreStyle::UciMate)); },
            [this](const Result& r) { write_bestmove(r); }, [this](const std::string& error) { owe_none(error); },
            go.search_moves);
    } catch (const std::exception& e) {
        owe_none(e.what());
    }
}

// On the search thread, once the search is done.
void UciEngine::write_bestmove(const Result& r) {
    // In infinite mode the answer waits for 'stop', as UCI requires.
    std::unique_lock guard(lock_);
    stopped_.wait(guard, [&] { return (!infinite_ && !pondering_) || stop_requested_; });
    if (r.proven_win) out_.line(fmt::format("info string solver: proven win, {} nodes", r.solver_nodes));
    if (r.unfinished) out_.line(format_unfinished_info(r, ScoreStyle::UciMate));
    if (debug_) out_.line("info string stats " + search::format_stats(r.stats));
    std::string line = fmt::format("bestmove {}", uci_move(r.best_move));
    if (r.pv.size() >= 2 && r.pv.front() == r.best_move) line += fmt::format(" ponder {}", move_to_compact(r.pv[1]));
    out_.line(line);
    busy_ = false;
}

// A search that cannot start or fails still owes its bestmove ("(none)", after the
// error): without it the controller waits until the engine loses on time, and
// every later command would be refused as the engine thinking.
void UciEngine::owe_none(const std::string& error) {
    out_.line(fmt::format("info string error: {}", common::excerpt(error, MaxErrorBytes)));
    const std::lock_guard guard(lock_);
    owes_none_ = true;
    answer_owed();
}

void UciEngine::ponderhit(const Tokens&) {
    // The expected move was played: the search goes on as a timed one, its plan
    // counted from its start (a search already long enough answers at once).
    session_.ponderhit();
    {
        const std::lock_guard guard(lock_);
        pondering_ = false;
        answer_owed();
    }
    stopped_.notify_all();
}

void UciEngine::stop(const Tokens&) { finish_search(); }

void UciEngine::quit(const Tokens&) {
    finish_search();
    quit_ = true;
}

void UciEngine::show(const Tokens&) { out_.line(session_.game().position().to_text()); }

}  // namespace

int run_uci(std::istream& in, Output& out) {
    Session session;
    return run_uci(in, out, session);
}

int run_uci(std::istream& in, Output& out, Session& session) {
    UciEngine engine(out, session);
    return engine.loop(in);
}

}  // namespace loa::engine
