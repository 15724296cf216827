// Evaluation tuning (matches/tune.*): the fit recovers weights that generated the results, keeps
// what it is told to keep, and the samples taken from game records are quiet and correctly
// labelled.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>

#include "common/error.hpp"
#include "loa/searchers.hpp"
#include "loa/game.hpp"
#include "loa/search_game.hpp"
#include "matches/match.hpp"
#include "matches/openings.hpp"
#include "matches/records.hpp"
#include "matches/tune.hpp"
#include "support/small_match.hpp"

namespace matches {
namespace {

// Samples whose results are drawn from the model with known weights: the fit must find them.
std::vector<TuneSample> synthetic_samples(const loa::EvalWeights& truth, double k, int count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<TuneSample> out;
    for (int i = 0; i < count; ++i) {
        TuneSample t;
        for (int& d : t.difference) d = std::uniform_int_distribution<int>(-150, 150)(rng);
        t.phase = std::uniform_int_distribution<int>(0, loa::MaxPhase)(rng);
        double eval = truth.side_to_move;
        for (std::size_t f = 0; f < t.difference.size(); ++f) eval += loa::weight_at(truth, f, t.phase) * t.difference[f] / 100.0;
        const double p = 1 / (1 + std::exp(-k * eval));
        t.result = std::bernoulli_distribution(p)(rng) ? 1.0 : 0.0;
        t.holdout = i % 10 == 0;
        t.game = i;
        out.push_back(t);
    }
    return out;
}

TEST(Tune, RecoversTheWeightsThatMadeTheResults) {
    loa::EvalWeights truth;
    truth.tapered = true;
    truth.weight = {100, 40, 0, 20, 80, 10, 60, -30, 5, -20, 15};
    truth.endgame = {60, 10, 30, 50, 120, 0, 20, -10, 15, 10, 40};
    truth.side_to_move = 15;
    const auto samples = synthetic_samples(truth, 0.01, 60000, 3);
    TuneSettings s;
    s.start = truth;  // K is fitted for the start: from the truth it is the true K
    const TuneReport r = fit_weights(s, samples);
    EXPECT_NEAR(r.k, 0.01, 0.0005);
    for (std::size_t f = 0; f < truth.weight.size(); ++f) {
        EXPECT_NEAR(r.weights.weight[f], truth.weight[f], 8) << loa::feature_name(static_cast<loa::Feature>(f));
        EXPECT_NEAR(r.weights.endgame[f], truth.endgame[f], 8) << loa::feature_name(static_cast<loa::Feature>(f));
    }
    EXPECT_NEAR(r.weights.side_to_move, truth.side_to_move, 4);
    EXPECT_LE(r.loss_tuned, r.loss_start + 1e-9);
}

TEST(Tune, FromOtherWeightsItFindsTheTrueProportionsAndKeepsFrozenOnes) {
    loa::EvalWeights truth;
    truth.weight = {100, 40, 0, 20, 80, 10, 60, -30, 5, 25, 0};
    const auto samples = synthetic_samples(truth, 0.01, 60000, 4);
    TuneSettings s;
    s.tapered = false;
    s.tune_side_to_move = false;
    s.start.weight = {50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50};
    s.start.weight[static_cast<std::size_t>(loa::Feature::Groups)] = -30;  // frozen at its true value
    s.frozen = {loa::Feature::Groups};
    const TuneReport r = fit_weights(s, samples);
    EXPECT_FALSE(r.weights.tapered);
    EXPECT_EQ(r.weights[loa::Feature::Groups], -30);
    EXPECT_EQ(r.weights.side_to_move, 0);
    // K is fitted for the start and then held, so the tuned weights are the truth's rescaled to
    // that K: K x weight = 0.01 x true weight (the frozen one apart).
    const double scale = 0.01 / r.k;
    for (std::size_t f = 0; f < truth.weight.size(); ++f) {
        if (static_cast<loa::Feature>(f) == loa::Feature::Groups) continue;
        EXPECT_NEAR(r.weights.weight[f], scale * truth.weight[f], 4 + 0.1 * std::abs(scale * truth.weight[f]))
            << loa::feature_name(static_cast<loa::Feature>(f));
    }
    EXPECT_LT(r.holdout_loss_tuned, r.holdout_loss_start);
}

TEST(Tune, AFlatFitOverTaperedWeightsGivesOneWeightForTheWholeGame) {
    loa::EvalWeights truth;
    truth.weight = {100, 40, 0, 20, 80, 10, 60, -30, 5, 0, 0};
    const auto samples = synthetic_samples(truth, 0.01, 20000, 6);
    TuneSettings s;
    s.tapered = false;
    s.start.tapered = true;
    s.start.endgame = s.start.weight;
    s.start.endgame[0] = 500;  // would survive in the endgame if only opening weights were written
    const TuneReport r = fit_weights(s, samples);
    EXPECT_EQ(r.weights.endgame, r.weights.weight);
}

TEST(Tune, NothingToFitIsRefused) {
    TuneSettings s;
    for (int k = 0; k < loa::FeatureCount; ++k) s.frozen.push_back(static_cast<loa::Feature>(k));
    s.tune_side_to_move = false;
    EXPECT_THROW((void)fit_weights(s, {}), common::InputError);
}

TEST(Tune, TooFewPositionsAndBadRecordsAreRefused) {
    TuneSettings s;
    EXPECT_THROW((void)fit_weights(s, synthetic_samples(s.start, 0.01, 50, 1)), common::InputError);
    const auto path = std::filesystem::temp_directory_path() / "loa_tune_bad_records.pgn";
    std::ofstream(path) << "[Result \"1-0\"]\n\n1. b1-d3 zz-zz 1-0\n";
    s.record_files = {path.string()};
    EXPECT_THROW((void)collect_samples(s), common::InputError);
    std::filesystem::remove(path);
}

TEST(Tune, SamplesFromRecordsAreQuietAndLabelledForTheSideToMove) {
    const MatchResult played = run_match(fixtures::small_match(1), {});
    const auto path = std::filesystem::temp_directory_path() / "loa_tune_records.pgn";
    {
        std::ofstream out(path);
        for (const GameRecord& game : played.games) write_record(out, game, "tune-test");
    }
    TuneSettings s;
    s.record_files = {path.string()};
    s.holdout = 0;
    s.min_ply = 0;
    const auto samples = collect_samples(s);
    std::filesystem::remove(path);
    ASSERT_GT(samples.size(), 20u);

    const loa::Evaluator evaluator(s.start);
    search::Searcher<loa::SearchGame> searcher(loa::SearchGame(s.rules, evaluator), variant::parse_variant("full"));
    std::set<int> games;
    int decisive = 0;
    for (const TuneSample& t : samples) {
        games.insert(t.game);
        EXPECT_FALSE(t.holdout);
        // Game numbers count from 1 in file order; the label is that game's result for the leaf's side.
        ASSERT_GE(t.game, 1);
        const GameRecord& game = played.games[static_cast<std::size_t>(t.game - 1)];
        const std::string result = game.result_text();
        const loa::Colour us = t.leaf.side_to_move();
        if (result == "1/2-1/2") {
            EXPECT_EQ(t.result, 0.5);
        } else {
            ++decisive;
            const bool we_won = (result == "1-0") == (us == loa::Colour::White);
            EXPECT_EQ(t.result, we_won ? 1.0 : 0.0) << result << " " << t.leaf.to_text();
        }
        // Quiet: quiescence stands pat at the leaf; the game goes on there.
        EXPECT_TRUE(searcher.quiescence_line(t.leaf).first.empty()) << t.leaf.to_text();
        EXPECT_FALSE(loa::connection_result(t.leaf, s.rules).over()) << t.leaf.to_text();
        // The features are the leaf's, side to move minus opponent, and its phase.
        const loa::EvalBreakdown b = evaluator.breakdown(t.leaf);
        for (std::size_t f = 0; f < t.difference.size(); ++f)
            EXPECT_EQ(t.difference[f], b.features[loa::index(us)][f] - b.features[loa::index(~us)][f]);
        EXPECT_EQ(t.phase, loa::game_phase(t.leaf));
    }
    EXPECT_EQ(games.size(), played.games.size());
    EXPECT_GT(decisive, 0);
}

TEST(Tune, PositionsBeforeMinPlyAreNotTakenAndPerGameCaps) {
    // One hand-written game (Black wins by connection after 9 plies).
    const auto path = std::filesystem::temp_directory_path() / "loa_tune_one_game.pgn";
    std::ofstream(path) << "[Event \"t\"]\n[Result \"0-1\"]\n\n1. d1-b3 h5-g4 2. b1-b4 g4xg1 3. b4-e7 a3xc1 4. b3-e6 h3xf1 5. e1-e5 0-1\n";
    TuneSettings s;
    s.record_files = {path.string()};
    s.holdout = 0;
    s.min_ply = 0;
    const auto all = collect_samples(s);
    s.min_ply = 6;
    const auto late = collect_samples(s);
    s.min_ply = 0;
    s.per_game = 3;
    const auto capped = collect_samples(s);
    std::filesystem::remove(path);
    // Plies 0..8 are taken (the position after the last move is decided): at most 9 samples,
    // fewer only where a quiescence leaf is decided.
    EXPECT_LE(all.size(), 9u);
    EXPECT_GE(all.size(), 5u);
    EXPECT_LE(late.size(), 3u);
    EXPECT_LT(late.size(), all.size());
    EXPECT_LE(capped.size(), 3u);
    for (const TuneSample& t : all) EXPECT_EQ(t.result, t.leaf.side_to_move() == loa::Colour::Black ? 1.0 : 0.0);
}

}  // namespace
}  // namespace matches
