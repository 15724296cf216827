// How far a game may still run, from its rules and its ply alone: what a search's limits and a
// tournament time plan need (the Game overloads in game.hpp; the CodinGame bot, which sees
// boards and counts plies, calls these).
#pragma once

#include <algorithm>

#include "loa/rules.hpp"

namespace loa {

// Plies until the rules' ply limit draws the game (SearchLimits::game_plies_left); 0: no limit.
inline int plies_until_limit(const RuleSet& rules, int ply) {
    return rules.ply_limit > 0 ? std::max(1, rules.ply_limit - ply) : 0;
}

// How many more moves the side to move should expect to make in this game.
inline double expected_moves_left(const RuleSet& rules, int ply) {
    // Measured over 1,200 self-play games at stc and 10+0 (docs/strength.md, sudden death): the
    // side to move still made 19.5 moves after ply 6, 12.5 after ply 20 and 4.6 after ply 40.
    // Expect 24 of our own at the start, 0.4 fewer per ply, never fewer than 8: that lies
    // between the 75th and the 90th percentile of the moves still made, so the clock is spent
    // without betting it on the game ending early; a ply limit caps it.
    double expected = std::clamp(24.0 - 0.4 * ply, 8.0, 24.0);
    if (const int plies_left = plies_until_limit(rules, ply); plies_left > 0)
        expected = std::min(expected, static_cast<double>((plies_left + 1) / 2));  // ours of them, rounded up
    return expected;
}

}  // namespace loa
