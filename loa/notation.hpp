// Square and move notation.
//   printed: "b1-d3", "c1xa3" (capture), "pass"; compact (UCI-style) form "b1d3"
//   parsed:  all of those; a parsed move is checked against the position it is played in.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loa/move.hpp"
#include "loa/move_names.hpp"
#include "loa/position.hpp"

namespace loa {

std::optional<Square> parse_square(std::string_view text);

// Parses a move in any accepted form and checks that it is legal in `pos`; throws InputError
// naming the problem (malformed text, wrong capture marker, illegal move).
Move parse_move(const Position& pos, std::string_view text);

// PGN movetext (the PGN standard's section 8.2, with LOA moves in place of SAN): the moves in
// order, and each comment with the number of moves before it. Read past: move numbers ("12.",
// "12...", or glued: "1.b1-d3"), NAGs ("$1"), suffix annotations ("!", "?!"), a game result
// ("1-0", "0-1", "1/2-1/2", "*"), brace comments (over several lines too), rest-of-line comments
// (";") and escape lines ("%" first on a line); commas separate like spaces. An unclosed comment
// is refused (InputError), and so is a variation unless it is to be skipped (below).
struct MoveText {
    std::vector<std::string_view> moves;
    std::vector<std::pair<std::size_t, std::string_view>> comments;  // (moves before it, text inside)
};
// Variations ("( ... )", nested, with their comments): a record's are read past (an annotated
// game's alternatives, not its moves); a move list to play refuses them.
enum class Variations { Refuse, Skip };
MoveText parse_movetext(std::string_view text, Variations variations = Variations::Refuse);

// The moves of a move list or PGN movetext (parse_movetext), so that "1. b1-d3 a2-c2",
// "b1d3 a2c2" and a game's movetext with comments and its result all work.
std::vector<std::string_view> split_move_list(std::string_view text);

}  // namespace loa
