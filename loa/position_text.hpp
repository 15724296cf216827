// The one-line position text: 8 ranks from rank 8 down to rank 1 separated by '/', 'b' black,
// 'w' white, '.' or a digit run for empty squares, then a space and the side to move (b/w).
// Standard start: 1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b
// Both the dotted and the digit form parse; the digit form is printed.
#pragma once

#include <string>
#include <string_view>

#include "loa/position.hpp"

namespace loa {

inline constexpr std::string_view StartPositionText = "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b";

Position parse_position(std::string_view text);  // throws InputError naming the fault
std::string position_to_text(const Position& pos);
// "startpos"/"start" and "eggs"/"scrambled" name the built-in starts; anything else is text.
Position position_from_argument(std::string_view text);

}  // namespace loa
