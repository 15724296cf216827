#include "matches/player.hpp"

#include <algorithm>

namespace matches {

InProcessPlayer::InProcessPlayer(const EngineSpec& spec, const loa::RuleSet& rules)
    : spec_(spec), searcher_(loa::SearchGame::from_spec(rules, spec.eval), spec.config) {}

MoveChoice InProcessPlayer::choose(const loa::Game& game, const ClockState& clock) {
    search::SearchLimits limits;
    limits.depth = spec_.depth;
    limits.nodes = spec_.nodes;
    if (spec_.move_time_ms > 0) {
        // Fixed time per move: stop a little early to absorb the runner's own overhead.
        limits.hard_time_ms = std::max(1.0, spec_.move_time_ms * 0.95 - 2);
        limits.soft_time_ms = limits.hard_time_ms * 0.6;
    } else if (spec_.time_control) {
        // Sudden death with increment: a slice of what is left plus most of the increment;
        // never more than a third of the remaining time.
        const double slice = clock.remaining_ms / 30 + clock.increment_ms * 0.8;
        limits.soft_time_ms = std::max(1.0, slice * 0.6);
        limits.hard_time_ms = std::max(1.0, std::min(slice * 2.5, clock.remaining_ms / 3 - 5));
    }
    const auto history = loa::search_history(game);
    const auto result = searcher_.search(game.position(), limits, history);
    return {result.best_move, result.score, result.depth, result.stats.nodes, result.stats.time_ms, limits.hard_time_ms};
}

std::unique_ptr<Player> make_player(const EngineSpec& spec, const loa::RuleSet& rules) {
    return std::make_unique<InProcessPlayer>(spec, rules);
}

}  // namespace matches
