// An independent test oracle: a plain, unpruned negamax over the LOA rules, written from the
// rules alone (not from the engine's search). Slow on purpose: it is meant for depths 1-3.
//
// Value definition (see rules_oracle_test.cpp for checks of the oracle itself):
//  - WIN = 30000; a game decided at ply p (moves from the root to the deciding position) is
//    worth +(WIN - p) to the winner and -(WIN - p) to the loser; a draw is 0.
//  - Connection (8-connectivity): after a move by M (the side not to move in the reached
//    position), both sides connected -> draw (or a win for M with simultaneous_mover_wins);
//    only M connected -> M wins; only the opponent connected -> the opponent wins.
//  - At a node at ply p > 0: connection rule first, then repetition (key on the path from the
//    root to the parent, or at least twice in game_history), then quiescence at depth 0, else
//    the max over all legal moves (pass included when it is the only move) of -child.
//  - The root is never scored as terminal or repeated.
//  - Quiescence: stand pat = evaluate; captures (level 1: all; level 2: those that change
//    either side's euler_numerator) up to qsearch_plies capture plies; a capture that ends the
//    game is worth the game result at the ply after it.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <utility>
#include <vector>

#include "loa/bitboard.hpp"
#include "loa/colour.hpp"
#include "loa/move.hpp"
#include "loa/movegen.hpp"
#include "loa/position.hpp"

