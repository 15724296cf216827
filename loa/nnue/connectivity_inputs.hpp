// The network's connectivity inputs (extra inputs set 1, docs/nnue.md): what the first layer,
// a sum over single pieces, cannot see. For each side, the side to move's first, four values in
// the activations' fixed point 0..127: the number of groups, the Euler number (quads), the
// concentration (mean distance to the centre of mass) and the bounding box. Each is the same in
// the board's 8 symmetries. The trainer computes them from their definitions
// (scripts/nnue/features.py) and its test vectors hold this code to them.
#pragma once

#include <array>
#include <cstdint>

#include "loa/nnue/network.hpp"
#include "loa/position.hpp"

namespace loa::nnue {

inline constexpr int ConnectivityInputCount = 8;
static_assert(ConnectivityInputCount == extra_input_count(ConnectivityInputsSet) && ConnectivityInputCount <= MaxExtraInputs);

// [groups, Euler, concentration, box] of one side's pieces (all 0 for none):
//   groups        11 * min(groups - 1, 11)
//   Euler         clamp(2 * (Q1 - Q3 - 2Qd) + 24, 0, 127)
//   concentration min(127, 18 * D / n^2), D = sum of max(|n x - sum x|, |n y - sum y|)
//   box           2 * width * height - 2 of the smallest rectangle holding the pieces
std::array<std::uint8_t, 4> side_connectivity(Bitboard pieces, int euler_numerator);

// The eight inputs in the network's order: the side to move's four, then the opponent's.
std::array<std::uint8_t, ConnectivityInputCount> side_to_move_first(const std::array<std::uint8_t, 4>& ours,
                                                                    const std::array<std::uint8_t, 4>& theirs);

// The eight inputs of a position.
std::array<std::uint8_t, ConnectivityInputCount> connectivity_inputs(const Position& pos);

}  // namespace loa::nnue
