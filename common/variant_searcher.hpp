// The searcher a variant string names: the alpha-beta core (lazy SMP, with the proof-number
// solver in front when solver=N) or Monte Carlo tree search (algorithm=mcts). The engine, the
// match runner's in-process players and `loa analyze` search through this one type, so that a
// variant string means the same search everywhere; tools that measure the alpha-beta tree
// itself (tree sizes, margins, the bench signature) use search::Searcher and refuse MCTS.
#pragma once

#include <span>
#include <variant>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/mcts/mcts.hpp"
#include "common/solver/solving_searcher.hpp"

namespace common {

template <search::Game G>
class VariantSearcher {
public:
    using Position = typename G::Position;
    using Move = typename G::Move;
    using Result = search::SearchResult<Move>;
    using IterationCallback = typename mcts::Mcts<G>::IterationCallback;

    // Throws InputError for what the variant's searcher cannot do (MCTS on several threads).
    VariantSearcher(G game, const search::SearchConfig& config) : config_(config), searcher_(make(std::move(game), config)) {}

    const search::SearchConfig& config() const { return config_; }

    // Forgets what earlier searches learnt: tables, the solver's proofs, the MCTS tree.
    void new_game() {
        std::visit([](auto& s) { s.new_game(); }, searcher_);
    }

    Result search(const Position& root, const search::SearchLimits& limits, std::span<const std::uint64_t> history = {},
                  const IterationCallback& on_iteration = {}) {
        return std::visit([&](auto& s) { return s.search(root, limits, history, on_iteration); }, searcher_);
    }

private:
    using Searchers = std::variant<solver::SolvingSearcher<G>, mcts::Mcts<G>>;

    static Searchers make(G game, const search::SearchConfig& config) {
        if (config.algorithm == search::Algorithm::AlphaBeta)
            return Searchers(std::in_place_index<0>, std::move(game), config);
        if (config.threads > 1)
            throw InputError(fmt::format("MCTS searches on one thread (threads={} asked)", config.threads));
        return Searchers(std::in_place_index<1>, std::move(game), config.mcts);
    }

    search::SearchConfig config_;
    Searchers searcher_;
};

}  // namespace common
