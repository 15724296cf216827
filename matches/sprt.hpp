// The sequential probability ratio test on game pairs, as fishtest and fastchess run it: the
// generalised SPRT (GSPRT) of Van den Bergh on the pentanomial distribution of pair scores.
//
// For each hypothesis H (elo0, elo1) the distribution of pair scores is the maximum-likelihood
// pentanomial distribution of the observed sample under the constraint H puts on it:
// - logistic model: its mean score equals 1 / (1 + 10^(-elo/400));
// - normalized model: its t-value (mu - 1/2) / sigma equals nElo * sqrt(2) * ln(10) / 800
//   (nElo is per game, sigma is a pair's standard deviation).
// LLR = N * sum_i phat_i * ln(p1_i / p0_i), with phat the observed frequencies after empty
// cells are given a count of 1e-3 (so that the maximum-likelihood problems have a solution).
// Unlike the normal approximation N / (2 var) * ((x - s0)^2 - (x - s1)^2), this stays small
// on samples without variance (all pairs 1-1, or all 2-0): such samples say little.
// Bounds: ln(beta / (1 - alpha)) and ln((1 - beta) / alpha) (Wald 1945).
#pragma once

#include <string>

#include "matches/stats.hpp"

namespace matches {

enum class EloModel { Logistic, Normalized };

struct SprtSettings {
    double elo0 = 0, elo1 = 10, alpha = 0.05, beta = 0.05;
    EloModel model = EloModel::Normalized;
    double lower_bound() const;
    double upper_bound() const;
};

// "elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized|logistic"; throws InputError.
SprtSettings parse_sprt(const std::string& spec);
std::string to_string(EloModel m);

enum class SprtDecision { Continue, AcceptH0, AcceptH1 };

double sprt_llr(const Pentanomial& p, const SprtSettings& s);
SprtDecision sprt_decision(double llr, const SprtSettings& s);
std::string to_string(SprtDecision d);

}  // namespace matches
