// What a frontier margin has to cover. Futility pruning skips a quiet move at depth d when the
// static evaluation plus the margin is at most alpha, which is sound only if no quiet move's
// value at that depth lifts the node more than the margin above its static evaluation. This
// probe measures that lift at a node: for d = 1 .. max_depth, the largest over its quiet moves
// of (the move's value searched to depth d - 1, quiescence at d = 1) - (the static evaluation).
// Depth 1 is what futility needs, 2 extended futility, 3 razoring. Quiet: what futility may
// skip, a move that captures nothing, does not end the game and (with extensions on) earns no
// extension.
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

#include "common/search/game.hpp"
#include "common/search/search.hpp"

namespace search {

struct FrontierLift {
    Score lift = -Infinity;  // over the quiet moves whose value is not a decided game (-Infinity: none)
    bool forced_win = false;  // a quiet move wins by force within the depth: no margin covers it
};

// The lift per depth (index d - 1) at `pos`, whose game goes on; nullopt when it has no quiet
// move. The searcher's tables are cleared before each search, so the result depends on the
// position alone. Its configuration should have no frontier pruning of its own.
template <Game G>
std::optional<std::vector<FrontierLift>> frontier_lift(Searcher<G>& searcher, typename G::Position pos, int max_depth) {
    const G& game = searcher.game();
    const Score static_eval = game.evaluate(pos);
    typename G::MoveList moves;
    game.generate(pos, moves);
    std::vector<FrontierLift> lift(static_cast<std::size_t>(max_depth));
    bool any_quiet = false;
    for (const auto m : moves) {
        if (game.is_capture(m)) continue;
        game.make(pos, m);
        // Futility never skips a move the search extends (a threat).
        const bool extended = searcher.config().extensions && game.extension(pos, m) > 0;
        if (!extended && game.status(pos) == Status::Ongoing) {
            any_quiet = true;
            for (int d = 1; d <= max_depth; ++d) {
                searcher.new_game();
                Score value;  // for the side that made the move
                if (d == 1) {
                    value = -searcher.quiescence_line(pos).second;
                } else {
                    SearchLimits limits;
                    limits.depth = d - 1;
                    value = -searcher.search(pos, limits).score;
                }
                FrontierLift& at = lift[static_cast<std::size_t>(d - 1)];
                if (value >= WinThreshold) at.forced_win = true;
                else if (value > -WinThreshold) at.lift = std::max(at.lift, value - static_eval);
            }
        }
        game.unmake(pos, m);
    }
    if (!any_quiet) return std::nullopt;
    return lift;
}

}  // namespace search
