#include "loa/engine/session.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <new>
#include <optional>
#include <ostream>

#include <fmt/format.h>

#include "common/bounded_io.hpp"
#include "common/search/config.hpp"
#include "common/text.hpp"
#include "loa/error.hpp"
#include "loa/searchers.hpp"

namespace loa::engine {

Output::Output(std::ostream& stream) : stream_(stream) {}

void Output::line(const std::string& text) {
    const std::lock_guard guard(mutex_);
    stream_ << text << '\n' << std::flush;
}

Session::Session()
    : config_(search::preset_config("full")), built_config_(config_), evaluation_(SearchGame::from_spec(RuleSet{}, DefaultEval)) {}

Session::~Session() {
    stop();
    wait();
}

common::VariantSearcher<SearchGame>& Session::searcher() {
    if (!searcher_) {
        // The engine stays usable: tables it cannot have are refused, and its options go back
        // to the last tables it could build. Linux grants an allocation beyond the memory it
        // has and kills the process when the tables are cleared: what the machine has left is
        // checked first.
        auto refuse = [this](const std::string& why) {
            const std::string asked = memory_text();
            config_ = built_config_;
            return InputError(fmt::format("cannot allocate the search tables ({}): {}; the options are back to the last "
                                          "ones that could search ({})",
                                          asked, why, memory_text()));
        };
        if (const auto available = common::available_memory_mb(); available && memory_mb() > *available)
            throw refuse(fmt::format("this machine has {:.0f} MB available", *available));
        // A searcher that refuses the options (erps=on or MCTS's move knowledge without Rps)
        // throws InputError from here and the options stay: the controller may send Rps next.
        try {
            SearchGame game = evaluation_;  // shares the network; its own accumulator stack
            game.set_rules(rules_);
            searcher_ = std::make_unique<common::VariantSearcher<SearchGame>>(std::move(game), config_);
        } catch (const std::bad_alloc&) {
            throw refuse("out of memory");
        }
        built_config_ = config_;
    }
    return *searcher_;
}

std::string Session::memory_text() const { return search::table_memory_text(config_); }
double Session::memory_mb() const { return search::table_memory_mb(config_); }

void Session::release() {
    wait();
    searcher_.reset();
}

void Session::set_option(std::string_view raw_name, std::string_view raw_value) {
    if (searching()) throw InputError("options cannot change while the engine is thinking");
    const std::string name = common::lowercase(common::trim(raw_name));
    // "<empty>" is how UCI GUIs write an empty string (our `uci` registers empty defaults so).
    const std::string value = common::trim(raw_value) == "<empty>" ? std::string() : std::string(common::trim(raw_value));
    if (name == "hash") {
        const auto mb = common::parse_int(value);
        if (!mb || *mb < 1 || *mb > MaxHashMb) throw InputError(fmt::format("Hash must be 1..{} MB, not '{}'", MaxHashMb, value));
        // The engine's main table: the transposition table, or MCTS's tree.
        config_.tt = true;
        config_.tt_mb = *mb;
        config_.mcts.tree_mb = *mb;
    } else if (name == "variant" || name == "preset") {
        config_ = search::parse_search_config(name == "preset" ? "preset=" + value : value);
    } else if (name == "eval" || name == "weights" || name == "evalfile") {
        const std::string eval = value.empty() ? std::string(DefaultEval) : value;  // empty: back to the default
        SearchGame evaluation = SearchGame::from_spec(rules_, eval);  // reads (and so validates) the file now, once
        if (realization_) evaluation.set_realization(*realization_);
        evaluation_ = std::move(evaluation);
        eval_ = eval;
    } else if (name == "rps") {
        std::optional<RealizationProbabilities> realization;
        if (!value.empty()) realization = load_realization_file(value);  // read (and validated) now, once
        if (realization)
            evaluation_.set_realization(*realization);
        else
            evaluation_.clear_realization();
        realization_ = std::move(realization);
        rps_ = value;
    } else if (name == "rules") {
        RuleSet rules = parse_rules(value);
        game_ = replayed(game_, rules);  // the game goes on under the new rules, not from its start
        rules_ = rules;
    } else if (name == "moveoverhead" || name == "move overhead") {  // the GUIs' and Stockfish's spelling
        const auto ms = common::parse_int(value);
        if (!ms || *ms < 0 || *ms > MaxMoveOverheadMs)
            throw InputError(fmt::format("MoveOverhead must be 0..{} ms, not '{}'", MaxMoveOverheadMs, value));
        overhead_ms_ = *ms;
    } else if (name == "multipv") {
        const auto n = common::parse_int(value);
        if (!n || *n < 1 || *n > MaxMultiPv) throw InputError(fmt::format("MultiPV must be 1..{}, not '{}'", MaxMultiPv, value));
        multipv_ = *n;
        return;  // how many lines are shown: the searcher and its tables stay
    } else {
        search::SearchConfig changed = config_;
        if (!search::apply_search_option(changed, name, value)) throw InputError(fmt::format("unknown option '{}'", raw_name));
        config_ = std::move(changed);
    }
    searcher_.reset();  // rebuilt with the new settings at the next search
}

std::vector<OptionInfo> Session::options() const {
    auto text = [](std::string name, std::string value, std::string help) {
        OptionInfo o;
        o.name = std::move(name), o.value = std::move(value), o.help = std::move(help);
        return o;
    };
    auto spin = [&](std::string name, int value, std::string help, int min, int max) {
        OptionInfo o = text(std::move(name), std::to_string(value), std::move(help));
        o.kind = search::KeyKind::Integer, o.min = min, o.max = max;
        return o;
    };
    std::vector<OptionInfo> out = {
        spin("Hash", config_.algorithm == search::Algorithm::Mcts ? config_.mcts.tree_mb : config_.tt_mb,
             "transposition table size in MB (MCTS: the tree's)", 1, MaxHashMb),
        text("Variant", config_.preset, "a whole search-variant string (see 'loa variants')"),
        text("Eval", eval_, "evaluation: nnue (the shipped network, the default), hce (= full, the tuned hand-written one), hand, concentration, simple, material, a JSON weights file or a .nnue network"),
        text("Rps", rps_, "realization probabilities (JSON from loa-match learn-rps) for erps=on"),
        text("Rules", to_string(rules_), "a named set (olympiad, codingame, loabot, openspiel) and/or key=value list"),
        spin("MoveOverhead", static_cast<int>(std::lround(overhead_ms_)), "milliseconds kept back per move for communication", 0,
             MaxMoveOverheadMs),
        spin("Threads", config_.threads, "search threads: lazy SMP, or MCTS sharing its tree (1: deterministic)", 1, 64),
        spin("MultiPV", multipv_, "lines shown: the best N root moves, each with its score and PV (alpha-beta; MCTS shows one)",
             1, MaxMultiPv),
    };
    for (const search::SearchKey& key : search::search_keys()) {
        if (key.name == "preset" || key.name == "threads") continue;  // Variant and Threads above
        OptionInfo o = text(key.name, key.get(config_), key.help);
        o.kind = key.kind, o.min = key.min, o.max = key.max, o.choices = key.choices;
        out.push_back(std::move(o));
    }
    return out;
}

// The game's moves again under `rules`, as far as they go: a game these rules end earlier
// stops there, over (a next `go` says so rather than searching some other position).
Game Session::replayed(const Game& game, const RuleSet& rules) {
    Game again(game.start_position(), rules, game.ply() - static_cast<int>(game.moves().size()));
    for (const Move m : game.moves()) {
        if (again.over()) break;
        again.play(m);
    }
    return again;
}

void Session::new_game(const Position& start) {
    wait();
    game_ = Game(start, rules_);
    if (searcher_) searcher_->new_game();
}

void Session::set_game(Game game) {
    wait();
    game_ = std::move(game);
}

Result Session::think(const search::ClockLimits& clock, const std::function<void(const IterationInfo&)>& on_iteration) {
    wait();
    stop_ = false;
    plan(clock);
    return run(on_iteration, {});
}

void Session::plan(const search::ClockLimits& clock) {
    search::ClockLimits c = clock;
    c.expected_moves_left = expected_moves_left(game_);
    time_ = std::make_unique<search::TimeManager>(c, overhead_ms_, config_.timeman, config_.time_tuning);
}

void Session::ponderhit() {
    if (time_) time_->ponderhit();
}

// The root moves a search leaves out to keep to `search_moves` (none when it is empty). Throws
// InputError when none of them is legal, or for MCTS, which searches every root move.
std::vector<std::uint16_t> Session::left_out(const std::vector<Move>& search_moves) {
    if (search_moves.empty()) return {};
    if (!searcher().multipv_capable()) throw InputError("searchmoves: MCTS searches every root move (alpha-beta keeps to some)");
    const MoveList legal = legal_moves(game_.position());
    std::vector<std::uint16_t> out;
    for (const Move m : legal)
        if (std::ranges::find(search_moves, m) == search_moves.end()) out.push_back(m.raw());
    if (out.size() == legal.size()) throw InputError("searchmoves: none of the moves is legal here");
    return out;
}

Result Session::run(const std::function<void(const IterationInfo&)>& on_iteration, const std::vector<std::uint16_t>& left_out) {
    search::SearchLimits limits = time_->limits();
    limits.excluded_root_moves = left_out;
    limits.stop = &stop_;
    limits.game_plies_left = plies_until_limit(game_);
    if (node_cap_ > 0) limits.nodes = limits.nodes ? std::min(limits.nodes, node_cap_) : node_cap_;
    // Several lines: each depth's lines reported in order, best first (multipv 1..N).
    return searcher().search_lines(game_.position(), limits, search_history(game_), multipv_,
                                   [&](const std::vector<IterationInfo>& lines) {
                                       if (on_iteration)
                                           for (const IterationInfo& it : lines) on_iteration(it);
                                   });
}

void Session::start(const search::ClockLimits& clock, std::function<void(const IterationInfo&)> on_iteration,
                    std::function<void(const Result&)> on_done, std::function<void(const std::string&)> on_error,
                    const std::vector<Move>& search_moves) {
    wait();
    searcher();  // built on this thread, before the search thread starts
    std::vector<std::uint16_t> excluded = left_out(search_moves);
    plan(clock);
    stop_ = false;
    searching_ = true;
    try {
        thread_ = std::thread([this, on_iteration = std::move(on_iteration), on_done = std::move(on_done),
                               on_error = std::move(on_error), excluded = std::move(excluded)] {
            // An exception escaping this thread would end the program without an answer.
            std::optional<Result> r;
            std::string error;
            try {
                r = run(on_iteration, excluded);
            } catch (const std::exception& e) {
                error = e.what();
            }
            searching_ = false;
            if (r) on_done(*r);
            else if (on_error) on_error(error);
        });
    } catch (...) {  // no thread: the session is idle, not searching for ever
        searching_ = false;
        throw;
    }
}

void Session::prepare() {
    if (!searching_) searcher();
}

void Session::stop() { stop_ = true; }

void Session::wait() {
    if (thread_.joinable()) thread_.join();
}

}  // namespace loa::engine
