// What the frontier selectivity does at a node (Heinz; the seed on selective search): far
// below alpha, a depth-3 node loses a ply (razoring) and quiet moves are skipped at depth 1
// (futility) and 2 (extended futility). Limited razoring: a node entered by a move that earned
// an extension (a threat) is neither razored nor pruned at depth 2.
#pragma once

#include "common/search/score.hpp"

namespace search {

struct FrontierMargins {  // at the node's phase; 0: off
    int futility = 0;
    int ext_futility = 0;
    int razoring = 0;
};

struct FrontierDecision {
    bool razor = false;    // search the node a ply shallower
    int prune_margin = 0;  // skip quiet moves, each taken to be worth at most eval + this; 0: none
};

// `depth`: whole plies left (1..3 matter); `after_threat`: the move into the node was extended.
constexpr FrontierDecision frontier_decision(int depth, Score static_eval, Score alpha, bool after_threat,
                                             const FrontierMargins& m) {
    FrontierDecision d;
    if (after_threat && depth >= 2) return d;
    if (depth == 3 && m.razoring > 0 && static_eval + m.razoring <= alpha) {
        d.razor = true;
        --depth;
    }
    const int margin = depth == 1 ? m.futility : depth == 2 ? m.ext_futility : 0;
    if (margin > 0 && static_eval + margin <= alpha) d.prune_margin = margin;
    return d;
}

}  // namespace search
