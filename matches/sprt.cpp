#include "matches/sprt.hpp"

#include <array>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/text.hpp"

namespace matches {
namespace {

constexpr std::size_t Cells = 5;
using Cell = std::array<double, Cells>;
constexpr Cell PairScore = {0.0, 0.25, 0.5, 0.75, 1.0};  // a pair's points / 2
constexpr double EmptyCellCount = 1e-3;
// Elo bounds past this are no test of anything.
constexpr double MaxEloBound = 1000;
// The t-value fixed point is followed in steps of at most this much t from the uniform start:
// a far target (large nElo bounds) linearised around the uniform distribution has no solution.
constexpr double MaxTStep = 0.1;

struct Moments {
    double mean = 0, variance = 0;
};

Moments moments(const Cell& p) {
    Moments m;
    for (std::size_t i = 0; i < Cells; ++i) m.mean += p[i] * PairScore[i];
    for (std::size_t i = 0; i < Cells; ++i) m.variance += p[i] * (PairScore[i] - m.mean) * (PairScore[i] - m.mean);
    return m;
}

// The distribution p closest (in likelihood) to phat with sum_i p_i b_i = 0. Its Lagrange
// conditions give p_i = phat_i / (1 + x b_i), where x solves g(x) = sum_i phat_i b_i / (1 + x b_i)
// = 0 on the interval that keeps every p_i positive; g falls strictly there, from +inf to
// -inf, so bisection finds the root to the last bit.
Cell tilt(const Cell& phat, const Cell& b) {
    double lowest = 0, highest = 0;
    for (const double v : b) {
        lowest = std::min(lowest, v);
        highest = std::max(highest, v);
    }
    if (!(lowest < 0 && highest > 0)) throw std::domain_error("sprt: the hypothesis lies outside the possible scores");
    double lo = -1 / highest, hi = -1 / lowest;
    auto g = [&](double x) {
        double sum = 0;
        for (std::size_t i = 0; i < Cells; ++i) sum += phat[i] * b[i] / (1 + x * b[i]);
        return sum;
    };
    for (int step = 0; step < 200; ++step) {
        const double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi) break;
        (g(mid) > 0 ? lo : hi) = mid;
    }
    const double x = 0.5 * (lo + hi);
    Cell p;
    double total = 0;
    for (std::size_t i = 0; i < Cells; ++i) total += p[i] = phat[i] / (1 + x * b[i]);
    for (double& v : p) v /= total;  // exact at the root; removes the last rounding
    return p;
}

// Maximum likelihood under "the mean score is s" (Van den Bergh, Proposition 1.1).
Cell most_likely_with_mean(const Cell& phat, double s) {
    Cell b;
    for (std::size_t i = 0; i < Cells; ++i) b[i] = PairScore[i] - s;
    return tilt(phat, b);
}

// Maximum likelihood under "(mu - 1/2) / sigma = t". The constraint is not linear in p: it is
// linearised around the current estimate (mu, sigma), whose gradient in p_i is
// a_i - t ((a_i - mu)^2 - mu^2) / (2 sigma); shifted by a constant to
// b_i = a_i - 1/2 - t (sigma^2 + (a_i - mu)^2) / (2 sigma), sum_i p_i b_i = 0 is exactly the
// constraint at a fixed point. The tilt is repeated until p stops moving (Van den Bergh,
// "Normalized Elo, practical considerations", section 4.1).
Cell fixed_point_with_t_value(const Cell& phat, double t, Cell p) {
    for (int iteration = 0; iteration < 100; ++iteration) {
        const Moments m = moments(p);
        const double sigma = std::sqrt(m.variance);
        Cell b;
        for (std::size_t i = 0; i < Cells; ++i) {
            const double z = (m.mean - PairScore[i]) / sigma;
            b[i] = PairScore[i] - 0.5 - t * sigma * (1 + z * z) / 2;
        }
        const Cell next = tilt(phat, b);
        double change = 0;
        for (std::size_t i = 0; i < Cells; ++i) change = std::max(change, std::abs(next[i] - p[i]));
        p = next;
        if (change < 1e-10) break;  // the bisection's own noise is about 1e-12
    }
    return p;
}

Cell most_likely_with_t_value(const Cell& phat, double t) {
    Cell p;
    p.fill(1.0 / Cells);
    const int steps = std::max(1, static_cast<int>(std::ceil(std::abs(t) / MaxTStep)));
    for (int k = 1; k <= steps; ++k) p = fixed_point_with_t_value(phat, t * k / steps, p);
    return p;
}

}  // namespace

