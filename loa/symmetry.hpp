// The 8 symmetries of the square board (dihedral group D4) and the colour swap, for tests of
// the evaluation's invariance and for opening generation.
#pragma once

#include "loa/position.hpp"

namespace loa {

constexpr Bitboard flip_vertical(Bitboard b) {  // rank r -> 7 - r
    b = ((b >> 8) & 0x00FF00FF00FF00FFULL) | ((b & 0x00FF00FF00FF00FFULL) << 8);
    b = ((b >> 16) & 0x0000FFFF0000FFFFULL) | ((b & 0x0000FFFF0000FFFFULL) << 16);
    return (b >> 32) | (b << 32);
}

constexpr Bitboard mirror_horizontal(Bitboard b) {  // file f -> 7 - f
    b = ((b >> 1) & 0x5555555555555555ULL) | ((b & 0x5555555555555555ULL) << 1);
    b = ((b >> 2) & 0x3333333333333333ULL) | ((b & 0x3333333333333333ULL) << 2);
    return ((b >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((b & 0x0F0F0F0F0F0F0F0FULL) << 4);
}

constexpr Bitboard flip_diagonal(Bitboard b) {  // (f, r) -> (r, f), the a1-h8 diagonal fixed
    Bitboard out = 0;
    for (Bitboard rest = b; rest;) {
        const Square s = pop_lsb(rest);
        out |= square_bb(make_square(rank_of(s), file_of(s)));
    }
    return out;
}

// Symmetry k in 0..7: bit 0 mirror files, bit 1 flip ranks, bit 2 swap files and ranks.
constexpr Bitboard transform(Bitboard b, int k) {
    if (k & 4) b = flip_diagonal(b);
    if (k & 2) b = flip_vertical(b);
    if (k & 1) b = mirror_horizontal(b);
    return b;
}

inline Position transform(const Position& pos, int k, bool swap_colours = false) {
    const Bitboard black = transform(pos.pieces(Colour::Black), k);
    const Bitboard white = transform(pos.pieces(Colour::White), k);
    if (!swap_colours) return Position::from_bitboards(black, white, pos.side_to_move());
    return Position::from_bitboards(white, black, ~pos.side_to_move());
}

}  // namespace loa
