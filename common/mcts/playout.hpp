// The play-outs of Monte Carlo tree search (mcts.hpp plays one out from each leaf it reaches):
// how a leaf is scored, move by move to a cut-off or the game's end, and what the policies share
// (a worker's random stream, the evaluation as a win probability, the game's move knowledge).
// A policy is a choice of the next move (next_move) and of where the play-out stops
// (cutoff_plies); a fifth one is added there. No game type appears here.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "common/mcts/config.hpp"
#include "common/search/game.hpp"
#include "common/search/limits.hpp"
#include "common/search/score.hpp"
#include "common/search/search.hpp"

namespace mcts {

// xorshift64*: a seeded stream, so that a search with a play-out budget repeats exactly.
class Random {
public:
    explicit Random(std::uint64_t seed = 1) : state_(seed) {}
    std::uint32_t below(std::uint32_t n) {
        state_ ^= state_ >> 12;
        state_ ^= state_ << 25;
        state_ ^= state_ >> 27;
        const std::uint64_t x = state_ * 0x2545F4914F6CDD1DULL;
        return static_cast<std::uint32_t>((x >> 32) % n);
    }

private:
    std::uint64_t state_;
};

// An evaluation (for the side to move) as its chance to win: 1 / (1 + exp(-eval / eval_scale)).
inline double win_probability(search::Score eval, int eval_scale) {
    return 1.0 / (1.0 + std::exp(-static_cast<double>(eval) / eval_scale));
}

// Move knowledge (progressive bias, weighted play-outs): the game's realization probability
// of a move's category, floored so that no move is ruled out; a move without a category
// (a forced pass) counts as certain.
template <search::Game G>
std::span<const double> move_probabilities(const G& game) {
    if constexpr (search::has_realization<G>) return game.realization_probabilities();
    else return {};
}
template <search::Game G>
float move_prior(const G& game, const typename G::Position& pos, typename G::Move m) {
    if constexpr (search::has_realization<G>) {
        const int category = game.realization_category(pos, m);
        const auto p = game.realization_probabilities();
        if (category < 0 || static_cast<std::size_t>(category) >= p.size()) return 1.0f;
        return static_cast<float>(std::max(p[static_cast<std::size_t>(category)], 1e-3));
    } else {
        return 1.0f;
    }
}

// What the search around a play-out tells it.
struct PlayoutLimits {
    int game_plies_left = 0;                  // the game's ply limit from the search's root (0: none)
    const std::atomic<bool>* stop = nullptr;  // ends a searched move's search
};

// One worker's play-outs: the policy of the configuration, with the state it keeps between
// play-outs (the weights of a weighted draw, the searcher of alpha-beta play-outs).
template <search::Game G>
class Playouts {
public:
    using Position = typename G::Position;
    using Move = typename G::Move;
    using MoveList = typename G::MoveList;

    explicit Playouts(const MctsConfig& config) : config_(config) {}

    // A play-out from `pos` (at `ply` from the root); its result for pos's side to move.
    // `should_stop()`: whether the search must end now (asked before each searched move).
    template <class StopFn>
    double play(const G& game, Random& rng, Position pos, int ply, const PlayoutLimits& limits, StopFn&& should_stop) {
        const int cutoff = cutoff_plies();
        MoveList moves;
        for (int plies = 0;; ++plies) {
            // The result, from the side to move at this point, turned into the leaf's view.
            auto for_leaf = [&](double r) { return plies % 2 == 0 ? r : 1 - r; };
            if (plies > 0) {
                switch (game.status(pos)) {
                    case search::Status::Win: return for_leaf(1);
                    case search::Status::Loss: return for_leaf(0);
                    case search::Status::Draw: return 0.5;
                    case search::Status::Ongoing: break;
                }
            }
            if (limits.game_plies_left > 0 && ply + plies >= limits.game_plies_left) return 0.5;
            if (plies >= cutoff) return for_leaf(win_probability(game.evaluate(pos), config_.eval_scale));
            moves.clear();  // generate() appends
            game.generate(pos, moves);
            if (moves.size() == 0) return 0.5;  // a game with neither a move nor a pass: not LOA
            // A searched play-out takes milliseconds: out of time, the evaluation scores it now.
            if (config_.playout == Playout::AlphaBeta && should_stop())
                return for_leaf(win_probability(game.evaluate(pos), config_.eval_scale));
            game.make(pos, next_move(game, rng, pos, moves, ply + plies, limits));
        }
    }

private:
    // The plies a play-out plays before the evaluation scores it.
    int cutoff_plies() const {
        return config_.playout == Playout::Random ? config_.max_playout_plies : config_.cutoff_plies;
    }

    // The policy's move at `pos` (at `ply` from the root), among `moves` (at least one).
    Move next_move(const G& game, Random& rng, const Position& pos, const MoveList& moves, int ply,
                   const PlayoutLimits& limits) {
        switch (config_.playout) {
            case Playout::AlphaBeta:
                if (moves.size() > 1 && static_cast<int>(rng.below(100)) >= config_.ab_random_percent)
                    return searched_move(game, pos, ply, limits);
                break;  // a random move, so that play-outs from one leaf differ
            case Playout::Weighted: return weighted_move(game, rng, pos, moves);
            case Playout::Random:
            case Playout::EvalCutoff: break;
        }
        return moves[static_cast<std::size_t>(rng.below(static_cast<std::uint32_t>(moves.size())))];
    }

    // A move drawn in proportion to its realization probability.
    Move weighted_move(const G& game, Random& rng, const Position& pos, const MoveList& moves) {
        weights_.clear();
        double total = 0;
        for (const Move m : moves) weights_.push_back(total += move_prior(game, pos, m));
        const double r = total * (rng.below(1u << 24) / static_cast<double>(1u << 24));
        const auto at = std::upper_bound(weights_.begin(), weights_.end(), r) - weights_.begin();
        return moves[static_cast<std::size_t>(std::min<std::ptrdiff_t>(at, static_cast<std::ptrdiff_t>(moves.size()) - 1))];
    }

    // A play-out move of MC-LOAαβ: the best move of a shallow search of the alpha-beta core
    // (captures first and killers for its cut-offs, no quiescence: the evaluation at the
    // horizon, as the published play-outs use it). The same position gives the same move.
    Move searched_move(const G& game, const Position& pos, int ply, const PlayoutLimits& limits) {
        if (!searcher_) {
            search::SearchConfig c;  // plain alpha-beta
            c.captures_first = true;
            c.killers = 2;
            c.qsearch = 0;
            c.history_aging = false;
            searcher_ = std::make_unique<search::Searcher<G>>(game, c);
        }
        search::SearchLimits l;
        l.depth = config_.ab_depth;
        l.stop = limits.stop;
        if (limits.game_plies_left > 0) l.game_plies_left = limits.game_plies_left - ply;  // > 0: checked by the caller
        return searcher_->search(pos, l).best_move;
    }

    MctsConfig config_;
    std::vector<double> weights_;                    // cumulative move weights of a weighted play-out
    std::unique_ptr<search::Searcher<G>> searcher_;  // playout=ab
};

}  // namespace mcts
