#pragma once

#include <string>

#include "loa/position.hpp"

namespace loa {

// A human board diagram, rank 8 at the top, with coordinates and the side to move.
std::string diagram(const Position& pos);

}  // namespace loa
