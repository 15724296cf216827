// MctsConfig: the switches of the Monte Carlo tree search (mcts.hpp), one value per variant,
// as search::SearchConfig is for the alpha-beta core. A variant string selects MCTS with
// algorithm=mcts (or the preset `mcts`); the keys: common/variant/keys.cpp.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mcts {

// How a play-out scores a leaf.
enum class Playout {
    Random,      // uniform random moves to the game's end (or max_playout_plies, then the evaluation)
    EvalCutoff,  // `cutoff_plies` random moves, then the evaluation as a win probability
    // MC-LOAαβ (Winands and Björnsson, "αβ-based play-outs in MCTS", CIG 2011): each of the
    // `cutoff_plies` moves is chosen by an `ab_depth`-ply alpha-beta search of the shared core
    // (a random move instead with probability ab_random_percent / 100), then the evaluation.
    AlphaBeta,
    // Random moves drawn in proportion to their category's realization probability (the
    // transition probabilities of MC-LOA), `cutoff_plies` of them, then the evaluation. Needs
    // the game's probabilities (in LOA: rps=FILE).
    Weighted,
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
    // Progressive bias (Chaslot et al.; MC-LOA's selection): a child's UCT value gains
    // bias_percent / 100 * P / (visits + 1), P its move's realization probability, and the
    // unvisited children are tried most probable first. 0: off. Needs the game's probabilities.
    int bias_percent = 0;
    // Evaluation units per logistic unit: an evaluation e scores 1 / (1 + exp(-e / eval_scale)).
    int eval_scale = 200;
    // A random play-out that has not ended after this many plies is scored by the evaluation.
    int max_playout_plies = 300;
    // Alpha-beta play-outs: the depth of each move's search, and how often a random move is
    // played instead (in percent), so that play-outs from one leaf differ.
    int ab_depth = 2;
    int ab_random_percent = 5;
    // A leaf is expanded (all its children added) at its this-many-th visit; before that its
    // play-outs start from the leaf itself. Higher values grow the tree more slowly.
    int expand_visits = 1;
    std::uint64_t seed = 1;
    // The tree's memory: at the cap, leaves are no longer expanded and the search goes on with
    // play-outs from the leaves it has.
    int tree_mb = 128;
    // Tree reuse: the next search of the same game starts from the subtree of the moves played
    // since, when the old tree holds them (the visits and proofs under it stay valid: the game
    // before it is the same line).
    bool reuse = true;

    friend bool operator==(const MctsConfig&, const MctsConfig&) = default;
};

}  // namespace mcts
