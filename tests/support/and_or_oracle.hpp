// An independent AND-OR test oracle for exact game values of LOA positions under a ply limit,
// written from the rules alone (not from the engine's solver or search). It is a plain
// recursive negamax / AND-OR search over copies of Position: no transposition table, no move
// ordering, no pruning other than stopping at a node once its result is settled (a win found
// for the side choosing, or a refutation found against the attacker). It is slow on purpose;
// use it on small positions and small ply limits.
//
// Rules (Computer Olympiad, oracle::Options{}; solve_with_ply_limit also takes the variant in
// which a move that connects both sides wins for the mover):
//  - Plies are counted from the root (ply 0). Every legal move, including the pass that a side
//    without a real move must make, is one ply.
//  - The root is never scored as terminal, even when a side is already connected in it.
//  - A position reached at ply p >= 1 by a move of side M is scored, in this order:
//      1. connection rule (8-connectivity, oracle::outcome_after_move with Options{}):
//         M connected and the opponent not -> M wins; the opponent connected and M not -> the
//         opponent wins (a capture can leave the opponent in one group); both connected ->
//         draw (the variant: M wins). A decided position is final, even if it repeats an
//         earlier one.
//      2. repetition: its key (which includes the side to move) equals the key of a position
//         earlier on the same line from the root, the root included (plies 0 .. p-1) -> draw.
//      3. ply limit L: p == L -> draw.
//      4. otherwise the game goes on: the side to move picks the best of its legal moves.
//
// Value definitions:
//  - solve_with_ply_limit(root, L), L >= 1: the exact minimax value of that finite game, from
//    the point of view of the root's side to move: Win when that side can force a connection
//    win at some ply <= L whatever the opponent does; Loss when the opponent can force one;
//    Draw otherwise.
//  - forced_win_within(root, root_side_attacks, N), N >= 0: true when the attacker (the root's
//    side to move if root_side_attacks, else the other side) can force a position, at some ply
//    1 .. N, decided by the connection rule in the attacker's favour, whatever the defender
//    does; a repetition, a draw by connection, a defender's win or reaching ply N undecided
//    all count as failure. N = 0 gives false.
//  So forced_win_within(root, true, L) == (solve_with_ply_limit(root, L) == Value::Win) and
//  forced_win_within(root, false, L) == (solve_with_ply_limit(root, L) == Value::Loss).
//
// Note: the repetition rule cannot change either value. A side with a forced win under these
// rules without the repetition rule also has one with it: playing always a move that wins in
// the fewest plies makes the number of plies to the win fall strictly along the game, so no
// position can recur; and a repetition only ever turns a line into a draw. detail::solve keeps
// a switch for the rule so that tests can check this equivalence.
#pragma once

#include <algorithm>
#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <vector>

#include "loa/colour.hpp"
#include "loa/move.hpp"
#include "loa/movegen.hpp"
#include "loa/position.hpp"
#include "support/rules_minimax.hpp"

