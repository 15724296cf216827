// Shared helpers for the tests: random games and positions drawn from them, all seeded.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "loa/game.hpp"

namespace loa::testing {

// Plays up to `max_plies` random legal moves (the game may end earlier) from the start.
Game random_game(std::uint64_t seed, int max_plies, const Position& start = Position::start());

// Positions from many random games, at every ply: a varied, reproducible sample.
std::vector<Position> random_positions(std::uint64_t seed, int games, int max_plies);

}  // namespace loa::testing
