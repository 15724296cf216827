// Square and move notation.
//   printed: "b1-d3", "c1xa3" (capture), "pass"; compact (UCI-style) form "b1d3"
//   parsed:  all of those; a parsed move is checked against the position it is played in.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loa/move.hpp"
#include "loa/position.hpp"

namespace loa {

std::string square_name(Square s);
std::optional<Square> parse_square(std::string_view text);

std::string move_to_text(Move m);     // b1-d3, c1xa3, pass
std::string move_to_compact(Move m);  // b1d3, c1a3, pass

// Parses a move in any accepted form and checks that it is legal in `pos`; throws InputError
// naming the problem (malformed text, wrong capture marker, illegal move).
Move parse_move(const Position& pos, std::string_view text);

// Splits a move list on spaces/commas and drops move numbers such as "12." so that
// "1. b1-d3 a2-c2" and "b1d3 a2c2" both work.
std::vector<std::string_view> split_move_list(std::string_view text);

}  // namespace loa
