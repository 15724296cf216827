#include "matches/tune.hpp"

#include <cerrno>
#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <set>
#include <string_view>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "common/error.hpp"
#include "common/files.hpp"
#include "loa/searchers.hpp"
#include "common/text.hpp"
#include "loa/game.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "matches/records.hpp"

namespace matches {
namespace {

using common::InputError;

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }

// Cross-entropy of one prediction, kept finite at certainty.
double loss_of(double p, double result) {
    p = std::clamp(p, 1e-12, 1 - 1e-12);
    return -(result * std::log(p) + (1 - result) * std::log(1 - p));
}

// The evaluation the engine computes from a sample's differences (the same integer arithmetic).
int engine_eval(const TuneSample& t, const loa::EvalWeights& w) {
    int total = 0;
    for (std::size_t k = 0; k < static_cast<std::size_t>(loa::FeatureCount); ++k)
        total += loa::weight_at(w, k, t.phase) * t.difference[k] / 100;
    return std::clamp(total + w.side_to_move, -loa::EvalClamp, loa::EvalClamp);
}

// The result of a record for the side to move of a position: 1, 1/2, 0; nullopt if unfinished.
std::optional<double> result_for(const std::string& result, loa::Colour side) {
    if (result == "1/2-1/2") return 0.5;
    if (result == "1-0") return side == loa::Colour::White ? 1.0 : 0.0;
    if (result == "0-1") return side == loa::Colour::Black ? 1.0 : 0.0;
    return std::nullopt;
}

// The columns of the regression: per tuned feature an opening (and with tapering an endgame)
// column, then the side-to-move intercept. Frozen features go to a fixed offset instead.
struct Design {
    std::vector<std::size_t> features;  // tuned
    bool tapered = true;
    bool intercept = true;
    int columns() const { return static_cast<int>(features.size()) * (tapered ? 2 : 1) + (intercept ? 1 : 0); }
};

Design design_of(const TuneSettings& s) {
    Design d;
    d.tapered = s.tapered;
    d.intercept = s.tune_side_to_move;
    for (std::size_t k = 0; k < static_cast<std::size_t>(loa::FeatureCount); ++k)
        if (std::find(s.frozen.begin(), s.frozen.end(), static_cast<loa::Feature>(k)) == s.frozen.end()) d.features.push_back(k);
    return d;
}

// Weights (centi-units per feature unit x 100) as regression coefficients, and back.
Eigen::VectorXd coefficients(const Design& d, const loa::EvalWeights& w) {
    Eigen::VectorXd beta(d.columns());
    int c = 0;
    for (const std::size_t k : d.features) {
        beta(c++) = w.weight[k];
        if (d.tapered) beta(c++) = w.tapered ? w.endgame[k] : w.weight[k];
    }
    if (d.intercept) beta(c++) = w.side_to_move;
    return beta;
}

loa::EvalWeights weights_of(const Design& d, const Eigen::VectorXd& beta, const loa::EvalWeights& start) {
    loa::EvalWeights w = start;
    if (d.tapered && !w.tapered) {
        w.tapered = true;
        w.endgame = w.weight;
    }
    // The engine refuses weights beyond +-1,000,000: a fit that goes there has diverged.
    auto weight = [&](double b, std::string_view name) {
        if (!std::isfinite(b) || std::abs(b) > 1e6)
            throw InputError(fmt::format("tune: the fit diverged (weight of {} = {}): give more games or a larger --l2", name, b));
        return static_cast<int>(std::lround(b));
    };
    int c = 0;
    for (const std::size_t k : d.features) {
        const std::string_view name = loa::feature_name(static_cast<loa::Feature>(k));
        w.weight[k] = weight(beta(c++), name);
        // A flat fit gives one weight for the whole game, also over tapered starting weights.
        if (d.tapered) w.endgame[k] = weight(beta(c++), name);
        else if (w.tapered) w.endgame[k] = w.weight[k];
    }
    if (d.intercept) w.side_to_move = weight(beta(c++), "side_to_move");
    return w;
}

// The quiet position that `pos` resolves to: quiescence's principal line played out, again from
// its end while quiescence still plays captures there (its line stops at its ply limit, so one
// line may end with captures pending). nullopt when the line ends the game (a decided leaf says
// nothing of the weights) or does not come to rest.
std::optional<loa::Position> quiet_leaf(search::Searcher<loa::SearchGame>& searcher, const loa::Position& pos) {
    loa::Position leaf = pos;
    for (int round = 0; round < 8; ++round) {
        const std::vector<loa::Move> line = searcher.quiescence_line(leaf).first;
        if (line.empty()) return leaf;
        for (const loa::Move m : line) leaf.make(m);
        if (searcher.game().status(leaf) != search::Status::Ongoing) return std::nullopt;
    }
    return std::nullopt;
}

}  // namespace

