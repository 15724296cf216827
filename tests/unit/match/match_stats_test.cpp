// MatchStats: Elo, nElo, the SPRT and the rating fit against hand-computed and independent values.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/text.hpp"
#include "matches/match.hpp"
#include "matches/sprt.hpp"
#include "matches/stats.hpp"

namespace matches {
namespace {

// Expected values computed by hand (see the formulas in matches/stats.hpp).
TEST(MatchStats, TrinomialEloIntervalLosAndNelo) {
    const EloEstimate e = estimate(Trinomial{6, 2, 2});
    EXPECT_DOUBLE_EQ(e.score, 0.7);
    EXPECT_NEAR(e.variance, 0.16, 1e-12);
    EXPECT_NEAR(e.elo, 147.1907, 1e-3);
    EXPECT_NEAR(e.elo_low, -33.3994, 1e-3);
    EXPECT_NEAR(e.elo_high, 504.0333, 1e-3);
    EXPECT_NEAR(e.los, 0.921350, 1e-5);
    EXPECT_NEAR(e.normalized_elo, 173.7178, 1e-3);
    // Delta method: t = 0.5, skewness -0.84375, excess kurtosis -0.921875, var(t) 1.489258.
    EXPECT_NEAR(e.nelo_error, 262.7891, 1e-3);
    EXPECT_NEAR(e.draw_ratio, 0.2, 1e-12);
}

TEST(MatchStats, PentanomialEloAndNelo) {
    Pentanomial p;
    p.count = {1, 2, 3, 4, 5};
    const EloEstimate e = estimate(p, Trinomial{});
    EXPECT_NEAR(e.score, 2.0 / 3.0, 1e-12);
    EXPECT_NEAR(e.variance, 0.0972222, 1e-6);
    EXPECT_NEAR(e.elo, 120.4120, 1e-3);
    EXPECT_NEAR(e.elo_low, 6.1673, 1e-3);
    EXPECT_NEAR(e.elo_high, 268.7159, 1e-3);
    EXPECT_NEAR(e.normalized_elo, 131.3183, 1e-3);
    EXPECT_NEAR(e.nelo_error, 147.3722, 1e-3);  // var(t) 1.405102 by the delta method
}

// The two 1,000-game stc totals of docs/strength.md, recomputed by an independent script
// written from the formulas (fishtest's delta method for nElo's interval): the fastchess
// convention, var(t) = 1, would give +-21.53 for both.
TEST(MatchStats, NeloIntervalCountsTheSamplingErrorOfTheDeviation) {
    Pentanomial head;
    head.count = {25, 2, 174, 16, 283};
    const EloEstimate h = estimate(head, Trinomial{756, 18, 226});
    EXPECT_NEAR(h.elo, 205.0374, 1e-3);
    EXPECT_NEAR(h.elo_low, 181.0643, 1e-3);
    EXPECT_NEAR(h.elo_high, 230.9058, 1e-3);
    EXPECT_NEAR(h.normalized_elo, 221.9693, 1e-3);
    EXPECT_NEAR(h.nelo_error, 31.6547, 1e-3);
    Pentanomial earlier;
    earlier.count = {42, 4, 211, 11, 232};
    const EloEstimate e = estimate(earlier, Trinomial{686, 15, 299});
    EXPECT_NEAR(e.normalized_elo, 149.2627, 1e-3);
    EXPECT_NEAR(e.nelo_error, 26.1351, 1e-3);
}

TEST(MatchStats, SprtBoundsAndDecisions) {
    const SprtSettings s = parse_sprt("elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized");
    EXPECT_NEAR(s.lower_bound(), -2.944439, 1e-6);
    EXPECT_NEAR(s.upper_bound(), 2.944439, 1e-6);
    EXPECT_EQ(sprt_decision(3.0, s), SprtDecision::AcceptH1);
    EXPECT_EQ(sprt_decision(-3.0, s), SprtDecision::AcceptH0);
    EXPECT_EQ(sprt_decision(0.0, s), SprtDecision::Continue);
    EXPECT_EQ(sprt_llr(Pentanomial{}, s), 0.0);
}

// The GSPRT's LLR against an independent computation (tests/support/oracles/sprt_llr_oracle.py: the
// constrained maximum-likelihood distributions found by two other numerical methods), on
// degenerate samples (every pair alike), sparse and realistic ones, both Elo models.
TEST(MatchStats, SprtLlrMatchesTheIndependentTable) {
    std::ifstream in(LOA_TEST_SOURCE_DIR "/data/sprt_llr_table.csv");
    ASSERT_TRUE(in) << "missing tests/data/sprt_llr_table.csv";
    std::string line;
    std::getline(in, line);
    ASSERT_EQ(line, "model,elo0,elo1,c0,c1,c2,c3,c4,llr");
    int rows = 0;
    while (std::getline(in, line)) {
        const auto f = common::split(line, ',');
        ASSERT_EQ(f.size(), 9u) << line;
        const SprtSettings s = parse_sprt(fmt::format("model={},elo0={},elo1={}", f[0], f[1], f[2]));
        Pentanomial p;
        for (std::size_t i = 0; i < 5; ++i) p.count[i] = *common::parse_int64(f[3 + i]);
        const double expected = *common::parse_double(f[8]);
        EXPECT_NEAR(sprt_llr(p, s), expected, 2e-6) << line;  // the table has 6 decimals
        ++rows;
    }
    EXPECT_GE(rows, 160);
}

TEST(MatchStats, SprtHandlesWideBoundsAndSignedNumbers) {
    // Past nElo 232 the t-value fixed point linearised around the uniform start has no
    // solution; it is followed in steps from there.
    for (const char* spec : {"elo0=0,elo1=250", "elo0=-1000,elo1=1000", "elo0=+5,elo1=+400,model=normalized"}) {
        const SprtSettings s = parse_sprt(spec);
        for (const std::array<std::int64_t, 5> counts :
             {std::array<std::int64_t, 5>{0, 0, 0, 0, 100}, {3, 20, 50, 25, 2}, {0, 0, 7, 0, 0}, {40, 0, 0, 0, 1}}) {
            Pentanomial p;
            p.count = counts;
            const double llr = sprt_llr(p, s);
            EXPECT_TRUE(std::isfinite(llr)) << spec;
        }
        Pentanomial wins;
        wins.count = {0, 0, 0, 0, 100};
        EXPECT_GT(sprt_llr(wins, s), 0) << spec;
    }
    EXPECT_EQ(parse_sprt("elo0=-5,elo1=+5").elo1, 5);
}

TEST(MatchStats, SprtNeedsManyIdenticalPairsToDecide) {
    // At fixed depth two pairs in three are 1-1: a run of equal pairs carries little
    // information, and the old normal approximation (variance floored at 1e-4) decided
    // after four games.
    const SprtSettings s = parse_sprt("elo0=0,elo1=5");
    Pentanomial p;
    for (int pairs = 1; pairs <= 100; ++pairs) {
        p.count = {0, 0, 0, 0, pairs};
        EXPECT_EQ(sprt_decision(sprt_llr(p, s), s), SprtDecision::Continue) << pairs << " pairs 2-0";
        p.count = {0, 0, pairs, 0, 0};
        EXPECT_EQ(sprt_decision(sprt_llr(p, s), s), SprtDecision::Continue) << pairs << " pairs 1-1";
    }
}

TEST(MatchStats, SprtDecisionIsTakenOnceAndKept) {
    const SprtSettings s = parse_sprt("elo0=0,elo1=200,model=logistic");
    PairingStats stats;
    int games = 0;
    while (stats.decision == SprtDecision::Continue && games < 200) {
        ++stats.pairs.count[4];
        stats.games.wins += 2;
        games += 2;
        update_sprt(stats, s);
    }
    ASSERT_EQ(stats.decision, SprtDecision::AcceptH1);
    EXPECT_GE(stats.decision_llr, s.upper_bound());
    EXPECT_EQ(stats.decision_games, games);
    // Games that were in flight: they move the LLR back inside the bounds, not the decision.
    for (int k = 0; k < 3; ++k) {
        ++stats.pairs.count[0];
        stats.games.losses += 2;
        update_sprt(stats, s);
    }
    EXPECT_LT(stats.llr, s.upper_bound());
    EXPECT_EQ(stats.decision, SprtDecision::AcceptH1);
    EXPECT_EQ(stats.decision_games, games);
}

TEST(MatchStats, ADecisionCountsTheGamesOfWholePairsOnly) {
    // With two workers the first game of a pair can be counted (W/D/L) before the pair that
    // decides; the LLR knows only whole pairs, and a resume replays only those, so the game at
    // which the decision was taken must not include the half pair.
    const SprtSettings s = parse_sprt("elo0=0,elo1=200,model=logistic");
    PairingStats stats;
    stats.games.losses = 1;  // the first game of a pair still in flight
    while (stats.decision == SprtDecision::Continue && stats.pairs.pairs() < 100) {
        ++stats.pairs.count[4];
        stats.games.wins += 2;
        update_sprt(stats, s);
    }
    ASSERT_EQ(stats.decision, SprtDecision::AcceptH1);
    EXPECT_EQ(stats.decision_games, 2 * stats.pairs.pairs());
    EXPECT_EQ(stats.games.games(), stats.decision_games + 1);
}

TEST(MatchStats, AnIntervalIsNeverZeroWide) {
    // Ten drawn pairs: the variance of the sample with one more pair spread over the five
    // outcomes, 0.2 * (2 * 0.25^2 + 2 * 0.5^2) / 11 = 0.0113636, gives a half width of
    // 1.96 * sqrt(0.0113636 / 10) = 0.06607 in score, Elo 400 log10(0.56607 / 0.43393) = 46.18.
    Pentanomial draws;
    draws.count = {0, 0, 10, 0, 0};
    const EloEstimate e = estimate(draws, Trinomial{0, 20, 0});
    EXPECT_NEAR(e.elo, 0, 1e-9);
    EXPECT_NEAR(e.elo_high, 46.18, 0.01);
    EXPECT_NEAR(e.elo_low, -46.18, 0.01);
    EXPECT_GT(e.nelo_error, 0);
    // The same for games: 10 draws plus a third of a win, a draw and a loss each.
    const EloEstimate g = estimate(Trinomial{0, 10, 0});
    EXPECT_GT(g.elo_high, 0);
    EXPECT_LT(g.elo_low, 0);
    Pentanomial wins;
    wins.count = {0, 0, 0, 0, 6};
    const EloEstimate w = estimate(wins, Trinomial{12, 0, 0});
    EXPECT_LT(w.elo_low, w.elo);
    EXPECT_GT(w.nelo_error, 0);
    // Two outcomes in the ratio that zeroes the delta method's variance on the sample itself
    // (pairs of 1.5 and 2 points, 2 : 1): fishtest's regularised counts (zeros as 1e-3) keep
    // the interval wide from three pairs.
    Pentanomial two_outcomes;
    two_outcomes.count = {0, 0, 0, 2, 1};
    const EloEstimate t = estimate(two_outcomes, Trinomial{4, 2, 0});
    EXPECT_GT(t.nelo_error, 100);
}

TEST(MatchStats, SprtRejectsBadSettings) {
    EXPECT_THROW(parse_sprt("elo0=10,elo1=0"), common::InputError);
    EXPECT_THROW(parse_sprt("alpha=0.7"), common::InputError);
    EXPECT_THROW(parse_sprt("elo0=x"), common::InputError);
    EXPECT_THROW(parse_sprt("gamma=1"), common::InputError);
    EXPECT_THROW(parse_sprt("model=bayes"), common::InputError);
}

TEST(MatchStats, RatingFitRecoversAConsistentModel) {
    // A beats B 75%, B beats C 75%, A beats C 90%: exactly the logistic model with steps of
    // 190.85 Elo, so the maximum-likelihood fit must find it.
    const std::vector<std::vector<double>> points = {{0, 75, 90}, {25, 0, 75}, {10, 25, 0}};
    const std::vector<std::vector<int>> games = {{0, 100, 100}, {100, 0, 100}, {100, 100, 0}};
    const auto r = fit_ratings(points, games, 0);
    EXPECT_NEAR(r[0].elo, 0, 1e-6);
    EXPECT_NEAR(r[1].elo, -score_to_elo(0.75), 0.05);
    EXPECT_NEAR(r[2].elo, -2 * score_to_elo(0.75), 0.05);
    EXPECT_GT(r[1].error, 0);
    EXPECT_GT(r[2].error, r[1].error * 0.5);
    EXPECT_DOUBLE_EQ(r[0].error, 0);
}

}  // namespace
}  // namespace matches
