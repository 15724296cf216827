// SPSA (simultaneous perturbation stochastic approximation, Spall 1992) over numeric search
// keys, in the form fishtest tunes Stockfish with: every iteration perturbs all parameters at
// once by +-c_k (one random sign each), plays game pairs between the two perturbed engines,
// and moves every parameter along its sign by a step proportional to the result.
//
// Schedule (Spall's gains, fishtest's parametrisation by the values at the last iteration N):
//     c_k = c / k^gamma                   c = c_end * N^gamma
//     a_k = a / (A + k)^alpha             a = r_end * c_end^2 * (A + N)^alpha
// for k = 1..N, alpha = 0.602, gamma = 0.101, A = 10% of N. Iteration k plays theta + c_k*flip
// against theta - c_k*flip (values rounded to the keys' integers and kept within the bounds),
// result = wins - losses of the plus engine over its games, and
//     theta += a_k / c_k * result * flip      (clamped to [min, max]).
// c_end is the perturbation at the end (big enough to make a measurable difference: for an
// integer key at least 0.5, or the two engines would be the same), r_end the learning rate at
// the end (fishtest suggests 0.002; at most 1).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/variant/config.hpp"
#include "loa/rules.hpp"

namespace matches {

// One tuned value: a search key taking an integer (lmr_min_moves, aspiration, tm_max, ...), or
// one half of a tapered margin (futility.opening, razoring.endgame; a margin key alone sets
// both halves). Not switches, choices, table sizes or thread counts.
struct SpsaParam {
    std::string name;
    double start = 0, min = 0, max = 0;
    double c_end = 1, r_end = 0.002;
};

// "NAME=start,min,max,c_end,r_end" (the last two optional: c_end = (max - min) / 20 but at least
// 0.5, r_end = 0.002). Throws common::InputError naming the fault: unknown key, a key that takes no
// integer, bounds out of the key's range, start outside [min, max], c_end < 0.5.
SpsaParam parse_spsa_param(std::string_view text);

struct SpsaSchedule {
    int iterations = 1000;
    double alpha = 0.602, gamma = 0.101;
    double a_ratio = 0.1;  // A = a_ratio * iterations
    double big_a() const { return a_ratio * iterations; }
    // The perturbation and the step of iteration k (1-based) for `p`.
    double c_k(const SpsaParam& p, int k) const;
    double a_k(const SpsaParam& p, int k) const;
};

// +1 when the plus engine won the game, -1 when it lost, 0 for a draw.
int spsa_game_score(loa::Outcome outcome, bool plus_black);

// The signs of iteration k: one +-1 a parameter, from the seed and k alone (a resumed run draws
// the same ones).
std::vector<int> spsa_flips(std::uint64_t seed, int k, std::size_t count);

// theta +- c_k * flip within the bounds.
std::vector<double> spsa_perturbed(const std::vector<SpsaParam>& params, const std::vector<double>& theta,
                                   const std::vector<int>& flips, const SpsaSchedule& schedule, int k, int sign);

// The update after iteration k, result = wins - losses of the plus engine.
std::vector<double> spsa_update(const std::vector<SpsaParam>& params, const std::vector<double>& theta,
                                const std::vector<int>& flips, const SpsaSchedule& schedule, int k, int result);

// The engine keys that set `values` (rounded to integers): "lmr_min_moves=4,futility=90:120".
// A margin half not tuned keeps `base`'s value; throws InputError when the base has that
// margin off (there is no other half to keep).
std::string spsa_engine_keys(const std::vector<SpsaParam>& params, const std::vector<double>& values,
                             const variant::VariantConfig& base);

}  // namespace matches