std::vector<TuneSample> collect_samples(const TuneSettings& s) {
    // Two generators: which games are held out does not depend on --per-game.
    std::mt19937_64 holdout_rng(s.seed), sample_rng(s.seed ^ 0x9e3779b97f4a7c15ULL);
    std::bernoulli_distribution held_out(s.holdout);
    const loa::Evaluator evaluator(s.start);
    // Only quiescence runs: no transposition table.
    search::Searcher<loa::SearchGame> searcher(loa::SearchGame(s.rules, evaluator), variant::parse_variant("full,tt=off"));
    std::vector<TuneSample> out;
    int games = 0;
    for (const std::string& file : s.record_files) {
        common::FileReader reader(file, common::MaxRecordFile, "tune");
        std::vector<ParsedRecord> records;
        try {
            records = read_records(reader.stream());
            reader.check();
        } catch (const InputError& e) {
            throw InputError(fmt::format("tune: '{}': {}", file, e.what()));
        }
        for (const ParsedRecord& rec : records) {
            const auto result = rec.tags.find("Result");
            if (result == rec.tags.end() || !result_for(result->second, loa::Colour::Black)) continue;
            const bool holdout = held_out(holdout_rng);
            ++games;
            loa::Game game(loa::parse_position(rec.start_text()), s.rules);
            std::vector<loa::Position> taken;
            for (const std::string& m : rec.moves) {
                if (game.over()) break;
                if (game.ply() >= s.min_ply) taken.push_back(game.position());
                game.play(m);
            }
            if (s.per_game > 0 && static_cast<int>(taken.size()) > s.per_game) {
                std::shuffle(taken.begin(), taken.end(), sample_rng);
                taken.resize(static_cast<std::size_t>(s.per_game));
            }
            for (const loa::Position& p : taken) {
                const auto leaf_found = quiet_leaf(searcher, p);
                if (!leaf_found) continue;
                const loa::Position& leaf = *leaf_found;
                TuneSample t;
                const loa::EvalBreakdown b = evaluator.breakdown(leaf);
                const loa::Colour us = leaf.side_to_move();
                for (std::size_t k = 0; k < static_cast<std::size_t>(loa::FeatureCount); ++k)
                    t.difference[k] = b.features[loa::index(us)][k] - b.features[loa::index(~us)][k];
                t.phase = loa::game_phase(leaf);
                t.result = *result_for(result->second, us);
                t.holdout = holdout;
                t.game = games;
                t.leaf = leaf;
                out.push_back(t);
            }
        }
    }
    return out;
}

double cross_entropy(const std::vector<TuneSample>& samples, const loa::EvalWeights& w, double k, bool holdout) {
    double sum = 0;
    std::size_t n = 0;
    for (const TuneSample& t : samples) {
        if (t.holdout != holdout) continue;
        sum += loss_of(sigmoid(k * engine_eval(t, w)), t.result);
        ++n;
    }
    return n ? sum / static_cast<double>(n) : 0;
}

