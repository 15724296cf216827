// loa-match spsa: the gains follow Spall's schedule as fishtest parametrises it (checked at the
// ends, where the parametrisation says what they are), the update climbs a noisy objective to
// its top, and bad parameters are refused with the fault named.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "loa/movegen.hpp"
#include "matches/spsa.hpp"
#include "matches/spsa_run.hpp"
#include "support/input_error.hpp"

namespace {

using matches::SpsaParam;
using matches::SpsaSchedule;
using loa::testing::error_of;

TEST(Spsa, GainsMeetTheirEndValuesAndDecay) {
    SpsaSchedule schedule;
    schedule.iterations = 1000;
    const SpsaParam p = matches::parse_spsa_param("lmr_min_moves=3,1,12,1.5,0.004");
    // At the last iteration the perturbation is c_end and a_k / c_k^2 is r_end, by definition.
    EXPECT_NEAR(schedule.c_k(p, 1000), 1.5, 1e-12);
    EXPECT_NEAR(schedule.a_k(p, 1000) / std::pow(schedule.c_k(p, 1000), 2), 0.004, 1e-12);
    // Before that: c_k = c_end (N / k)^gamma, a_k = a_N ((A + N) / (A + k))^alpha, A = N / 10.
    EXPECT_NEAR(schedule.c_k(p, 1), 1.5 * std::pow(1000.0, 0.101), 1e-9);
    EXPECT_NEAR(schedule.a_k(p, 1), 0.004 * 1.5 * 1.5 * std::pow(1100.0 / 101.0, 0.602), 1e-9);
    for (int k = 1; k < 1000; ++k) {
        ASSERT_GT(schedule.c_k(p, k), schedule.c_k(p, k + 1));
        ASSERT_GT(schedule.a_k(p, k), schedule.a_k(p, k + 1));
    }
}

TEST(Spsa, SignsAreTheSeedsAndBalanced) {
    EXPECT_EQ(matches::spsa_flips(5, 17, 8), matches::spsa_flips(5, 17, 8));
    EXPECT_NE(matches::spsa_flips(5, 17, 32), matches::spsa_flips(5, 18, 32));
    EXPECT_NE(matches::spsa_flips(5, 17, 32), matches::spsa_flips(6, 17, 32));
    int plus = 0;
    for (int k = 1; k <= 1000; ++k)
        for (const int f : matches::spsa_flips(9, k, 3)) {
            ASSERT_TRUE(f == 1 || f == -1);
            plus += f == 1;
        }
    EXPECT_GT(plus, 1350);  // of 3000: a fair coin stays within +-150 with probability > 0.99999
    EXPECT_LT(plus, 1650);
}

// A noisy game against a hidden optimum: the engine whose values are nearer to it (by squared
// distance) wins a game with probability 0.5 + 2 x the difference, the other loses; iteration k
// plays 2 games. SPSA must end near the optimum from far away, on every axis.
TEST(Spsa, UpdatesClimbANoisyObjective) {
    std::vector<SpsaParam> params = {matches::parse_spsa_param("lmr_min_moves=2,1,60,4,0.01"),
                                     matches::parse_spsa_param("tm_max=300,100,1000,40,0.01")};
    // Each axis scaled to its c_end (15 c_end from the top costs the same), as c_end is chosen.
    const std::vector<double> optimum = {30, 700}, scale = {60, 600};
    auto strength = [&](const std::vector<double>& v) {
        double s = 0;
        for (std::size_t i = 0; i < v.size(); ++i) s -= std::pow((v[i] - optimum[i]) / scale[i], 2);
        return s;
    };
    SpsaSchedule schedule;
    schedule.iterations = 4000;
    std::vector<double> theta = {2, 300};
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> unit(0, 1);
    for (int k = 1; k <= schedule.iterations; ++k) {
        const auto flips = matches::spsa_flips(11, k, params.size());
        const auto plus = matches::spsa_perturbed(params, theta, flips, schedule, k, +1);
        const auto minus = matches::spsa_perturbed(params, theta, flips, schedule, k, -1);
        const double p_plus = std::clamp(0.5 + 2 * (strength(plus) - strength(minus)), 0.0, 1.0);
        int result = 0;
        for (int game = 0; game < 2; ++game) result += unit(rng) < p_plus ? 1 : -1;
        theta = matches::spsa_update(params, theta, flips, schedule, k, result);
        for (std::size_t i = 0; i < params.size(); ++i) ASSERT_TRUE(theta[i] >= params[i].min && theta[i] <= params[i].max);
    }
    EXPECT_NEAR(theta[0], optimum[0], 6);
    EXPECT_NEAR(theta[1], optimum[1], 60);
}

TEST(Spsa, AWinMovesThetaTowardsThePlusEngineWithinTheBounds) {
    const std::vector<SpsaParam> params = {matches::parse_spsa_param("lmr_min_moves=3,1,12,1,0.5"),
                                           matches::parse_spsa_param("aspiration=50,10,100,5,0.5")};
    SpsaSchedule schedule;
    schedule.iterations = 10;
    const std::vector<int> flips = {+1, -1};
    const auto won = matches::spsa_update(params, {3, 50}, flips, schedule, 1, 2);
    EXPECT_GT(won[0], 3);
    EXPECT_LT(won[1], 50);
    const auto lost = matches::spsa_update(params, {3, 50}, flips, schedule, 1, -2);
    EXPECT_LT(lost[0], 3);
    EXPECT_GT(lost[1], 50);
    EXPECT_EQ(matches::spsa_update(params, {3, 50}, flips, schedule, 1, 0), (std::vector<double>{3, 50}));
    // r_end 0.5 makes a big step: clamped to the bounds, as are the perturbed values.
    const auto clamped = matches::spsa_update(params, {11.5, 12}, flips, schedule, 1, 2);
    EXPECT_EQ(clamped[0], 12);
    EXPECT_EQ(clamped[1], 10);
    const auto plus = matches::spsa_perturbed(params, {11.8, 50}, flips, schedule, 1, +1);
    EXPECT_EQ(plus[0], 12);
}

TEST(Spsa, BadParametersAreRefusedWithTheFaultNamed) {
    const auto refused = [](const std::string& text, const std::string& part) {
        const std::string e = error_of([&] { (void)matches::parse_spsa_param(text); });
        EXPECT_NE(e.find(part), std::string::npos) << text << ": " << e;
    };
    refused("lmr_min_movs=3,1,12", "did you mean 'lmr_min_moves'");
    refused("lmr=1,0,1", "not a number that changes how the engine plays");
    refused("threads=1,1,8", "not a number that changes how the engine plays");
    refused("lmr_min_moves=3,1,12,1,2", "r_end");
    refused("lmr_min_moves=3,1", "NAME=start,min,max");
    refused("lmr_min_moves", "NAME=start,min,max");
    refused("lmr_min_moves=3,1,x", "'x' is not a number");
    refused("lmr_min_moves=0,1,12", "outside");
    refused("lmr_min_moves=3,12,1", "below max");
    refused("lmr_min_moves=3,1,12,0.2", "c_end");
    refused("lmr_min_moves=3,1,12,1,0", "r_end");
    refused("lmr_min_moves=3,1,100", "bound 100 is not a value");
    refused("lmr_min_depth.opening=3,2,10", "only a tapered margin");
    refused("qsearch=1,0,2", "not a number that changes how the engine plays");
    refused("killers=2,0,9", "bound 9 is not a value");
    const SpsaParam d = matches::parse_spsa_param("futility.endgame=300,100,500");
    EXPECT_EQ(d.c_end, 20);  // (max - min) / 20
    EXPECT_EQ(d.r_end, 0.002);
}

TEST(Spsa, AGameScoresForThePlusEngineWhateverItsColour) {
    using loa::Outcome;
    EXPECT_EQ(matches::spsa_game_score(Outcome::BlackWins, true), 1);
    EXPECT_EQ(matches::spsa_game_score(Outcome::BlackWins, false), -1);
    EXPECT_EQ(matches::spsa_game_score(Outcome::WhiteWins, true), -1);
    EXPECT_EQ(matches::spsa_game_score(Outcome::WhiteWins, false), 1);
    EXPECT_EQ(matches::spsa_game_score(Outcome::Draw, true), 0);
    EXPECT_EQ(matches::spsa_game_score(Outcome::Draw, false), 0);
}

TEST(Spsa, EngineKeysJoinMarginHalvesAndKeepTheOtherHalf) {
    const std::vector<SpsaParam> params = {matches::parse_spsa_param("futility.endgame=300,100,500"),
                                           matches::parse_spsa_param("lmr_min_moves=3,1,12"),
                                           matches::parse_spsa_param("razoring=60,10,200")};
    variant::VariantConfig base = variant::preset_variant("full");
    variant::apply_variant_key(base, "futility", "45:320");
    EXPECT_EQ(matches::spsa_engine_keys(params, {351.6, 4.49, 70.5}, base), "futility=45:352,lmr_min_moves=4,razoring=71:71");
    variant::apply_variant_key(base, "futility", "off");
    EXPECT_NE(error_of([&] { (void)matches::spsa_engine_keys(params, {351.6, 4.49, 70.5}, base); }).find("'futility' is off"),
              std::string::npos);
}

}  // namespace
