// The engine behind every protocol front end: the game so far, the options, and a searcher
// that runs on its own thread so that the front end keeps answering (stop, isready) while it
// thinks. Front ends translate their protocol to these calls and nothing else.
#pragma once

#include <atomic>
#include <functional>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "common/search/time_manager.hpp"
#include "loa/engine/engine_options.hpp"
#include "loa/game.hpp"
#include "loa/search_game.hpp"
#include "loa/searchers.hpp"

namespace loa::engine {

using Result = search::SearchResult<Move>;
using IterationInfo = search::Iteration<Move>;

class Session {
public:
    Session();
    ~Session();
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    // Options (loa/engine/engine_options.hpp): Hash, Variant, Eval (its file read now), Rps,
    // Rules (the game's moves kept, replayed under the new rules), MoveOverhead, Threads,
    // MultiPV, and every search key (pvs, killers, history, ...) on its own. Names are
    // case-insensitive. Throws InputError, the options then as they were; refuses while a
    // search runs.
    void set_option(std::string_view name, std::string_view value);
    std::vector<OptionInfo> options() const;

    // A new game from the start position (or `start`), with fresh search tables.
    void new_game(const Position& start = Position::start());
    // Replaces the game (the caller builds and validates it first, so a bad command never
    // leaves a half-changed game behind).
    void set_game(Game game);
    const Game& game() const { return game_; }
    Game& game() { return game_; }
    const RuleSet& rules() const { return settings_.rules; }

    // Starts a search of the current position on the search thread. `on_iteration` and
    // `on_done` run on that thread; if the search fails there (an exception), `on_error` runs
    // with its message instead of `on_done`, so that the front end still answers. Throws (on
    // the calling thread, the session left idle) when the search cannot be set up, e.g. a
    // configuration the searcher refuses. `search_moves` (UCI's go searchmoves): the root moves
    // the search keeps to, the others left out (empty: every move); refused for MCTS, or when
    // none of them is legal.
    void start(const search::ClockLimits& clock, std::function<void(const IterationInfo&)> on_iteration,
               std::function<void(const Result&)> on_done, std::function<void(const std::string&)> on_error,
               const std::vector<Move>& search_moves = {});
    // Searches on the calling thread.
    Result think(const search::ClockLimits& clock, const std::function<void(const IterationInfo&)>& on_iteration = {});
    void stop();  // asks a running search to end (its on_done still runs)
    // A search started with clock.ponder becomes a timed one (UCI ponderhit); from the thread
    // that started it.
    void ponderhit();
    void wait();  // until the search thread is done
    bool searching() const { return searching_.load(); }
    // Every search stops after this many nodes at most (0: no cap): what fuzzers and tests
    // use to drive the protocols with arbitrary 'go' commands.
    void cap_nodes(std::uint64_t nodes) { node_cap_ = nodes; }
    // Builds the search tables now (a large TT takes a while to allocate and clear) so that
    // the next search's clock does not pay for it: UCI's isready, GTP after set_option.
    void prepare();
    // What the search tables of the current options claim: "memory 48 MB: hash 16 MB + ...".
    // Any amount is allowed (the operator's choice); a table the machine cannot allocate is
    // refused with InputError and the options go back to the last ones that could search.
    std::string memory_text() const;
    double memory_mb() const;
    // Frees the search tables (they are rebuilt, empty, by the next search): an idle session
    // of a server holds no memory.
    void release();

private:
    variant::VariantSearcher<SearchGame>& searcher();
    // The time plan of the next search (kept for ponderhit), then the search itself.
    void plan(const search::ClockLimits& clock);
    std::vector<std::uint16_t> left_out(const std::vector<Move>& search_moves);
    Result run(const std::function<void(const IterationInfo&)>& on_iteration, const std::vector<std::uint16_t>& left_out);
    static Game replayed(const Game& game, const RuleSet& rules);

    EngineSettings settings_;
    variant::VariantConfig built_config_;  // of the last searcher built: where a failed allocation returns
    // The evaluation and realization probabilities as the options read them: every searcher
    // starts from a copy (a network is shared, not read again), so that a file is read once, when
    // its option is set, and a file changed or removed afterwards changes no search.
    SearchGame evaluation_;
    std::optional<RealizationProbabilities> realization_;
    std::uint64_t node_cap_ = 0;
    std::unique_ptr<variant::VariantSearcher<SearchGame>> searcher_;
    Game game_;
    std::unique_ptr<search::TimeManager> time_;  // the running (or last) search's plan
    std::thread thread_;
    std::atomic<bool> stop_{false};
    std::atomic<bool> searching_{false};
};

// Serialises lines written by the protocol thread and the search thread.
class Output {
public:
    explicit Output(std::ostream& stream);
    void line(const std::string& text);

private:
    std::ostream& stream_;
    std::mutex mutex_;
};

}  // namespace loa::engine
