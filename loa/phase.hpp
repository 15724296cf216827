// The game's phase, by the pieces left: what tapered weights (evaluation.hpp) and the search's
// frontier margins (search::PhasedGame) interpolate with.
#pragma once

#include <algorithm>

#include "loa/position.hpp"

namespace loa {

inline constexpr int MaxPhase = 20;
// MaxPhase at the start (24 pieces), 0 with 4 pieces or fewer: clamp(pieces - 4, 0, 20).
inline int game_phase(const Position& pos) { return std::clamp(popcount(pos.occupied()) - 4, 0, MaxPhase); }

}  // namespace loa
