// Plain minimax (negamax without any pruning) over any search::Game, with the same rules the
// search applies: terminal status of reached positions, repetition of a position on the
// current path as a draw, mate-distance scores, and full-width quiescence with stand-pat.
// It is the oracle the searcher's values are checked against.
#pragma once

#include <algorithm>
#include <vector>

#include "common/search/game.hpp"
#include "common/search/score.hpp"

namespace reference {

template <search::Game G>
class Minimax {
public:
    Minimax(const G& game, int qsearch_level, int qsearch_plies = 4)
        : game_(game), qlevel_(qsearch_level), qplies_(qsearch_plies) {}

    search::Score value(typename G::Position pos, int depth) {
        path_.assign(1, game_.key(pos));
        return negamax(pos, depth, 0);
    }

    std::uint64_t leaves() const { return leaves_; }

private:
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
        if (depth == 0) return quiescence(pos, ply, 0);
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

    search::Score quiescence(typename G::Position& pos, int ply, int qply) {
        ++leaves_;
        search::Score best = game_.evaluate(pos);
        if (qlevel_ == 0 || qply >= qplies_) return best;
        typename G::MoveList moves;
        game_.generate(pos, moves);
        for (const auto m : moves) {
            if (!game_.is_quiescence_move(pos, m, qlevel_)) continue;
            game_.make(pos, m);
            const auto s = game_.status(pos);
            best = std::max(best, s != search::Status::Ongoing ? terminal(s, ply + 1) : -quiescence(pos, ply + 1, qply + 1));
            game_.unmake(pos, m);
        }
        return best;
    }

    const G& game_;
    int qlevel_;
    int qplies_;
    std::vector<std::uint64_t> path_;
    std::uint64_t leaves_ = 0;
};

}  // namespace reference
