// Match statistics: Elo from a score with its 95% interval, LOS, draw ratio, normalised Elo,
// from trinomial (W/D/L) or pentanomial (game pair) counts.
//
// Sources: the logistic Elo model (Elo 1978): s = 1 / (1 + 10^(-elo/400)); the interval is the
// normal approximation on the mean score with the sample variance of game (or pair) scores, and
// the LOS is Phi((s - 0.5) / se) from the same units (trinomial: Phi((W - L) / sqrt(W + L))).
// With colour-swapped pairs the pair is the unit: its two games are not independent. A sample
// without variance (every game or pair alike) would give an interval of width 0; its variance
// is taken as that of the sample with one more game (pair) spread evenly over the outcomes, so
// that ten drawn pairs read as roughly +-45 Elo, not as a certainty. Normalised Elo (Van den
// Bergh) is fishtest's, formula and regularisation (every zero count taken as 1e-3): nElo =
// (s - 0.5) / sigma * 800 / ln 10 with sigma one game's standard deviation (a pair's divided by
// sqrt 2), its interval by the delta method, n Var(t) = 1 - t skew + t^2 (exkurt + 2) / 4;
// fastchess takes n Var(t) = 1, usually a narrower interval. The SPRT is in sprt.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace matches {

struct Trinomial {
    std::int64_t wins = 0, draws = 0, losses = 0;
    std::int64_t games() const { return wins + draws + losses; }
    double score() const;
};

// Counts of game pairs by the first engine's pair score: 0, 0.5, 1, 1.5, 2 points.
struct Pentanomial {
    std::array<std::int64_t, 5> count{};
    std::int64_t pairs() const { return count[0] + count[1] + count[2] + count[3] + count[4]; }
};

struct EloEstimate {
    double score = 0.5;
    double elo = 0, elo_low = 0, elo_high = 0;  // 95% interval
    double normalized_elo = 0, nelo_error = 0;  // nElo and the half width of its 95% interval
    double los = 0.5;                           // likelihood of superiority
    double draw_ratio = 0;
    double variance = 0;  // per game (trinomial) or per pair (pentanomial), in score units
};

double elo_to_score(double elo);
double score_to_elo(double score);  // clamped away from 0 and 1

EloEstimate estimate(const Trinomial& t);
EloEstimate estimate(const Pentanomial& p, const Trinomial& games);

// Ratings of several players fitted by maximum likelihood under the Bradley-Terry (logistic
// Elo) model, draws counted as half a win each side (as Ordo and BayesElo do by default).
// Fitted with the minorisation-maximisation iteration of Hunter (2004); error bars from the
// inverse Fisher information with the anchor's rating fixed.
struct Rating {
    double elo = 0;
    double error = 0;  // half width of the 95% interval
    double points = 0;
    int games = 0;
};

// How the games between two players came in colour-swapped pairs: count[i][j] whole pairs, and
// the variance of a pair's mean score (EloEstimate::variance of the pentanomial estimate).
struct PairSpread {
    std::vector<std::vector<int>> count;
    std::vector<std::vector<double>> variance;
};

// points[i][j]: points player i scored against player j; games[i][j]: games between them. The
// ratings are the games' maximum likelihood; their error bars count the games as independent,
// or, with `pairs`, each pairing's information from its pairs (as its pentanomial interval
// does), so that the table agrees with the pairings' intervals.
std::vector<Rating> fit_ratings(const std::vector<std::vector<double>>& points,
                                const std::vector<std::vector<int>>& games, int anchor, const PairSpread* pairs = nullptr);

}  // namespace matches
