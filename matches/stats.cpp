#include "matches/stats.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/text.hpp"

namespace matches {
namespace {

constexpr double Z95 = 1.959963984540054;  // two-sided 95% normal quantile
const double NeloScale = 800.0 / std::log(10.0);

double clamp_score(double s) { return std::clamp(s, 1e-6, 1 - 1e-6); }

}  // namespace

double Trinomial::score() const {
    const auto n = games();
    return n ? (static_cast<double>(wins) + 0.5 * static_cast<double>(draws)) / static_cast<double>(n) : 0.5;
}

double elo_to_score(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }
double score_to_elo(double score) { return -400.0 * std::log10(1.0 / clamp_score(score) - 1.0); }

namespace {

// Shared by both models: mean and variance of per-unit scores with their frequencies.
EloEstimate from_distribution(const double* values, const double* freq, int k, double units, double per_game_factor) {
    EloEstimate e;
    if (units <= 0) return e;
    // The `power`-th central moment of a distribution over `values`.
    auto moment = [&](const double* f, int power) {
        double m = 0, sum = 0;
        for (int i = 0; i < k; ++i) m += values[i] * f[i];
        for (int i = 0; i < k; ++i) sum += f[i] * std::pow(values[i] - m, power);
        return sum;
    };
    double mean = 0;
    for (int i = 0; i < k; ++i) mean += values[i] * freq[i];
    // The distribution whose spread the intervals use: the sample's, or when every unit is
    // alike the sample with one more unit spread evenly over the outcomes (see stats.hpp).
    // The mean stays the sample's.
    double smoothed[5];
    for (int i = 0; i < k; ++i) smoothed[i] = (freq[i] * units + 1.0 / k) / (units + 1);
    const double* spread = moment(freq, 2) == 0 ? smoothed : freq;
    const double var = moment(spread, 2);
    e.score = mean;
    e.variance = var;
    const double se = std::sqrt(var / units);
    e.elo = score_to_elo(mean);
    e.elo_low = score_to_elo(mean - Z95 * se);
    e.elo_high = score_to_elo(mean + Z95 * se);
    // nElo exactly as fishtest computes it (its formula is what the README names): on the
    // counts with every zero replaced by 1e-3, t = (mean - 0.5) / sd per unit (a game or a
    // pair), and its interval by the delta method, n Var(t) = 1 - t skew + t^2 (exkurt + 2) / 4,
    // which counts the sampling error of the deviation through the skewness and excess
    // kurtosis (fastchess takes it as 1). The regularised counts keep two outcomes in the ratio
    // that would make it vanish ({0, 0, 0, 2, 1} pairs) from reading as a certainty.
    {
        double counts[5], total = 0;
        for (int i = 0; i < k; ++i) total += counts[i] = freq[i] * units > 0 ? freq[i] * units : 1e-3;
        double regularized[5];
        for (int i = 0; i < k; ++i) regularized[i] = counts[i] / total;
        const double reg_var = moment(regularized, 2), reg_sd = std::sqrt(reg_var);
        double reg_mean = 0;
        for (int i = 0; i < k; ++i) reg_mean += values[i] * regularized[i];
        const double t = (reg_mean - 0.5) / reg_sd;
        const double skewness = moment(regularized, 3) / (reg_var * reg_sd);
        const double excess_kurtosis = moment(regularized, 4) / (reg_var * reg_var) - 3;
        const double var_t = std::max(0.0, 1 - t * skewness + 0.25 * t * t * (excess_kurtosis + 2));
        const double per_game = NeloScale / std::sqrt(per_game_factor);
        e.normalized_elo = t * per_game;
        e.nelo_error = Z95 * std::sqrt(var_t / total) * per_game;
    }
    // The likelihood of superiority from the same units as the interval (pairs when there are
    // pairs: their results are not independent games).
    e.los = mean == 0.5 ? 0.5 : 0.5 * (1.0 + std::erf((mean - 0.5) / (se * std::sqrt(2.0))));
    return e;
}

void fill_draws(EloEstimate& e, const Trinomial& t) {
    e.draw_ratio = t.games() ? static_cast<double>(t.draws) / static_cast<double>(t.games()) : 0;
}

}  // namespace

EloEstimate estimate(const Trinomial& t) {
    const double n = static_cast<double>(t.games());
    const double values[3] = {1.0, 0.5, 0.0};
    const double freq[3] = {n ? static_cast<double>(t.wins) / n : 0, n ? static_cast<double>(t.draws) / n : 0,
                            n ? static_cast<double>(t.losses) / n : 0};
    EloEstimate e = from_distribution(values, freq, 3, n, 1.0);
    // Trinomial: LOS = Phi((W - L) / sqrt(W + L)), the usual formula for independent games.
    const double decisive = static_cast<double>(t.wins + t.losses);
    e.los = decisive > 0 ? 0.5 * (1.0 + std::erf(static_cast<double>(t.wins - t.losses) / std::sqrt(2.0 * decisive))) : 0.5;
    fill_draws(e, t);
    return e;
}

EloEstimate estimate(const Pentanomial& p, const Trinomial& games) {
    const double n = static_cast<double>(p.pairs());
    const double values[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    double freq[5];
    for (int i = 0; i < 5; ++i) freq[i] = n ? static_cast<double>(p.count[static_cast<std::size_t>(i)]) / n : 0;
    // A pair's score averages two games: one game's variance is about twice the pair's.
    EloEstimate e = from_distribution(values, freq, 5, n, 2.0);
    fill_draws(e, games);
    return e;
}

std::vector<Rating> fit_ratings(const std::vector<std::vector<double>>& points,
                                const std::vector<std::vector<int>>& games, int anchor, const PairSpread* pairs) {
    const std::size_t n = points.size();
    std::vector<Rating> out(n);
    std::vector<double> gamma(n, 1.0);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) {
            out[i].points += points[i][j];
            out[i].games += games[i][j];
        }
    // A player with every point or none has no finite rating: half a point of prior keeps the
    // fit finite (the error bar then shows how little is known).
    auto wins = [&](std::size_t i) { return std::clamp(out[i].points, 0.5, out[i].games - 0.5); };
    for (int iteration = 0; iteration < 10000; ++iteration) {
        double change = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (!out[i].games) continue;
            double denominator = 0;
            for (std::size_t j = 0; j < n; ++j)
                if (games[i][j]) denominator += games[i][j] / (gamma[i] + gamma[j]);
            const double next = wins(i) / denominator;
            change = std::max(change, std::abs(std::log(next / gamma[i])));
            gamma[i] = next;
        }
        if (change < 1e-10) break;
    }
    const double scale = 400.0 / std::log(10.0);
    const auto a = static_cast<std::size_t>(anchor);
    for (std::size_t i = 0; i < n; ++i) out[i].elo = scale * std::log(gamma[i] / gamma[a]);
    // Fisher information of the log-strengths, anchor removed, inverted by Gauss-Jordan.
    std::vector<std::size_t> free;
    for (std::size_t i = 0; i < n; ++i)
        if (i != a && out[i].games) free.push_back(i);
    const std::size_t m = free.size();
    std::vector<std::vector<double>> info(m, std::vector<double>(2 * m, 0.0));
    for (std::size_t r = 0; r < m; ++r) {
        const std::size_t i = free[r];
        for (std::size_t j = 0; j < n; ++j) {
            if (!games[i][j]) continue;
            const double p = gamma[i] / (gamma[i] + gamma[j]);
            // Independent games: G p (1 - p). Game pairs: the information of P pairs whose mean
            // score has variance v per pair, (p (1 - p))^2 P / v (the delta method through
            // ds/dlog-strength = p (1 - p)): colour-swapped pairs that split 1-1 say more than
            // as many independent games would.
            const bool paired = pairs && (*pairs).count[i][j] > 0 && (*pairs).variance[i][j] > 0;
            const double w = paired ? p * (1 - p) * p * (1 - p) * (*pairs).count[i][j] / (*pairs).variance[i][j]
                                    : games[i][j] * p * (1 - p);
            info[r][r] += w;
            for (std::size_t c = 0; c < m; ++c)
                if (free[c] == j) info[r][c] -= w;
        }
        info[r][m + r] = 1;
    }
    for (std::size_t c = 0; c < m; ++c) {
        std::size_t pivot = c;
        for (std::size_t r = c + 1; r < m; ++r)
            if (std::abs(info[r][c]) > std::abs(info[pivot][c])) pivot = r;
        std::swap(info[c], info[pivot]);
        if (std::abs(info[c][c]) < 1e-12) return out;  // disconnected players: no error bars
        const double d = info[c][c];
        for (auto& v : info[c]) v /= d;
        for (std::size_t r = 0; r < m; ++r) {
            if (r == c) continue;
            const double f = info[r][c];
            for (std::size_t k = 0; k < 2 * m; ++k) info[r][k] -= f * info[c][k];
        }
    }
    for (std::size_t r = 0; r < m; ++r) out[free[r]].error = Z95 * scale * std::sqrt(std::max(0.0, info[r][m + r]));
    return out;
}

}  // namespace matches
