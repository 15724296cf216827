#include "loa/rules.hpp"

#include <vector>

#include "loa/connectivity.hpp"
#include "loa/position.hpp"

namespace loa {

const std::vector<NamedRuleSet>& named_rule_sets() {
    static const std::vector<NamedRuleSet> sets = {
        {"olympiad", "Computer Olympiad / MSO 2000 (the default)", RuleSet{}},
        {"codingame", "the CodinGame arena's referee: the mover is checked first, no repetition rule, 150 plies",
         RuleSet{SimultaneousConnection::MoverWins, NoMoveRule::Pass, false, 150}},
        {"loabot", "LinesOfActionBot: the mover wins a simultaneous connection, no move loses, no repetition rule",
         RuleSet{SimultaneousConnection::MoverWins, NoMoveRule::Lose, false, 0}},
        {"openspiel", "OpenSpiel's lines_of_action: the mover wins a simultaneous connection, no move loses",
         RuleSet{SimultaneousConnection::MoverWins, NoMoveRule::Lose, true, 0}},
    };
    return sets;
}

GameResult connection_result(const Position& pos, const RuleSet& rules) {
    const Colour mover = ~pos.side_to_move();
    // The Euler number settles most positions before any flood fill.
    const bool mover_connected = !pos.surely_split(mover) && is_connected(pos.pieces(mover));
    const bool other_connected = !pos.surely_split(~mover) && is_connected(pos.pieces(~mover));
    if (mover_connected && other_connected) {
        if (rules.simultaneous == SimultaneousConnection::Draw)
            return {Outcome::Draw, Termination::SimultaneousConnection};
        return {win_for(mover), Termination::SimultaneousConnection};
    }
    if (mover_connected) return {win_for(mover), Termination::Connection};
    if (other_connected) return {win_for(~mover), Termination::Connection};
    return {};
}

}  // namespace loa
