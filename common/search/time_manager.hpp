// Turns a clock situation into search limits. The search stops at the hard limit (checked
// every 256 nodes); it starts no new iteration after the soft limit, because the next one
// would take several times as long as the last. A fixed overhead is kept back for the process
// and the protocol round trip, so that the engine never loses on time.
#pragma once

#include <algorithm>

#include "common/search/limits.hpp"

namespace search {

struct ClockLimits {
    int depth = 0;
    std::uint64_t nodes = 0;
    double move_time_ms = 0;  // fixed time per move
    double time_left_ms = -1;  // sudden death: < 0 when not given
    double increment_ms = 0;
    int moves_to_go = 0;      // 0: unknown, assume a long game
    bool infinite = false;
};

inline SearchLimits plan_limits(const ClockLimits& c, double overhead_ms = 20) {
    SearchLimits l;
    l.depth = c.depth;
    l.nodes = c.nodes;
    if (c.infinite) return l;
    if (c.move_time_ms > 0) {
        l.hard_time_ms = std::max(1.0, c.move_time_ms - overhead_ms);
        l.soft_time_ms = 0.45 * l.hard_time_ms;
    } else if (c.time_left_ms >= 0) {
        const double left = std::max(0.0, c.time_left_ms - overhead_ms);
        const double moves = c.moves_to_go > 0 ? std::min(c.moves_to_go, 40) : 30;
        const double budget = left / moves + 0.8 * c.increment_ms;
        l.soft_time_ms = std::max(1.0, 0.6 * budget);
        l.hard_time_ms = std::max(1.0, std::min(3.0 * budget, 0.4 * left));
        l.soft_time_ms = std::min(l.soft_time_ms, l.hard_time_ms);
    }
    return l;
}

}  // namespace search
