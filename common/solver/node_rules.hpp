// What every proof-number algorithm here does the same way: the numbers a new leaf starts
// with, the repetition rule on the keys of the line that reached it, and a node's numbers from
// its children's.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>

#include "common/search/game.hpp"
#include "common/search/limits.hpp"
#include "common/solver/proof_numbers.hpp"

namespace solver {

// How a new leaf's numbers start. Uniform: 1 and 1. Mobility (as in Winands' LOA solvers):
// the number of moves of the side to move stands for the work of its goal, i.e. an OR leaf
// gets dn = moves and an AND leaf pn = moves.
enum class LeafInit { Uniform, Mobility };

template <search::Game G>
void set_leaf_numbers(const G& game, const typename G::Position& pos, bool or_node, LeafInit init, ProofNumber& pn,
                      ProofNumber& dn) {
    pn = dn = 1;
    if (init != LeafInit::Mobility) return;
    typename G::MoveList moves;
    game.generate(pos, moves);
    const auto n = static_cast<ProofNumber>(std::max<std::size_t>(1, moves.size()));
    (or_node ? dn : pn) = n;
}

// `keys`: the game's positions before the root (the first `game_history` of them), then the
// line from the root (a first-level line above it included) down to `keys.back()`, the
// position just reached. It is a draw when it repeats a position of the line, or one of the
// game's twice (its third occurrence); only positions with the same side to move count.
inline bool repeats(std::span<const std::uint64_t> keys, std::size_t game_history) {
    const std::uint64_t key = keys.back();
    int in_game = 0;
    for (std::size_t i = keys.size() - 1; i >= 2;) {
        i -= 2;
        if (keys[i] != key) continue;
        if (i >= game_history || ++in_game == 2) return true;
    }
    return false;
}

// The size a second-level tree may reach (PN², dfpn-pn, pds-pn): `fraction` times the first level's
// size, at least `min_nodes`, and at least 2 so that it expands its root.
inline std::uint64_t second_level_bound(double fraction, std::uint64_t min_nodes, std::uint64_t first_level_size) {
    return std::max<std::uint64_t>({2, min_nodes, static_cast<std::uint64_t>(fraction * static_cast<double>(first_level_size))});
}

// The stop flag is set or the time is up (checked every so many expansions by the caller).
inline bool stop_requested(const search::Stopwatch& clock, const search::SearchLimits& limits) {
    if (limits.stop && limits.stop->load(std::memory_order_relaxed)) return true;
    return limits.hard_time_ms > 0 && clock.elapsed_ms() >= limits.hard_time_ms;
}

// A node's numbers from its children's (anything with pn, dn and path_dependent): OR: pn =
// min, dn = sum; AND: the other way round. A solved node depends on the path when its verdict
// does: through the one child that decides it (the OR node proven by a child, the AND node
// disproven by a child) if no deciding child is free of the path, or through every child when
// all of them are needed. No children: the side to move cannot reach the goal's end (OR:
// disproven; AND: proven).
struct Combined {
    ProofNumber pn = 1, dn = 1;
    bool path_dependent = false;
};

template <class Children>
Combined combine(const Children& children, bool or_node) {
    ProofNumber min_value = Infinite, sum = 0;
    bool any_dependent = false, independent_decider = false;
    for (const auto& child : children) {
        const ProofNumber mine = or_node ? child.pn : child.dn;    // the goal one child can settle
        const ProofNumber theirs = or_node ? child.dn : child.pn;  // the goal all children must settle
        min_value = std::min(min_value, mine);
        sum = saturating_add(sum, theirs);
        any_dependent = any_dependent || child.path_dependent;
        if (mine == 0 && !child.path_dependent) independent_decider = true;
    }
    Combined c;
    (or_node ? c.pn : c.dn) = min_value;
    (or_node ? c.dn : c.pn) = sum;
    c.path_dependent = min_value == 0 ? !independent_decider : any_dependent;
    return c;
}

}  // namespace solver
