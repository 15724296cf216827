// How far a proven win is. The proof-number solver proves a position won without a distance,
// and a front end that printed one anyway ("mate 64") would tell every GUI something false.
// This finds the true distance and a line that reaches it: the shortest forced win, by
// iterative deepening over plies of a full-width alpha-beta over game results alone (no
// evaluation, no table, no pruning: a position not decided within the plies is worth a draw),
// so the first depth that finds a win is its exact distance. Within a node budget: a win too
// far for it keeps no distance (the caller says "won" without one).
//
// The rules are the search's (search.hpp): a position repeating one of the line (the root
// included) is a draw, one of the game before the root at its third occurrence, and a
// game-length rule draws at its ply unless a move decides the game first. Repetitions cannot
// lengthen a shortest win anyway: along a line that always plays a fastest win, the plies to
// the win fall at every move, so no position recurs.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "common/search/game.hpp"
#include "common/search/limits.hpp"
#include "common/search/score.hpp"

namespace solver {

struct WinDistanceLimits {
    std::uint64_t nodes = 100'000;  // every position searched, all depths together
    int max_plies = search::MaxPly - 2;
    double time_ms = 0;  // 0: none
    const std::atomic<bool>* stop = nullptr;
    int game_plies_left = 0;  // > 0: the game-length rule draws the game that many plies below the root
};

template <class Move>
struct WinLine {
    int plies = 0;           // the win comes with the position reached after this many plies
    std::vector<Move> line;  // the winner's fastest moves, the defender's longest replies
};

template <search::Game G>
class WinDistance {
public:
    using Position = typename G::Position;
    using Move = typename G::Move;

    WinDistance(const G& game, const WinDistanceLimits& limits) : game_(game), limits_(limits) {}

    // The shortest forced win of `root`'s side to move, if one is found within the limits.
    // `history`: the game's earlier keys since the last irreversible move, oldest first,
    // without the root (as the search takes them).
    std::optional<WinLine<Move>> shortest_win(const Position& root, std::span<const std::uint64_t> history) {
        pos_ = root;
        history_ = history;
        path_[0] = game_.key(pos_);
        for (int plies = 1; plies <= std::min(limits_.max_plies, search::MaxPly - 2); ++plies) {
            // A window around a win at exactly this ply: none nearer exists (the last depth
            // found none), so anything above it is this win, and anything below is no win.
            const search::Score win = search::win_in(plies);
            // A win found is whole even if the budget ran out after it: an aborted subtree
            // returns no win, so only a finished proof of this distance reaches the root.
            const search::Score value = node(0, plies, win - 1, win + 1);
            if (value >= win)
                return WinLine<Move>{plies, std::vector<Move>(line_[0].begin(), line_[0].begin() + length_[0])};
            if (aborted_) return std::nullopt;
        }
        return std::nullopt;
    }

    std::uint64_t nodes() const { return nodes_; }

private:
    search::Score node(int ply, int depth, search::Score alpha, search::Score beta) {
        length_[ply] = 0;
        if (out_of_budget()) return 0;  // every position visited counts, leaves too
        if (ply > 0) {
            if (const search::Status s = game_.status(pos_); s != search::Status::Ongoing)
                return s == search::Status::Win ? search::win_in(ply) : s == search::Status::Loss ? search::loss_in(ply) : 0;
            if (drawn(ply)) return 0;
        }
        if (depth == 0) return 0;  // not decided within the plies: no win here
        typename G::MoveList moves;
        game_.generate(pos_, moves);
        search::Score best = -search::Infinity;
        for (const Move m : moves) {
            game_.make(pos_, m);
            path_[static_cast<std::size_t>(ply) + 1] = game_.key(pos_);
            const search::Score value = -node(ply + 1, depth - 1, -beta, -alpha);
            game_.unmake(pos_, m);
            if (aborted_) return 0;
            if (value > best) {
                best = value;
                if (value > alpha) {
                    alpha = value;
                    take_line(ply, m);
                    // The winner's side (even plies) cannot do better than the win at this
                    // distance, beta - 1: searching on would only risk the budget.
                    if (value >= beta || (ply % 2 == 0 && value >= beta - 1)) break;
                }
            }
        }
        return best;
    }

    // The position at `ply` is drawn by repetition or by the game's length.
    bool drawn(int ply) const {
        if (limits_.game_plies_left > 0 && ply >= limits_.game_plies_left) return true;
        if (!game_.repetition_draws()) return false;
        const std::uint64_t key = path_[static_cast<std::size_t>(ply)];
        if (std::find(path_.begin(), path_.begin() + ply, key) != path_.begin() + ply) return true;
        return std::count(history_.begin(), history_.end(), key) >= 2;
    }

    bool out_of_budget() {
        ++nodes_;
        if (nodes_ > limits_.nodes) aborted_ = true;
        if ((nodes_ & 1023) == 0) {
            if (limits_.stop && limits_.stop->load(std::memory_order_relaxed)) aborted_ = true;
            if (limits_.time_ms > 0 && clock_.elapsed_ms() >= limits_.time_ms) aborted_ = true;
        }
        return aborted_;
    }

    void take_line(int ply, Move m) {
        const auto at = static_cast<std::size_t>(ply);
        line_[at][0] = m;
        std::copy_n(line_[at + 1].begin(), length_[at + 1], line_[at].begin() + 1);
        length_[at] = length_[at + 1] + 1;
    }

    const G& game_;
    WinDistanceLimits limits_;
    Position pos_{};
    std::span<const std::uint64_t> history_;
    search::Stopwatch clock_;
    std::uint64_t nodes_ = 0;
    bool aborted_ = false;
    std::array<std::uint64_t, search::MaxPly> path_{};  // the keys of the line, root first
    std::array<std::array<Move, search::MaxPly>, search::MaxPly> line_{};
    std::array<int, search::MaxPly> length_{};
};

}  // namespace solver
