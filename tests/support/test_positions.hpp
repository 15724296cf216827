// Shared helpers for the tests: random games and positions drawn from them, all seeded.
#pragma once

#include <cstdint>
#include <random>
#include <string_view>
#include <vector>

#include "loa/game.hpp"

namespace loa::testing {

// Plays up to `max_plies` random legal moves (the game may end earlier) from the start.
Game random_game(std::uint64_t seed, int max_plies, const Position& start = Position::start());

// Positions from many random games, at every ply: a varied, reproducible sample.
std::vector<Position> random_positions(std::uint64_t seed, int games, int max_plies);

// Endgame-like positions: `min_pieces` to `max_pieces` pieces a side scattered at random in a
// box of 4 to 6 squares a side, either side to move, neither side connected. Captures there often end the game, for either side or
// both at once.
std::vector<Position> sparse_positions(std::uint64_t seed, std::size_t count, int min_pieces, int max_pieces);

// Middle games of varied length: game g of seeded random games (seed + g) cut after
// 6 + (g * step) % spread plies, the unfinished ones.
std::vector<Position> middle_game_positions(std::size_t count, std::uint64_t seed, int step = 7, int spread = 25);

// Positions 1 to 6 plies before the end of seeded random games, not yet decided: the kind of
// position a proof-number solver is for.
std::vector<Position> late_positions(std::uint64_t seed, std::size_t count);

// Two positions the rules and move generation tests share. Black b1, b2, c4; White c2, g7, h8:
// c4xc2 connects both sides at once (perft_test.cpp counts the moves by hand).
inline constexpr std::string_view DoubleConnection = "7w/6w1/8/8/2b5/8/1bw5/1b6 b";
// White's a1 and h8 are boxed in by Black: White must pass.
inline constexpr std::string_view WhiteMustPass = "6bw/6bb/8/8/8/8/bb6/wb6 w";

}  // namespace loa::testing
