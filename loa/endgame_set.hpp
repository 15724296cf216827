// Endgame position sets for the proof-number solver: one position a line, optionally followed
// by its proven value, e.g. "8/8/3b4/2bw4/8/3w4/8/8 b win"; '#' starts a comment line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/solver/solver.hpp"
#include "loa/position.hpp"

namespace loa {

struct EndgamePosition {
    Position position;
    std::optional<solver::Value> value;  // the proven value, when the set gives one
};

// Throws InputError naming the file and line of a bad entry, or an empty set.
std::vector<EndgamePosition> load_endgame_set(const std::string& path);
EndgamePosition parse_endgame_line(std::string_view line);
std::string format_endgame_line(const EndgamePosition& entry);
// "win", "loss", "draw" (not "unknown": a set records proven values only).
solver::Value parse_proven_value(std::string_view text);

}  // namespace loa
