// Bitboard primitives for the 8x8 LOA board: a1 = bit 0, b1 = bit 1, ..., h8 = bit 63.
#pragma once

#include <bit>
#include <cstdint>

namespace loa {

using Bitboard = std::uint64_t;
using Square = int;  // 0..63

inline constexpr int BoardSize = 8;
inline constexpr int SquareCount = 64;

constexpr Bitboard square_bb(Square s) { return Bitboard{1} << s; }
constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
constexpr Square make_square(int file, int rank) { return rank * 8 + file; }
// Which ring around the centre a square is on: 0 for d4-e5, 3 for the edge.
constexpr int ring_of(Square s) {
    const int df = file_of(s) < 4 ? 3 - file_of(s) : file_of(s) - 4;
    const int dr = rank_of(s) < 4 ? 3 - rank_of(s) : rank_of(s) - 4;
    return df > dr ? df : dr;
}
constexpr bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

constexpr int popcount(Bitboard b) { return std::popcount(b); }
constexpr Square lsb(Bitboard b) { return std::countr_zero(b); }
constexpr Square pop_lsb(Bitboard& b) {
    const Square s = lsb(b);
    b &= b - 1;
    return s;
}
constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

inline constexpr Bitboard FileA = 0x0101010101010101ULL;
inline constexpr Bitboard FileH = FileA << 7;
inline constexpr Bitboard Rank1 = 0xFFULL;
inline constexpr Bitboard Rank8 = Rank1 << 56;
inline constexpr Bitboard Edge = FileA | FileH | Rank1 | Rank8;

// One-step shifts that drop what falls off the board (no wrap-around between files).
constexpr Bitboard shift_north(Bitboard b) { return b << 8; }
constexpr Bitboard shift_south(Bitboard b) { return b >> 8; }
constexpr Bitboard shift_east(Bitboard b) { return (b & ~FileH) << 1; }
constexpr Bitboard shift_west(Bitboard b) { return (b & ~FileA) >> 1; }

// Squares 8-adjacent to at least one square of b. A square of b is in the result only
// when another square of b touches it, which makes this the building block of the
// connectivity tests.
constexpr Bitboard neighbours(Bitboard b) {
    const Bitboard horizontal = shift_east(b) | shift_west(b);
    const Bitboard row = b | horizontal;
    return horizontal | shift_north(row) | shift_south(row);
}

}  // namespace loa
