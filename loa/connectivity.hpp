// 8-connectivity of a set of pieces: the win condition of LOA.
#pragma once

#include "loa/bitboard.hpp"

namespace loa {

// The group of `pieces` that contains square `seed` (flood fill by king steps).
constexpr Bitboard group_of(Bitboard pieces, Square seed) {
    Bitboard group = square_bb(seed);
    for (;;) {
        const Bitboard grown = (group | neighbours(group)) & pieces;
        if (grown == group) return group;
        group = grown;
    }
}

// One 8-connected group (a single piece is connected). Quick rejection first: with two or
// more pieces, any piece without a neighbour proves the set is split, which settles most
// positions with a few shifts and no flood fill.
constexpr bool is_connected(Bitboard pieces) {
    if (!more_than_one(pieces)) return pieces != 0;
    if (pieces & ~neighbours(pieces)) return false;
    return group_of(pieces, lsb(pieces)) == pieces;
}

constexpr int count_groups(Bitboard pieces) {
    int groups = 0;
    while (pieces) {
        pieces &= ~group_of(pieces, lsb(pieces));
        ++groups;
    }
    return groups;
}

}  // namespace loa
