// Evaluation tuning from game results (Texel's method, as logistic regression).
//
// Positions are taken from finished games of the runner's records; each is replaced by the
// leaf of its quiescence line (a position with captures pending says little about who stands
// better), and labelled with the game's result from that leaf's side to move: 1, 1/2 or 0.
// The evaluation is linear in its weights, so the model
//     P(side to move wins) = sigmoid(K * eval),  eval = sum_f w_f(phase) * d_f / 100 + side_to_move
// (d_f: the feature's difference, side to move minus opponent; w_f tapered between an opening
// and an endgame weight by the number of pieces) is a logistic regression in the weights. It is
// fitted by Newton's method (Eigen) on the cross-entropy, with an L2 pull towards the starting
// weights. K is first fitted for the starting weights and then held, so the tuned weights keep
// the evaluation's scale: a centi-unit means what it meant before, and the search's margins
// (aspiration window, resign score) keep their sense.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "loa/evaluation.hpp"
#include "loa/position.hpp"
#include "loa/rules.hpp"

namespace matches {

struct TuneSettings {
    std::vector<std::string> record_files;   // game records written by loa-match --pgn
    int per_game = 0;                        // positions taken from each game (0: all of them)
    int min_ply = 4;                         // earliest ply taken (the opening moves are random)
    std::uint64_t seed = 1;                  // position sampling and the held-out games
    double holdout = 0.1;                    // share of games kept out of the fit, to check it
    bool tapered = true;                     // fit opening and endgame weights
    std::vector<loa::Feature> frozen;        // features kept at their starting weight
    bool tune_side_to_move = true;
    double l2 = 1e-5;  // pull towards the starting weights: l2/2 x (change / 10)^2 per weight
    int max_iterations = 30;
    loa::EvalWeights start = loa::EvalWeights::hand();  // where texel-1 started (make-texel-1.sh)
    loa::RuleSet rules;  // the rules the games were played under (records do not say)
};

// One labelled quiet position: its feature differences and the result for its side to move.
struct TuneSample {
    loa::FeatureValues difference{};  // side to move minus opponent
    int phase = loa::MaxPhase;
    double result = 0.5;
    bool holdout = false;
    int game = 0;         // which game it came from (counted over every file)
    loa::Position leaf;  // the quiet position the features were taken from
};

struct TuneReport {
    loa::EvalWeights weights;
    double k = 0;  // sigmoid scale, per centi-unit
    bool k_at_bound = false;  // K ended at a clamp (1e-6 or 1): the data barely follow the evaluation
    int games = 0, positions = 0, holdout_positions = 0, iterations = 0;
    double loss_start = 0, loss_tuned = 0;                  // fitted positions, cross-entropy
    double holdout_loss_start = 0, holdout_loss_tuned = 0;  // held-out games
};

// Reads the records and labels their (quiescence-leaf) positions; throws InputError.
std::vector<TuneSample> collect_samples(const TuneSettings& s);
// Fits the weights to the samples; throws InputError when there is nothing to fit.
TuneReport fit_weights(const TuneSettings& s, const std::vector<TuneSample>& samples);
// Mean cross-entropy of sigmoid(k * eval) against the results (eval as the engine computes it).
double cross_entropy(const std::vector<TuneSample>& samples, const loa::EvalWeights& w, double k, bool holdout);
// The report a person reads: sizes, K, losses, and each weight before and after.
std::string tune_summary(const TuneSettings& s, const TuneReport& r);

}  // namespace matches