double SprtSettings::lower_bound() const { return std::log(beta / (1 - alpha)); }
double SprtSettings::upper_bound() const { return std::log((1 - beta) / alpha); }

std::string to_string(EloModel m) { return m == EloModel::Normalized ? "normalized" : "logistic"; }

SprtSettings parse_sprt(const std::string& spec) {
    SprtSettings s;
    for (const auto& [key, value] : common::parse_key_values(spec, "sprt")) {
        if (key == "model") {
            if (value == "normalized" || value == "normalised") s.model = EloModel::Normalized;
            else if (value == "logistic") s.model = EloModel::Logistic;
            else throw common::InputError(fmt::format("sprt: bad model '{}' (normalized or logistic)", value));
            continue;
        }
        if (value.empty() && common::parse_double(key))
            throw common::InputError(fmt::format("sprt: name the bounds: elo0=...,elo1=... (e.g. --sprt elo0=0,elo1=10), not '{}'", spec));
        if (key != "elo0" && key != "elo1" && key != "alpha" && key != "beta") {
            const std::string near = common::nearest_word(key, {"elo0", "elo1", "alpha", "beta", "model"});
            throw common::InputError(fmt::format("sprt: unknown key '{}'{} (--sprt elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized)",
                                                 key, near.empty() ? "" : fmt::format("; did you mean '{}'?", near)));
        }
        const auto parsed = common::parse_double(value);
        if (!parsed || !std::isfinite(*parsed))
            throw common::InputError(fmt::format("sprt: {} needs a number ({}=10), not '{}'", key, key, value));
        const double v = *parsed;
        if (key == "elo0") s.elo0 = v;
        else if (key == "elo1") s.elo1 = v;
        else if (key == "alpha") s.alpha = v;
        else if (key == "beta") s.beta = v;
        else throw common::InputError(fmt::format("sprt: unknown key '{}' (elo0, elo1, alpha, beta, model)", key));
    }
    if (!(s.elo0 < s.elo1)) throw common::InputError("sprt: elo0 must be below elo1");
    if (std::abs(s.elo0) > MaxEloBound || std::abs(s.elo1) > MaxEloBound)
        throw common::InputError(fmt::format("sprt: elo0 and elo1 must lie within +-{:g}", MaxEloBound));
    if (s.alpha <= 0 || s.alpha >= 0.5 || s.beta <= 0 || s.beta >= 0.5)
        throw common::InputError("sprt: alpha and beta must lie in (0, 0.5)");
    return s;
}

double sprt_llr(const Pentanomial& p, const SprtSettings& s) {
    if (p.pairs() == 0) return 0;
    Cell phat;
    double n = 0;
    for (std::size_t i = 0; i < Cells; ++i) {
        phat[i] = p.count[i] ? static_cast<double>(p.count[i]) : EmptyCellCount;
        n += phat[i];
    }
    for (double& v : phat) v /= n;
    Cell p0, p1;
    if (s.model == EloModel::Logistic) {
        p0 = most_likely_with_mean(phat, elo_to_score(s.elo0));
        p1 = most_likely_with_mean(phat, elo_to_score(s.elo1));
    } else {
        const double per_pair = std::sqrt(2.0) * std::log(10.0) / 800.0;  // t-value of a pair per nElo
        p0 = most_likely_with_t_value(phat, s.elo0 * per_pair);
        p1 = most_likely_with_t_value(phat, s.elo1 * per_pair);
    }
    double llr = 0;
    for (std::size_t i = 0; i < Cells; ++i) llr += phat[i] * std::log(p1[i] / p0[i]);
    return n * llr;
}

SprtDecision sprt_decision(double llr, const SprtSettings& s) {
    if (llr >= s.upper_bound()) return SprtDecision::AcceptH1;
    if (llr <= s.lower_bound()) return SprtDecision::AcceptH0;
    return SprtDecision::Continue;
}

std::string to_string(SprtDecision d) {
    switch (d) {
        case SprtDecision::Continue: return "continue";
        case SprtDecision::AcceptH0: return "H0 accepted";
        case SprtDecision::AcceptH1: return "H1 accepted";
    }
    return "?";
}

}  // namespace matches
