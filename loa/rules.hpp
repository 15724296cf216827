// Rule set (Computer Olympiad / MSO 2000 by default) and game results.
//
// Rule string: comma-separated key=value, e.g. "simultaneous=mover,nomove=lose,repetition=off,
// plylimit=300", optionally starting with a named set ("codingame", "loabot", "openspiel");
// "olympiad" (or an empty string) is the default set.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "loa/colour.hpp"

namespace loa {

class Position;

enum class SimultaneousConnection : std::uint8_t { Draw, MoverWins };
enum class NoMoveRule : std::uint8_t { Pass, Lose, Draw };

struct RuleSet {
    SimultaneousConnection simultaneous = SimultaneousConnection::Draw;
    NoMoveRule no_move = NoMoveRule::Pass;
    bool repetition_draw = true;  // third occurrence of a position (same side to move) draws
    int ply_limit = 0;            // > 0: the game is drawn after this many plies

    friend bool operator==(const RuleSet&, const RuleSet&) = default;
};

// The rule sets a user picks by name; a rule string may start with one and override keys.
struct NamedRuleSet {
    std::string name, description;
    RuleSet rules;
};
const std::vector<NamedRuleSet>& named_rule_sets();

RuleSet parse_rules(std::string_view spec);  // throws InputError naming the bad key or value
std::string to_string(const RuleSet& rules);

enum class Outcome : std::uint8_t { Ongoing, BlackWins, WhiteWins, Draw };
enum class Termination : std::uint8_t { None, Connection, SimultaneousConnection, NoMove, Repetition, PlyLimit };

struct GameResult {
    Outcome outcome = Outcome::Ongoing;
    Termination termination = Termination::None;

    bool over() const { return outcome != Outcome::Ongoing; }
    friend bool operator==(const GameResult&, const GameResult&) = default;
};

constexpr Outcome win_for(Colour c) { return c == Colour::Black ? Outcome::BlackWins : Outcome::WhiteWins; }
std::string_view to_string(Outcome o);      // "1-0"-style is the match runner's business
std::string_view to_string(Termination t);  // "connection", "repetition", ...
std::string describe(const GameResult& r);  // "black wins by connection"

// Result of the connection rule for the position just reached: the side that moved last is
// the opponent of the side to move. Ongoing when neither side is connected.
GameResult connection_result(const Position& pos, const RuleSet& rules);

}  // namespace loa
