// Quads and the Euler number (Gray 1971; used for LOA by Winands' MIA).
//
// A quad is a 2x2 window of the board extended by one empty square on every side, so there
// are 9 x 9 of them and every square lies in exactly four. For one side's pieces, counting
// the quads holding exactly one piece (Q1), three pieces (Q3) and two diagonal pieces (Qd),
//     E = (n(Q1) - n(Q3) - 2 n(Qd)) / 4
// is the number of 8-connected groups minus the number of holes. E > 1 proves that the side is
// not connected; E <= 1 still needs a group check. The numerator changes only in the four
// quads around a square that gains or loses a piece, which makes an incremental update cheap:
// a move toggles at most three squares.
#pragma once

#include <array>
#include <cstdint>

#include "loa/bitboard.hpp"

namespace loa {

// Contribution of one quad, from its 4-bit occupancy (bit i = corner i in a-b/1-2 order).
constexpr int quad_value(unsigned pattern) {
    const int n = std::popcount(pattern);
    if (n == 1) return 1;
    if (n == 3) return -1;
    if (pattern == 0b1001 || pattern == 0b0110) return -2;  // two pieces on a diagonal
    return 0;
}

namespace detail {

// Gain of the numerator when the centre of a 3x3 window gains a piece, indexed by the
// window's occupancy: bit 3 * row + column, row 0 below the centre; the centre bit (4) is 0.
constexpr std::array<std::int8_t, 512> make_gain_table() {
    std::array<std::int8_t, 512> gain{};
    for (unsigned window = 0; window < 512; ++window) {
        if (window & (1u << 4)) continue;
        auto occupied = [&](int df, int dr) { return ((window >> (3 * (dr + 1) + (df + 1))) & 1) != 0; };
        int delta = 0;
        // The four quads containing the centre: lower-left corners at (-1..0, -1..0).
        for (int qf = -1; qf <= 0; ++qf)
            for (int qr = -1; qr <= 0; ++qr) {
                unsigned without = 0, centre_bit = 0;
                for (int i = 0; i < 4; ++i) {
                    const int df = qf + (i & 1), dr = qr + (i >> 1);
                    if (df == 0 && dr == 0) centre_bit = 1u << i;
                    else if (occupied(df, dr)) without |= 1u << i;
                }
                delta += quad_value(without | centre_bit) - quad_value(without);
            }
        gain[window] = static_cast<std::int8_t>(delta);
    }
    return gain;
}

inline constexpr std::array<std::int8_t, 512> GainTable = make_gain_table();

// The on-board 8-neighbours of each square (never the square itself).
inline constexpr std::array<Bitboard, 64> NeighbourMask = [] {
    std::array<Bitboard, 64> m{};
    for (Square s = 0; s < 64; ++s) m[static_cast<std::size_t>(s)] = neighbours(square_bb(s));
    return m;
}();

}  // namespace detail

// Change of Q1 - Q3 - 2Qd when square s (empty in `pieces`) gains a piece; the loss of a
// piece is the negation, read from the pieces without s. The 3x3 window is shifted to the
// low bits; squares off the board were masked out first, so nothing wraps around.
constexpr int euler_gain(Bitboard pieces, Square s) {
    const Bitboard around = pieces & detail::NeighbourMask[static_cast<std::size_t>(s)];
    const Bitboard low = s >= 9 ? around >> (s - 9) : around << (9 - s);
    const unsigned window = static_cast<unsigned>((low & 7) | ((low >> 5) & (7 << 3)) | ((low >> 10) & (7 << 6)));
    return detail::GainTable[window];
}

// Quad counts by kind over the whole extended board.
struct QuadCounts {
    int q1 = 0, q3 = 0, qd = 0;
};

constexpr QuadCounts count_quads(Bitboard pieces) {
    QuadCounts c;
    for (int qf = -1; qf <= 7; ++qf)
        for (int qr = -1; qr <= 7; ++qr) {
            unsigned pattern = 0;
            for (int i = 0; i < 4; ++i) {
                const int f = qf + (i & 1), r = qr + (i >> 1);
                if (on_board(f, r) && (pieces & square_bb(make_square(f, r)))) pattern |= 1u << i;
            }
            const int n = std::popcount(pattern);
            c.q1 += n == 1;
            c.q3 += n == 3;
            c.qd += pattern == 0b1001 || pattern == 0b0110;
        }
    return c;
}

// Q1 - Q3 - 2Qd from scratch (four times the Euler number); the incremental value's check.
constexpr int euler_numerator(Bitboard pieces) {
    const QuadCounts c = count_quads(pieces);
    return c.q1 - c.q3 - 2 * c.qd;
}

}  // namespace loa
