// Depth in fractions of a ply, and what enhanced realization probability search (ERPS;
// Tsuruoka, Yokoyama and Inoue's realization probability search with Winands and Björnsson's
// re-search safeguard, the search of the LOA program MIA) spends on a move.
//
// The search counts depth in units of 1/OnePly ply. Without ERPS every move costs OnePly and
// the search is the plain one, node for node. With ERPS a move costs log(P) / log(base) plies,
// P the realization probability of its category (how often such a move was played when it was
// available, learnt from game records), within [min, max]: likely moves are searched deeper,
// unlikely ones shallower, and a move searched shallower than a full ply below its node whose
// value comes back above alpha is searched again a full ply below (the safeguard of ERPS).
#pragma once

#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include "common/search/config.hpp"

namespace search {

inline constexpr int OnePly = 16;

// Whole plies left for `units`, a partial ply counting as one: what the ply-based rules
// (null move, futility, LMR, history increments, the TT's depth) read.
constexpr int whole_plies(int units) { return (units + OnePly - 1) / OnePly; }

// The depth each category of move costs, in units, from its realization probability.
inline std::vector<int> realization_depth_costs(std::span<const double> probabilities, const SearchConfig& c) {
    const double base = c.erps_base / 100.0, lo = c.erps_min / 100.0, hi = c.erps_max / 100.0;
    std::vector<int> costs;
    costs.reserve(probabilities.size());
    for (const double p : probabilities) {
        const double plies = std::clamp(std::log(std::max(p, 1e-12)) / std::log(base), lo, hi);
        costs.push_back(std::max(1, static_cast<int>(std::lround(plies * OnePly))));
    }
    return costs;
}

}  // namespace search
