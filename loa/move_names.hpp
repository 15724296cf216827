// Squares and moves as text: "b1", "b1-d3", "c1xa3", "pass", and the compact (UCI-style)
// "b1d3". Reading them is notation.hpp's business.
#pragma once

#include <string>

#include "loa/move.hpp"

namespace loa {

inline std::string square_name(Square s) {
    return {static_cast<char>('a' + file_of(s)), static_cast<char>('1' + rank_of(s))};
}

inline std::string move_to_text(Move m) {  // b1-d3, c1xa3, pass
    if (m.is_pass()) return "pass";
    if (m.is_none()) return "none";
    return square_name(m.from()) + (m.is_capture() ? 'x' : '-') + square_name(m.to());
}

inline std::string move_to_compact(Move m) {  // b1d3, c1a3, pass
    if (m.is_pass()) return "pass";
    if (m.is_none()) return "none";
    return square_name(m.from()) + square_name(m.to());
}

}  // namespace loa
