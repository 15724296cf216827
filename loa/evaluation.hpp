// The LOA evaluation, after the feature family of Winands' MIA: concentration (dominant),
// centralisation, centre-of-mass position, quads (Euler number), mobility, walls,
// connectedness (connections and groups), uniformity, and a side-to-move bonus; and two terms
// older LOA evaluators used (Winands et al. list "material advantage" and "(partial) blocking"
// among the usual components), weighted 0 unless a weights file says otherwise.
//
// Scale: scores are in centi-units, from the side to move's point of view; 100 is about the
// worth of a clearly better piece structure (one group less, say). Each feature is an integer
// per side, larger = better for that side, in its own documented unit; the score is
//     sum over features of weight * (feature(us) - feature(them)) / 100 + side_to_move
// clamped to +-EvalClamp, far inside the search's win/loss scores.
//
// Every feature is invariant under the 8 symmetries of the board and under the colour swap:
// distances are Chebyshev, the centre of mass is exact (no rounding), and tables are
// symmetric, so the evaluation is too (tests check it on random positions).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "loa/phase.hpp"
#include "loa/position.hpp"

namespace loa {

inline constexpr int EvalClamp = 20000;

enum class Feature {
    Concentration,   // 16000 / (16 + 16 * average surplus distance to the centre of mass)
    Centralisation,  // average piece-square value (table favouring the centre), -80..50
    CentreOfMass,    // -10 * twice the Chebyshev distance of the centre of mass from the middle
    Quads,           // -25 * (Q1 - Q3 - 2Qd - 4) = -100 * (Euler number - 1)
    Mobility,        // sum over legal moves: 4, +4 capture, -2 to the edge, +2 towards the centre
    Walls,           // -100 per own edge piece whose inward neighbour is an enemy piece
    Connections,     // 100 * adjacent own pairs / pieces
    Groups,          // -100 * (8-connected groups - 1)
    Uniformity,      // -10 * area of the smallest rectangle around the pieces
    Material,        // 100 * pieces (the literature's "material advantage"; either sign can pay)
    Blocked,         // -100 * pieces without a legal move ("(partial) blocking")
};
inline constexpr int FeatureCount = 11;
std::string_view feature_name(Feature f);
std::optional<Feature> feature_from_name(std::string_view name);

// Tapered weights: with `tapered`, a feature's weight moves linearly from `weight` (the opening,
// all 24 pieces on the board) to `endgame` (4 pieces or fewer) with the number of pieces:
//     w = (weight * phase + endgame * (MaxPhase - phase)) / MaxPhase,  phase = clamp(pieces - 4, 0, 20)
// Without it `weight` holds for the whole game (and the evaluation costs nothing more).
// (MaxPhase and game_phase: loa/phase.hpp.)

struct EvalWeights;
// The weight of feature `k` at `phase` (the tapered mix, or the single weight).
int weight_at(const EvalWeights& w, std::size_t k, int phase);

struct EvalWeights {
    std::array<int, FeatureCount> weight{};  // percent: 100 means feature units = centi-units
    int side_to_move = 0;                    // bonus for the side to move, centi-units
    bool tapered = false;
    std::array<int, FeatureCount> endgame{};  // with `tapered`: the weights with 4 pieces or fewer

    int& operator[](Feature f) { return weight[static_cast<std::size_t>(f)]; }
    int operator[](Feature f) const { return weight[static_cast<std::size_t>(f)]; }

    static EvalWeights full();                // the default evaluation (the tuned texel-1 weights)
    static EvalWeights hand();                // the hand-picked weights before tuning (experiments)
    static EvalWeights concentration_only();  // the dominant term alone (experiments)
    friend bool operator==(const EvalWeights&, const EvalWeights&) = default;
};

// JSON: {"concentration": 100, "mobility": 20, ..., "side_to_move": 10}, and for tapered
// weights "endgame": {"mobility": 60, ...}. Missing keys keep the values of `base` (over an
// untapered base, features the endgame object does not name take their opening weight); unknown
// keys are an error (InputError naming them).
EvalWeights parse_weights_json(std::string_view json, const EvalWeights& base = EvalWeights::full());
EvalWeights load_weights_file(const std::string& path, const EvalWeights& base = EvalWeights::full());
std::string weights_to_json(const EvalWeights& w);

using FeatureValues = std::array<int, FeatureCount>;

struct EvalBreakdown {
    std::array<FeatureValues, 2> features{};  // by colour
    FeatureValues terms{};                    // weighted difference, side to move's view
    int side_to_move = 0;
    int total = 0;
};

class Evaluator {
public:
    explicit Evaluator(const EvalWeights& weights = EvalWeights::full()) : weights_(weights) {}

    const EvalWeights& weights() const { return weights_; }
    int evaluate(const Position& pos) const;
    // Every feature is computed when every_feature is set; otherwise zero-weight ones are
    // skipped (and read 0), which is what the search uses.
    EvalBreakdown breakdown(const Position& pos, bool every_feature = true) const;

private:
    EvalWeights weights_;
};

// Feature values of one side (the evaluation's building block; exposed for tests).
FeatureValues side_features(const Position& pos, Colour side, const EvalWeights& weights, bool every_feature = true);

}  // namespace loa
