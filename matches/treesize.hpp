// Tree-size experiments: how much a search enhancement shrinks the tree, as in Schaeffer
// (1989) and Winands et al. (2004). Every position is searched to each depth with every
// variant (tables cleared per position); totals per depth are compared with a baseline, with a
// bootstrap interval on the ratio (resampling positions).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/variant/config.hpp"
#include "loa/position.hpp"

namespace matches {

struct TreeVariant {
    std::string name;
    std::string spec;
    variant::VariantConfig config;
    // No TT and no selective switch: such a variant must return exactly the baseline's score.
    bool ordering_only() const;
};

// "name=x,<search keys>" or plain search keys (then the spec is the name).
TreeVariant parse_tree_variant(const std::string& text);
// The variants of a named study: "history" (none / absolute HH at each increment / butterfly /
// relative HH at each increment and update scheme, each with TT and killers on and off;
// "history-tt" / "history-nott" keep only the bases with / without the TT) or
// "combinations" (every subset of TT, killers, RHH, aspiration, PVS, refutation table).
std::vector<TreeVariant> study_variants(const std::string& study);

struct TreeRun {  // one variant on one position; every vector is indexed by depth - 1
    // Cumulative counts after iteration d of the iterative deepening (the tree size at depth d).
    std::vector<std::uint64_t> nodes;   // all nodes, quiescence included
    std::vector<std::uint64_t> qnodes;  // quiescence nodes among them
    std::vector<int> scores;
    std::vector<std::string> best_moves;
    std::vector<double> time_ms;
    std::vector<std::uint64_t> tt_hits;
    std::vector<double> first_move_cutoff_rate;
};

struct TreeSizeSettings {
    std::vector<TreeVariant> variants;
    std::vector<loa::Position> positions;
    int min_depth = 1, max_depth = 5;
    int baseline = 0;  // index of the baseline variant
    int concurrency = 1;
    std::string eval = "full";
    std::string rps;  // realization probabilities for variants with erps=on
    int bootstrap_samples = 2000;
    std::uint64_t seed = 1;
};

struct TreeSizeResult {
    std::vector<std::vector<TreeRun>> runs;  // [variant][position]
};

TreeSizeResult run_treesize(const TreeSizeSettings& s, bool progress);

// 95% bootstrap interval of sum(a) / sum(b) over resampled positions.
std::pair<double, double> bootstrap_ratio(const std::vector<double>& a, const std::vector<double>& b, int samples,
                                          std::uint64_t seed);

// The raw runs of the positions `indices` (a shard of a run split over Slurm tasks; `r` holds
// their runs in that order, `s` is the whole experiment) with what identifies the experiment,
// and their merge into the whole result. merge_treesize_runs
// throws InputError when the file is of another experiment or is not such a file.
std::string treesize_runs_json(const TreeSizeSettings& s, const TreeSizeResult& r, const std::vector<std::size_t>& indices);
void merge_treesize_runs(const TreeSizeSettings& s, const std::string& path, TreeSizeResult& into, std::vector<bool>& filled);

std::string treesize_table(const TreeSizeSettings& s, const TreeSizeResult& r);
std::string treesize_csv(const TreeSizeSettings& s, const TreeSizeResult& r);
std::string treesize_json(const TreeSizeSettings& s, const TreeSizeResult& r);
// What the plot needs: total nodes per depth and variant.
struct TreeSizeTotals {
    std::vector<std::string> names;
    std::size_t baseline = 0;
    std::size_t positions = 0;
    std::vector<int> depths;
    std::vector<std::vector<double>> nodes;  // [depth index][variant]
};
TreeSizeTotals treesize_totals(const TreeSizeSettings& s, const TreeSizeResult& r);
// The totals of an earlier run, from the file written by --json (redraw without searching).
TreeSizeTotals treesize_totals_from_json(const std::string& path);
// Two panels: nodes against depth (log scale) and the ratio to the baseline against depth.
void treesize_plot(const TreeSizeTotals& totals, const std::string& png_path);

// Positions for the experiments, sampled from the games of a records file: `per_game` plies
// between min_ply and max_ply of each game (seeded), distinct, not decided.
// Up to `per_game` distinct positions of each game, drawn (seeded) from plies min_ply..max_ply,
// or, when `before_end` is set, from the positions that many plies before the end of games
// that a connection decided (endgame positions for the solver).
std::vector<loa::Position> sample_positions(const std::string& records_path, int per_game, int min_ply, int max_ply,
                                            std::uint64_t seed, std::optional<std::pair<int, int>> before_end = {});
std::vector<loa::Position> load_positions(const std::string& path);

}  // namespace matches
