// The searcher a variant string names: the alpha-beta core (lazy SMP, with the proof-number
// solver in front when solver=N) or Monte Carlo tree search (algorithm=mcts). The engine, the
// match runner's in-process players and `loa analyze` search through this one type, so that a
// variant string means the same search everywhere; tools that measure the alpha-beta tree
// itself (tree sizes, margins, the bench signature) use search::Searcher and refuse MCTS.
#pragma once

#include <functional>
#include <span>
#include <variant>
#include <vector>

#include "common/mcts/mcts.hpp"
#include "common/solver/solving_searcher.hpp"
#include "common/variant/config.hpp"

namespace variant {

template <search::Game G>
class VariantSearcher {
public:
    using Position = typename G::Position;
    using Move = typename G::Move;
    using Result = search::SearchResult<Move>;
    using IterationCallback = typename mcts::Mcts<G>::IterationCallback;

    // Throws InputError for what the variant's searcher cannot do (e.g. progressive bias
    // without the game's realization probabilities).
    VariantSearcher(G game, const VariantConfig& config) : config_(config), searcher_(make(std::move(game), config)) {}

    const VariantConfig& config() const { return config_; }

    // Forgets what earlier searches learnt: tables, the solver's proofs, the MCTS tree.
    void new_game() {
        std::visit([](auto& s) { s.new_game(); }, searcher_);
    }

    Result search(const Position& root, const search::SearchLimits& limits, std::span<const std::uint64_t> history = {},
                  const IterationCallback& on_iteration = {}) {
        return std::visit([&](auto& s) { return s.search(root, limits, history, on_iteration); }, searcher_);
    }

    // Whether search_lines gives several lines (the alpha-beta search does; MCTS one line).
    bool multipv_capable() const { return config_.algorithm == Algorithm::AlphaBeta; }

    // MultiPV (search/multipv.hpp): `lines` lines a depth, each depth's lines at once to
    // `on_depth`, best first. One line, or MCTS: search() itself, each report a one-line depth.
    Result search_lines(const Position& root, const search::SearchLimits& limits, std::span<const std::uint64_t> history,
                        int lines, const std::function<void(const std::vector<search::Iteration<Move>>&)>& on_depth) {
        if (lines > 1 && multipv_capable())
            return std::get<0>(searcher_).search_lines(root, limits, history, lines, on_depth);
        return search(root, limits, history, [&](const search::Iteration<Move>& it) {
            if (on_depth) on_depth({it});
        });
    }

private:
    using Searchers = std::variant<solver::SolvingSearcher<G>, mcts::Mcts<G>>;

    static Searchers make(G game, const VariantConfig& config) {
        if (config.algorithm == Algorithm::AlphaBeta)
            return Searchers(std::in_place_index<0>, std::move(game), config);
        return Searchers(std::in_place_index<1>, std::move(game), config.mcts, config.threads);
    }

    VariantConfig config_;
    Searchers searcher_;
};

}  // namespace variant
