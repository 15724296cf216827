// Plain negamax (no pruning, no quiescence) over any search::Game, for the synthetic trees of
// tests/support/artificial_tree.hpp: terminal status of reached positions, repetition of a position on
// the current path as a draw, mate-distance scores. Lines of Action has its own oracle,
// written from the rules alone: tests/support/rules_minimax.hpp.
#pragma once

#include <algorithm>
#include <vector>

#include "common/search/game.hpp"
#include "common/search/score.hpp"

namespace reference {

template <search::Game G>
class Minimax {
public:
    explicit Minimax(const G& game) : game_(game) {}

    search::Score value(typename G::Position pos, int depth) {
        path_.assign(1, game_.key(pos));
        return negamax(pos, depth, 0);
    }

    std::uint64_t leaves() const { return leaves_; }

private:
    // The status belongs to the side to move in the reached position.
    search::Score terminal(search::Status s, int ply) const {
        if (s == search::Status::Win) return search::win_in(ply);
        if (s == search::Status::Loss) return search::loss_in(ply);
        return search::DrawScore;
    }

    bool repeated() const {
        if (!game_.repetition_draws()) return false;
        const auto key = path_.back();
        return std::find(path_.begin(), path_.end() - 1, key) != path_.end() - 1;
    }

    search::Score negamax(typename G::Position& pos, int depth, int ply) {
        if (ply > 0) {
            if (const auto s = game_.status(pos); s != search::Status::Ongoing) return terminal(s, ply);
            if (repeated()) return search::DrawScore;
        }
        if (depth == 0) {
            ++leaves_;
            return game_.evaluate(pos);
        }
        typename G::MoveList moves;
        game_.generate(pos, moves);
        search::Score best = -search::Infinity;
        for (const auto m : moves) {
            game_.make(pos, m);
            path_.push_back(game_.key(pos));
            best = std::max(best, -negamax(pos, depth - 1, ply + 1));
            path_.pop_back();
            game_.unmake(pos, m);
        }
        return best;
    }

    const G& game_;
    std::vector<std::uint64_t> path_;
    std::uint64_t leaves_ = 0;
};

}  // namespace reference