namespace and_or {

enum class Value { Loss = -1, Draw = 0, Win = 1 };  // from the root's side to move

inline Value negate(Value v) { return static_cast<Value>(-static_cast<int>(v)); }

inline const char* value_name(Value v) {
    switch (v) {
        case Value::Loss: return "Loss";
        case Value::Draw: return "Draw";
        case Value::Win: return "Win";
    }
    return "?";
}

// GoogleTest prints values by name.
inline void PrintTo(Value v, std::ostream* os) { *os << value_name(v); }
inline std::ostream& operator<<(std::ostream& os, Value v) { return os << value_name(v); }

namespace detail {

struct Stats {
    std::uint64_t nodes = 0;             // positions reached at ply >= 1
    std::uint64_t repetition_draws = 0;  // of which scored as draws by repetition
};

struct Settings {
    int ply_limit = 1;
    bool repetition_draws = true;  // false only for tests of the rule's neutrality
    bool simultaneous_mover_wins = false;  // a move connecting both sides: a draw (false) or the mover's win
    Stats* stats = nullptr;
};

inline bool on_path(const std::vector<std::uint64_t>& path, std::uint64_t key) {
    return std::find(path.begin(), path.end(), key) != path.end();
}

// Value of `pos`, reached at `ply` (>= 1) by a move of the side not to move in it, from the
// point of view of its side to move. `path` holds the keys of plies 0 .. ply-1 of this line.
inline Value value_after_move(const loa::Position& pos, int ply, const Settings& settings,
                              std::vector<std::uint64_t>& path);

// Value of `pos` at `ply` (< ply_limit), not terminal, from its side to move's view: the best
// over all legal moves of the negated value of the position the move reaches.
inline Value value_to_move(const loa::Position& pos, int ply, const Settings& settings,
                           std::vector<std::uint64_t>& path) {
    path.push_back(pos.key());
    Value best = Value::Loss;  // the lowest value; there is always a move (a stuck side passes)
    for (const loa::Move move : loa::legal_moves(pos)) {
        loa::Position child = pos;
        child.make(move);
        const Value value = negate(value_after_move(child, ply + 1, settings, path));
        if (static_cast<int>(value) > static_cast<int>(best)) best = value;
        if (best == Value::Win) break;  // nothing beats a win
    }
    path.pop_back();
    return best;
}

inline Value value_after_move(const loa::Position& pos, int ply, const Settings& settings,
                              std::vector<std::uint64_t>& path) {
    if (settings.stats) ++settings.stats->nodes;
    // 1. Connection rule, from the mover's view; this node belongs to the other side.
    oracle::Options rules;
    rules.simultaneous_mover_wins = settings.simultaneous_mover_wins;
    switch (oracle::outcome_after_move(pos, rules)) {
        case oracle::Outcome::MoverWins: return Value::Loss;
        case oracle::Outcome::MoverLoses: return Value::Win;
        case oracle::Outcome::Draw: return Value::Draw;
        case oracle::Outcome::None: break;
    }
    // 2. Repetition of a position earlier on this line, the root included.
    if (settings.repetition_draws && on_path(path, pos.key())) {
        if (settings.stats) ++settings.stats->repetition_draws;
        return Value::Draw;
    }
    // 3. Ply limit.
    if (ply >= settings.ply_limit) return Value::Draw;
    // 4. The game goes on.
    return value_to_move(pos, ply, settings, path);
}

inline Value solve(const loa::Position& root, const Settings& settings) {
    if (settings.ply_limit < 1) throw std::invalid_argument("and_or::solve: ply_limit must be at least 1");
    std::vector<std::uint64_t> path;
    return value_to_move(root, 0, settings, path);  // the root is never terminal
}

// AND-OR form. `pos` is at ply `ply` (< max_plies), not terminal, not repeated. True when
// `attacker` can force a connection win from it by ply max_plies.
inline bool attacker_forces(const loa::Position& pos, loa::Colour attacker, int ply, int max_plies,
                            std::vector<std::uint64_t>& path);

// True when the position `child`, reached at `ply` (>= 1), is won for `attacker` by force.
inline bool attacker_forces_after_move(const loa::Position& child, loa::Colour attacker, int ply, int max_plies,
                                       std::vector<std::uint64_t>& path) {
    const loa::Colour mover = ~child.side_to_move();
    switch (oracle::outcome_after_move(child, oracle::Options{})) {
        case oracle::Outcome::MoverWins: return mover == attacker;
        case oracle::Outcome::MoverLoses: return ~mover == attacker;
        case oracle::Outcome::Draw: return false;
        case oracle::Outcome::None: break;
    }
    if (on_path(path, child.key())) return false;  // repetition: a draw, not a win
    if (ply >= max_plies) return false;            // out of plies
    return attacker_forces(child, attacker, ply, max_plies, path);
}

inline bool attacker_forces(const loa::Position& pos, loa::Colour attacker, int ply, int max_plies,
                            std::vector<std::uint64_t>& path) {
    const bool or_node = pos.side_to_move() == attacker;  // attacker: some move wins; defender: every move loses
    bool result = !or_node;
    path.push_back(pos.key());
    for (const loa::Move move : loa::legal_moves(pos)) {
        loa::Position child = pos;
        child.make(move);
        const bool won = attacker_forces_after_move(child, attacker, ply + 1, max_plies, path);
        if (or_node && won) {
            result = true;
            break;
        }
        if (!or_node && !won) {
            result = false;
            break;
        }
    }
    path.pop_back();
    return result;
}

}  // namespace detail

// Exact game value of `root` (never scored as terminal itself) when the game is drawn after
// `ply_limit` plies, from the root's side to move's point of view. ply_limit >= 1.
// simultaneous_mover_wins: the variant rule (a move connecting both sides wins for the mover).
inline Value solve_with_ply_limit(const loa::Position& root, int ply_limit, bool simultaneous_mover_wins = false) {
    detail::Settings settings;
    settings.ply_limit = ply_limit;
    settings.simultaneous_mover_wins = simultaneous_mover_wins;
    return detail::solve(root, settings);
}

// True when the attacker (the root's side to move if root_side_attacks, else the other side)
// can force a connection win within `max_plies` plies of the root, repetitions counting as
// draws. max_plies >= 0 (0 gives false).
inline bool forced_win_within(const loa::Position& root, bool root_side_attacks, int max_plies) {
    if (max_plies < 0) throw std::invalid_argument("and_or::forced_win_within: max_plies must not be negative");
    if (max_plies == 0) return false;
    const loa::Colour attacker = root_side_attacks ? root.side_to_move() : ~root.side_to_move();
    std::vector<std::uint64_t> path;
    return detail::attacker_forces(root, attacker, 0, max_plies, path);
}

}  // namespace and_or
