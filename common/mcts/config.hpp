// MctsConfig: the switches of the Monte Carlo tree search (mcts.hpp), one value per variant,
// as SearchConfig is for the alpha-beta core.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mcts {

// How a play-out scores a leaf.
enum class Playout {
    Random,      // uniform random moves to the game's end (or max_playout_plies, then the evaluation)
    EvalCutoff,  // `cutoff_plies` random moves, then the evaluation as a win probability
};

struct MctsConfig {
    // UCT: a child's value plus exploration * sqrt(ln(parent visits) / child visits), values
    // in [0, 1] (Kocsis and Szepesvári).
    double exploration = 0.6;
    // MCTS-Solver (Winands, Björnsson and Saito): proven wins, losses and draws are backed up
    // through the tree, proven children leave the selection, and a proven root ends the search.
    bool solver = true;
    Playout playout = Playout::EvalCutoff;
    int cutoff_plies = 4;
    // Evaluation units per logistic unit: an evaluation e scores 1 / (1 + exp(-e / eval_scale)).
    int eval_scale = 200;
    // A random play-out that has not ended after this many plies is scored by the evaluation.
    int max_playout_plies = 300;
    std::uint64_t seed = 1;
    // The tree's size cap (nodes of 32 bytes): at the cap, leaves are no longer expanded and
    // the search goes on with play-outs from the leaves it has.
    std::size_t max_tree_nodes = 4'000'000;
};

}  // namespace mcts
