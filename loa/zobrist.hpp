// Zobrist keys: one random 64-bit number per (colour, square) and one for the side to move.
// Generated at compile time from a fixed seed with splitmix64, so keys (and therefore every
// hash-dependent result) are identical on every run and every machine.
#pragma once

#include <array>
#include <cstdint>

#include "loa/bitboard.hpp"
#include "loa/colour.hpp"

namespace loa {

using Key = std::uint64_t;

inline constexpr std::uint64_t ZobristSeed = 0x4C4F412D5A4F4252ULL;  // "LOA-ZOBR"

constexpr std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

struct ZobristKeys {
    std::array<std::array<Key, SquareCount>, 2> piece{};
    Key white_to_move = 0;
};

constexpr ZobristKeys make_zobrist_keys(std::uint64_t seed) {
    ZobristKeys keys{};
    for (auto& colour : keys.piece)
        for (auto& k : colour) k = splitmix64(seed);
    keys.white_to_move = splitmix64(seed);
    return keys;
}

inline constexpr ZobristKeys Zobrist = make_zobrist_keys(ZobristSeed);

constexpr Key piece_key(Colour c, Square s) { return Zobrist.piece[index(c)][s]; }

}  // namespace loa
