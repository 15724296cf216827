// Precomputed line geometry for LOA move generation.
//
// A piece moves along one of 4 lines (file, diagonal, rank, anti-diagonal) exactly as many
// squares as there are pieces on that whole line, so generation needs per square: the mask of
// each line through it (popcount gives the distance), the destination at each distance in each
// of the 8 directions, and the squares strictly between origin and destination (the path that
// must be free of enemy pieces). All of it is computed at compile time.
#pragma once

#include <array>
#include <cstdint>

#include "loa/bitboard.hpp"

namespace loa {

// Directions: line d & 3, the two senses d and d + 4.
enum Direction : int { North, NorthEast, East, SouthEast, South, SouthWest, West, NorthWest };
inline constexpr int DirectionCount = 8;
inline constexpr int LineCount = 4;
inline constexpr std::array<int, 8> DirectionFileStep = {0, 1, 1, 1, 0, -1, -1, -1};
inline constexpr std::array<int, 8> DirectionRankStep = {1, 1, 0, -1, -1, -1, 0, 1};
inline constexpr std::int8_t NoSquare = -1;

struct LineTables {
    std::array<std::array<Bitboard, SquareCount>, LineCount> line{};
    // destination[dir][square][distance], distance 0..8; NoSquare when it leaves the board.
    std::array<std::array<std::array<std::int8_t, 9>, SquareCount>, DirectionCount> destination{};
    std::array<std::array<Bitboard, SquareCount>, SquareCount> between{};
};

constexpr LineTables make_line_tables() {
    LineTables t{};
    for (Square s = 0; s < SquareCount; ++s) {
        for (int d = 0; d < DirectionCount; ++d) {
            t.destination[d][s][0] = NoSquare;
            Bitboard path = 0;
            int f = file_of(s), r = rank_of(s);
            for (int dist = 1; dist <= 8; ++dist) {
                f += DirectionFileStep[d];
                r += DirectionRankStep[d];
                if (!on_board(f, r)) {
                    for (int rest = dist; rest <= 8; ++rest) t.destination[d][s][rest] = NoSquare;
                    break;
                }
                const Square to = make_square(f, r);
                t.destination[d][s][dist] = static_cast<std::int8_t>(to);
                t.between[s][to] = path;
                t.line[d & 3][s] |= square_bb(to);
                path |= square_bb(to);
            }
        }
        for (int l = 0; l < LineCount; ++l) t.line[l][s] |= square_bb(s);
    }
    return t;
}

inline constexpr LineTables Lines = make_line_tables();

}  // namespace loa