TuneReport fit_weights(const TuneSettings& s, const std::vector<TuneSample>& samples) {
    const Design d = design_of(s);
    std::vector<const TuneSample*> fit;
    for (const TuneSample& t : samples)
        if (!t.holdout) fit.push_back(&t);
    if (d.columns() == 0) throw InputError("tune: every weight is frozen: nothing to fit");
    if (fit.size() < 10 * static_cast<std::size_t>(d.columns()))
        throw InputError(fmt::format("tune: {} positions to fit {} weights: give more games", fit.size(), d.columns()));
    TuneReport r;
    r.positions = static_cast<int>(fit.size());
    r.holdout_positions = static_cast<int>(samples.size() - fit.size());

    // K for the starting weights: one-dimensional Newton on the cross-entropy (convex in K).
    double k = 0.005;
    for (int i = 0; i < 50; ++i) {
        double g = 0, h = 0;
        for (const TuneSample* t : fit) {
            const double e = engine_eval(*t, s.start), p = sigmoid(k * e);
            g += (p - t->result) * e;
            h += p * (1 - p) * e * e;
        }
        if (h <= 0) break;
        const double step = g / h;
        k = std::clamp(k - step, 1e-6, 1.0);
        if (std::abs(step) < 1e-9) break;
    }
    r.k = k;
    r.k_at_bound = k <= 1e-6 || k >= 1.0;

    // The design matrix in weight units: column value x coefficient (a weight) = K x centi-units.
    const int n = static_cast<int>(fit.size()), m = d.columns();
    Eigen::MatrixXd x(n, m);
    Eigen::VectorXd y(n), offset(n);
    for (int i = 0; i < n; ++i) {
        const TuneSample& t = *fit[static_cast<std::size_t>(i)];
        const double opening = static_cast<double>(t.phase) / loa::MaxPhase;
        int c = 0;
        for (const std::size_t f : d.features) {
            const double v = k * t.difference[f] / 100.0;
            if (d.tapered) {
                x(i, c++) = v * opening;
                x(i, c++) = v * (1 - opening);
            } else {
                x(i, c++) = v;
            }
        }
        if (d.intercept) x(i, c++) = k;
        double fixed = d.intercept ? 0 : s.start.side_to_move;
        for (const loa::Feature f : s.frozen) {
            const auto fk = static_cast<std::size_t>(f);
            fixed += loa::weight_at(s.start, fk, t.phase) * t.difference[fk] / 100.0;
        }
        offset(i) = k * fixed;
        y(i) = t.result;
    }
    const Eigen::VectorXd prior = coefficients(d, s.start);
    Eigen::VectorXd beta = prior;
    auto objective = [&](const Eigen::VectorXd& b) {
        const Eigen::VectorXd z = x * b + offset;
        double sum = 0;
        for (int i = 0; i < n; ++i) sum += loss_of(sigmoid(z(i)), y(i));
        return sum / n + 0.5 * s.l2 * (b - prior).squaredNorm() / 100.0;  // (change / 10)^2
    };
    double current = objective(beta);
    for (r.iterations = 0; r.iterations < s.max_iterations; ++r.iterations) {
        const Eigen::VectorXd z = x * beta + offset;
        Eigen::VectorXd p(n), w(n);
        for (int i = 0; i < n; ++i) {
            p(i) = sigmoid(z(i));
            w(i) = p(i) * (1 - p(i));
        }
        const Eigen::VectorXd gradient = x.transpose() * (p - y) / n + s.l2 * (beta - prior) / 100.0;
        Eigen::MatrixXd hessian = x.transpose() * w.asDiagonal() * x / n;
        hessian.diagonal().array() += s.l2 / 100.0;
        const Eigen::VectorXd step = hessian.ldlt().solve(gradient);
        if (!step.allFinite()) break;
        // Newton's step, halved until the objective does not rise (a NaN counts as a rise).
        auto better = [&](double v) { return std::isfinite(v) && v <= current; };
        double scale = 1;
        Eigen::VectorXd next = beta - step;
        double value = objective(next);
        while (!better(value) && scale > 1e-6) {
            scale /= 2;
            next = beta - scale * step;
            value = objective(next);
        }
        if (!better(value)) break;
        const double gain = current - value;
        beta = next;
        current = value;
        if (gain < 1e-12) break;
    }
    r.weights = weights_of(d, beta, s.start);
    std::set<int> games;
    for (const TuneSample& t : samples) games.insert(t.game);
    r.games = static_cast<int>(games.size());
    r.loss_start = cross_entropy(samples, s.start, k, false);
    r.loss_tuned = cross_entropy(samples, r.weights, k, false);
    r.holdout_loss_start = cross_entropy(samples, s.start, k, true);
    r.holdout_loss_tuned = cross_entropy(samples, r.weights, k, true);
    return r;
}

std::string tune_summary(const TuneSettings& s, const TuneReport& r) {
    std::string out = fmt::format("{} games: tuned on {} positions ({} held out), K = {:.6f} per centi-unit, {} Newton steps\n",
                                  r.games, r.positions, r.holdout_positions, r.k, r.iterations);
    out += fmt::format("Cross-entropy: fitted positions {:.5f} -> {:.5f}; ", r.loss_start, r.loss_tuned);
    out += r.holdout_positions ? fmt::format("held-out games {:.5f} -> {:.5f}\n", r.holdout_loss_start, r.holdout_loss_tuned)
                               : std::string("no held-out games\n");
    if (r.k_at_bound)
        out += "Warning: K ended at its bound: the results barely follow the starting evaluation (too few or one-sided games?)\n";
    out += fmt::format("  {:<16} {:>8} {:>8}   {:>8} {:>8}\n", "feature", "opening", "endgame", "was", "was eg");
    for (std::size_t k = 0; k < static_cast<std::size_t>(loa::FeatureCount); ++k) {
        const bool frozen = std::find(s.frozen.begin(), s.frozen.end(), static_cast<loa::Feature>(k)) != s.frozen.end();
        out += fmt::format("  {:<16} {:>8} {:>8}   {:>8} {:>8}{}\n", loa::feature_name(static_cast<loa::Feature>(k)),
                           r.weights.weight[k], r.weights.tapered ? r.weights.endgame[k] : r.weights.weight[k],
                           s.start.weight[k], s.start.tapered ? s.start.endgame[k] : s.start.weight[k], frozen ? "  (frozen)" : "");
    }
    out += fmt::format("  {:<16} {:>8} {:>8}   {:>8}\n", "side_to_move", r.weights.side_to_move, "", s.start.side_to_move);
    return out;
}

}  // namespace matches
