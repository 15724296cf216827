// Calibration of the frontier margins (futility, extended futility, razoring): how far one
// quiet move lifts a node above its static evaluation (search::frontier_lift), by the number
// of pieces on the board, and the smallest tapered margins that cover a given share of the
// nodes in every band of pieces.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/variant/config.hpp"
#include "loa/position.hpp"

namespace matches {

struct MarginSettings {
    std::vector<loa::Position> positions;
    int max_depth = 3;                // 1 futility, 2 extended futility, 3 razoring
    std::string variant = "full,tt=off,futility=off,ext_futility=off,razoring=off";  // values the quiet moves: no frontier pruning of its own
    std::string eval = "full";
    double coverage = 0.99;           // share of the nodes of every band a suggested margin covers
    int concurrency = 1;
};

// One node: its pieces on the board and, per depth, the lift (search::FrontierLift).
struct MarginNode {
    int pieces = 0;
    int phase = 0;
    std::vector<int> lift;         // per depth; meaningless where forced_win
    std::vector<bool> forced_win;  // per depth
};

struct MarginBand {
    int min_pieces = 0, max_pieces = 0;
    int nodes = 0;
    std::vector<int> forced_wins;                // per depth
    std::vector<std::vector<int>> percentiles;  // per depth: p50, p90, p99, p99.9, max of the lift
};

struct MarginStudy {
    std::vector<MarginNode> nodes;  // positions without a quiet move are left out
    std::vector<MarginBand> bands;
    std::vector<std::optional<search::TaperedMargin>> suggested;  // per depth; none when no margin up to 3000 is enough
    std::vector<search::TaperedMargin> standard;   // per depth: what `on` means today
};

inline constexpr double MarginPercentiles[] = {0.5, 0.9, 0.99, 0.999, 1.0};

MarginStudy run_margin_study(const MarginSettings& s, bool progress);
// The share of the nodes of `band` (all nodes when null) whose lift at `depth` the margin
// covers (lift <= margin at the node's phase). Nodes with a forced win at that depth are left
// out: no margin covers them, they are the extensions' business, and they are counted apart.
double margin_coverage(const std::vector<MarginNode>& nodes, int depth, search::TaperedMargin margin, const MarginBand* band);
// The tapered margin with the least opening + endgame (steps of 10, up to 3000 each) that
// covers `coverage` of every band's nodes at `depth`; none when no such margin is enough.
std::optional<search::TaperedMargin> suggest_margin(const std::vector<MarginNode>& nodes, const std::vector<MarginBand>& bands, int depth,
                                                    double coverage);

std::string margin_table(const MarginSettings& s, const MarginStudy& study);
std::string margin_json(const MarginSettings& s, const MarginStudy& study);

}  // namespace matches
