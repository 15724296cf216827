// Lazy SMP (as in Stockfish since 2015): several searchers work on the same root at the same
// time and share only the transposition table; what one thread stores, the others find. The
// main thread's result is the answer; helpers start and stop with it and run at staggered
// depths (Searcher::set_helper). With one thread this is exactly a Searcher: same moves, same
// node counts, bit for bit.
#pragma once

#include <atomic>
#include <exception>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include "common/search/search.hpp"

namespace search {

template <Game G>
class ParallelSearcher {
public:
    using Position = typename G::Position;
    using Move = typename G::Move;
    using Result = SearchResult<Move>;
    using IterationCallback = typename Searcher<G>::IterationCallback;

    ParallelSearcher(G game, SearchConfig config) {
        const int threads = std::max(1, config.threads);
        if (threads == 1) {
            searchers_.push_back(std::make_unique<Searcher<G>>(std::move(game), std::move(config)));
            return;
        }
        if (config.tt) shared_tt_ = std::make_shared<TranspositionTable>(static_cast<std::size_t>(config.tt_mb), config.tt_replace);
        for (int i = 0; i < threads; ++i) {
            searchers_.push_back(std::make_unique<Searcher<G>>(game, config, shared_tt_));
            searchers_.back()->set_helper(i);
        }
    }

    const SearchConfig& config() const { return searchers_.front()->config(); }
    const G& game() const { return searchers_.front()->game(); }
    int threads() const { return static_cast<int>(searchers_.size()); }
    Searcher<G>& main() { return *searchers_.front(); }

    void new_game() {
        if (shared_tt_) shared_tt_->clear();
        for (auto& s : searchers_) s->new_game();
    }

    // As Searcher::search. Iteration reports come from the main thread (its own node count);
    // the result's node count adds up every thread.
    Result search(const Position& root, const SearchLimits& limits, std::span<const std::uint64_t> history = {},
                  const IterationCallback& on_iteration = {}) {
        if (searchers_.size() == 1) return searchers_.front()->search(root, limits, history, on_iteration);
        if (shared_tt_ && !limits.same_search) shared_tt_->new_search();
        std::atomic<bool> stop_helpers{false};
        SearchLimits helper_limits = limits;
        helper_limits.nodes = 0;
        helper_limits.soft_time_ms = helper_limits.hard_time_ms = 0;
        helper_limits.stop = &stop_helpers;
        helper_limits.timer = nullptr;  // the main thread's clock decides for everyone
        std::vector<std::uint64_t> helper_nodes(searchers_.size(), 0);
        // A helper's exception is kept for the caller: escaping its thread would terminate the
        // program, and the search must not pretend the helper ran.
        std::vector<std::exception_ptr> helper_errors(searchers_.size());
        Result result;
        {
            std::vector<std::jthread> helpers;
            try {
                // Inside the try: if starting a thread fails, the helpers already running have
                // no limit of their own and must be told to stop before they are joined.
                for (std::size_t i = 1; i < searchers_.size(); ++i)
                    helpers.emplace_back([&, i] {
                        try {
                            helper_nodes[i] = searchers_[i]->search(root, helper_limits, history).stats.nodes;
                        } catch (...) {
                            helper_errors[i] = std::current_exception();
                        }
                    });
                result = searchers_.front()->search(root, limits, history, on_iteration);
            } catch (...) {
                stop_helpers.store(true, std::memory_order_relaxed);  // before the helpers are joined
                throw;
            }
            stop_helpers.store(true, std::memory_order_relaxed);
        }  // joins the helpers
        for (const std::exception_ptr& error : helper_errors)
            if (error) std::rethrow_exception(error);
        for (const std::uint64_t n : helper_nodes) result.stats.nodes += n;
        return result;
    }

private:
    std::shared_ptr<TranspositionTable> shared_tt_;
    std::vector<std::unique_ptr<Searcher<G>>> searchers_;
};

}  // namespace search