namespace oracle {

inline constexpr int WIN = 30000;

struct Options {
    int qsearch_level = 0;     // 0: no quiescence; 1: all captures; 2: captures that change either side's euler_numerator()
    int qsearch_plies = 4;     // at most this many capture plies below the horizon
    bool simultaneous_mover_wins = false;  // false: a move connecting both sides is a draw (Olympiad)
    bool repetition_draws = true;
};

// True when the pieces of `pieces` form at most one 8-connected group (a single piece is
// connected). An empty set has no group at all and also counts as connected; it never arises
// in a game, since a side is connected (and the game over) once it is down to one piece.
inline bool connected(loa::Bitboard pieces) {
    if (pieces == 0) return true;
    const int first = std::countr_zero(pieces);
    std::vector<int> stack{first};
    loa::Bitboard reached = loa::Bitboard{1} << first;
    while (!stack.empty()) {
        const int square = stack.back();
        stack.pop_back();
        const int file = square % 8, rank = square / 8;
        for (int df = -1; df <= 1; ++df) {
            for (int dr = -1; dr <= 1; ++dr) {
                if (df == 0 && dr == 0) continue;
                const int f = file + df, r = rank + dr;
                if (f < 0 || f > 7 || r < 0 || r > 7) continue;
                const loa::Bitboard bit = loa::Bitboard{1} << (r * 8 + f);
                if ((pieces & bit) && !(reached & bit)) {
                    reached |= bit;
                    stack.push_back(r * 8 + f);
                }
            }
        }
    }
    return reached == pieces;
}

enum class Outcome { None, MoverWins, MoverLoses, Draw };

// The connection rule for a position just reached by a move of the side NOT to move in it.
inline Outcome outcome_after_move(const loa::Position& pos, const Options& options) {
    const loa::Colour mover = ~pos.side_to_move();
    const bool mover_connected = connected(pos.pieces(mover));
    const bool opponent_connected = connected(pos.pieces(pos.side_to_move()));
    if (mover_connected && opponent_connected)
        return options.simultaneous_mover_wins ? Outcome::MoverWins : Outcome::Draw;
    if (mover_connected) return Outcome::MoverWins;
    if (opponent_connected) return Outcome::MoverLoses;
    return Outcome::None;
}

// Game result at `ply` from the point of view of the side that made the last move.
inline int mover_score(Outcome outcome, int ply) {
    switch (outcome) {
        case Outcome::MoverWins: return WIN - ply;
        case Outcome::MoverLoses: return -(WIN - ply);
        case Outcome::Draw: return 0;
        case Outcome::None: break;
    }
    throw std::logic_error("oracle::mover_score: the game is not over");
}

namespace detail {

using Evaluate = std::function<int(const loa::Position&)>;

inline bool is_quiescence_capture(const loa::Position& pos, loa::Move move, const Options& options) {
    if (!move.is_capture()) return false;
    if (options.qsearch_level == 1) return true;
    // Level 2: only captures after which either side's Euler numerator differs.
    loa::Position after = pos;
    after.make(move);
    return after.euler_numerator(loa::Colour::Black) != pos.euler_numerator(loa::Colour::Black) ||
           after.euler_numerator(loa::Colour::White) != pos.euler_numerator(loa::Colour::White);
}

// Quiescence value of `pos` (side to move's view) at `ply`, `capture_plies` below the horizon.
// The caller has already applied the connection rule to `pos`.
inline int quiescence(const loa::Position& pos, int ply, int capture_plies, const Evaluate& evaluate,
                      const Options& options) {
    const int stand = evaluate(pos);
    if (options.qsearch_level == 0 || capture_plies >= options.qsearch_plies) return stand;
    int best = stand;
    for (const loa::Move move : loa::legal_moves(pos)) {
        if (!is_quiescence_capture(pos, move, options)) continue;
        loa::Position child = pos;
        child.make(move);
        const Outcome outcome = outcome_after_move(child, options);
        const int value = outcome != Outcome::None
                              ? mover_score(outcome, ply + 1)
                              : -quiescence(child, ply + 1, capture_plies + 1, evaluate, options);
        best = std::max(best, value);
    }
    return best;
}

// Negamax value of `pos` (side to move's view) at `ply` with `depth` plies left. `path` holds
// the keys of the positions from the root to the parent of `pos` (empty at the root).
inline int search(const loa::Position& pos, int ply, int depth, const Evaluate& evaluate, const Options& options,
                  const std::vector<std::uint64_t>& game_history, std::vector<std::uint64_t>& path) {
    if (ply > 0) {
        const Outcome outcome = outcome_after_move(pos, options);
        // The outcome is from the mover's view; this node belongs to the other side.
        if (outcome != Outcome::None) return -mover_score(outcome, ply);
        if (options.repetition_draws) {
            const bool on_path = std::find(path.begin(), path.end(), pos.key()) != path.end();
            const bool twice_before = std::count(game_history.begin(), game_history.end(), pos.key()) >= 2;
            if (on_path || twice_before) return 0;
        }
    }
    if (depth == 0) return quiescence(pos, ply, 0, evaluate, options);

    path.push_back(pos.key());
    int best = -WIN - 1;  // below every possible value; there is always at least one move
    for (const loa::Move move : loa::legal_moves(pos)) {
        loa::Position child = pos;
        child.make(move);
        best = std::max(best, -search(child, ply + 1, depth - 1, evaluate, options, game_history, path));
    }
    path.pop_back();
    return best;
}

}  // namespace detail

// Value of `root` searched `depth` plies (depth >= 1), from the point of view of root's side to move.
// `game_history`: keys of the positions of the game before the root, oldest first, root excluded.
inline int minimax_value(const loa::Position& root, int depth, const std::function<int(const loa::Position&)>& evaluate,
                         const Options& options = {}, const std::vector<std::uint64_t>& game_history = {}) {
    if (depth < 1) throw std::invalid_argument("oracle::minimax_value: depth must be at least 1");
    if (options.qsearch_level < 0 || options.qsearch_level > 2)
        throw std::invalid_argument("oracle::minimax_value: qsearch_level must be 0, 1 or 2");
    std::vector<std::uint64_t> path;
    return detail::search(root, 0, depth, evaluate, options, game_history, path);
}

// The value of each legal move of `root` (in generation order), the move and depth - 1 plies
// below it, from root's side to move's point of view: the root's minimax_value is their
// maximum, and the k-th best of them is what a MultiPV search's k-th line must score.
inline std::vector<std::pair<loa::Move, int>> move_values(const loa::Position& root, int depth,
                                                          const std::function<int(const loa::Position&)>& evaluate,
                                                          const Options& options = {},
                                                          const std::vector<std::uint64_t>& game_history = {}) {
    if (depth < 1) throw std::invalid_argument("oracle::move_values: depth must be at least 1");
    std::vector<std::uint64_t> path{root.key()};
    std::vector<std::pair<loa::Move, int>> values;
    for (const loa::Move move : loa::legal_moves(root)) {
        loa::Position child = root;
        child.make(move);
        values.emplace_back(move, -detail::search(child, 1, depth - 1, evaluate, options, game_history, path));
    }
    return values;
}

}  // namespace oracle
