#include "loa/engine/session.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <new>
#include <optional>
#include <ostream>

#include <fmt/format.h>

#include "common/bounded_io.hpp"
#include "common/files.hpp"
#include "common/variant/config.hpp"
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
    : built_config_(settings_.config), evaluation_(SearchGame::from_spec(RuleSet{}, DefaultEval)) {}

Session::~Session() {
    stop();
    wait();
}

variant::VariantSearcher<SearchGame>& Session::searcher() {
    if (!searcher_) {
        // The engine stays usable: tables it cannot have are refused, and its options go back
        // to the last tables it could build. Linux grants an allocation beyond the memory it
        // has and kills the process when the tables are cleared: what the machine has left is
        // checked first.
        auto refuse = [this](const std::string& why) {
            const std::string asked = memory_text();
            settings_.config = built_config_;
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
            game.set_rules(settings_.rules);
            searcher_ = std::make_unique<variant::VariantSearcher<SearchGame>>(std::move(game), settings_.config);
        } catch (const std::bad_alloc&) {
            throw refuse("out of memory");
        }
        built_config_ = settings_.config;
    }
    return *searcher_;
}

std::string Session::memory_text() const { return variant::table_memory_text(settings_.config); }
double Session::memory_mb() const { return variant::table_memory_mb(settings_.config); }

void Session::release() {
    wait();
    searcher_.reset();
}

void Session::set_option(std::string_view name, std::string_view value) {
    if (searching()) throw InputError("options cannot change while the engine is thinking");
    const EngineOption* option = find_engine_option(name);  // nullptr: a search key
    EngineSettings changed = settings_;
    if (!apply_engine_option(changed, name, value)) {
        const std::string near = nearest_option(name);
        throw InputError(fmt::format("unknown option '{}'{}", name, near.empty() ? "" : fmt::format("; did you mean '{}'?", near)));
    }
    // A file an option names is read when the option is set, also again under the same name.
    const std::string set = option ? option->info.name : "";
    if (set == "Eval") {
        SearchGame evaluation = SearchGame::from_spec(changed.rules, changed.eval);  // reads (and so validates) the file now, once
        if (realization_) evaluation.set_realization(*realization_);
        evaluation_ = std::move(evaluation);
    }
    if (set == "Rps") {
        std::optional<RealizationProbabilities> realization;
        if (!changed.rps.empty()) realization = load_realization_file(changed.rps);  // read (and validated) now, once
        if (realization)
            evaluation_.set_realization(*realization);
        else
            evaluation_.clear_realization();
        realization_ = std::move(realization);
    }
    // The game goes on under new rules, not from its start.
    if (set == "Rules") game_ = replayed(game_, changed.rules);
    settings_ = std::move(changed);
    if (!option || !option->keeps_searcher) searcher_.reset();  // rebuilt with the new settings at the next search
}

std::vector<OptionInfo> Session::options() const { return option_infos(settings_); }

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
    game_ = Game(start, settings_.rules);
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
    time_ = std::make_unique<search::TimeManager>(c, settings_.move_overhead_ms, settings_.config.timeman, settings_.config.time_tuning);
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
    return searcher().search_lines(game_.position(), limits, search_history(game_), settings_.multipv,
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
