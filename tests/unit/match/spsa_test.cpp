// loa-match spsa: the gains follow Spall's schedule as fishtest parametrises it (checked at the
// ends, where the parametrisation says what they are), the update climbs a noisy objective to
// its top, bad parameters are refused with the fault named, and a run is the same for any -j,
// resumed (also after a torn line) to the same file, and refuses a file of other settings or an
// edited one without touching it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <fmt/format.h>

#include "common/error.hpp"
#include "loa/movegen.hpp"
#include "matches/spsa.hpp"
#include "matches/spsa_run.hpp"
#include "support/scratch.hpp"

namespace {

namespace fs = std::filesystem;
using loa::testing::read_text;
using loa::testing::scratch_file;
using matches::SpsaParam;
using matches::SpsaSchedule;

void write(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const common::InputError& e) {
        return e.what();
    }
    return "(no error)";
}

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

// Four openings: the start and the start after each of three first moves.
std::vector<matches::Opening> four_openings() {
    std::vector<matches::Opening> openings = {{"start", loa::Position::start(), {}}};
    loa::MoveList moves;
    loa::generate_moves(loa::Position::start(), moves);
    for (std::size_t i = 0; i < 3; ++i) openings.push_back({fmt::format("move {}", i), loa::Position::start(), {moves[i * 7]}});
    return openings;
}

matches::SpsaSettings tiny_run(int threads) {
    matches::SpsaSettings s;
    s.engine = "name=t,preset=full,depth=2";
    // Keys that act at depth 2 (the quiescence search, futility at depth 1), with big
    // perturbations and steps: the engines differ and theta moves.
    s.params = {matches::parse_spsa_param("qsearch_plies=4,1,12,3,0.2"), matches::parse_spsa_param("futility=100,10,600,150,0.05")};
    s.schedule.iterations = 4;
    s.pairs = 1;
    s.seed = 21;
    s.threads = threads;
    s.openings = four_openings();
    return s;
}

TEST(SpsaRun, TheSameFileForAnyThreadsAndAfterResumes) {
    const fs::path one = scratch_file("spsa", "one.jsonl"), two = scratch_file("spsa", "two.jsonl");
    const matches::SpsaResult r1 = matches::run_spsa(tiny_run(1), one.string());
    ASSERT_EQ(r1.iterations.size(), 4u);
    EXPECT_EQ(r1.resumed, 0);
    (void)matches::run_spsa(tiny_run(2), two.string());
    const std::string text = read_text(one);
    EXPECT_EQ(text, read_text(two));
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 5);  // the header and 4 iterations
    bool decided = false;
    for (const auto& it : r1.iterations) {
        EXPECT_EQ(it.wins + it.draws + it.losses, 2);
        decided = decided || it.wins != it.losses;
    }
    EXPECT_TRUE(decided) << "every iteration even: the run measured nothing";
    EXPECT_NE(r1.theta, r1.start);

    // Run again: nothing to play, the same theta.
    const matches::SpsaResult again = matches::run_spsa(tiny_run(2), one.string());
    EXPECT_EQ(again.resumed, 4);
    EXPECT_EQ(again.theta, r1.theta);
    EXPECT_EQ(read_text(one), text);

    // A kill in the middle of the last line: that iteration is played again, to the same file.
    const std::size_t last = text.rfind('\n', text.size() - 2);
    write(one, text.substr(0, last + 1 + 10));
    const matches::SpsaResult resumed = matches::run_spsa(tiny_run(1), one.string());
    EXPECT_EQ(resumed.resumed, 3);
    EXPECT_EQ(read_text(one), text);
}

TEST(SpsaRun, AnotherRunsFileOrAnEditedOneIsRefusedAndLeftAlone) {
    const fs::path path = scratch_file("spsa", "run.jsonl");
    (void)matches::run_spsa(tiny_run(2), path.string());
    const std::string text = read_text(path);

    matches::SpsaSettings other = tiny_run(2);
    other.seed = 22;
    EXPECT_NE(error_of([&] { (void)matches::run_spsa(other, path.string()); }).find("not the file of a run with these settings"),
              std::string::npos);
    other = tiny_run(2);
    other.schedule.iterations = 5;  // the schedule depends on N: not an extension of this run
    EXPECT_NE(error_of([&] { (void)matches::run_spsa(other, path.string()); }).find("its iterations is 4, this run's 5"), std::string::npos);
    other = tiny_run(2);
    other.engine = "name=t,preset=full,depth=2,killers=3";
    EXPECT_NE(error_of([&] { (void)matches::run_spsa(other, path.string()); }).find("killers=3 where the saved run had killers=2"),
              std::string::npos);
    EXPECT_EQ(read_text(path), text);
    // The same engine spelled otherwise (a default given, another order) is the same run.
    other = tiny_run(1);
    other.engine = "depth=2,killers=2,preset=full,name=t";
    EXPECT_EQ(matches::run_spsa(other, path.string()).resumed, 4);
    EXPECT_EQ(read_text(path), text);

    // An edited theta, an edited result, an extra line: each named, the file untouched.
    auto edited = [&](const std::string& from, const std::string& to) {
        std::string t = text;
        const auto at = t.rfind(from);
        EXPECT_NE(at, std::string::npos) << from;
        return t.replace(at, from.size(), to);
    };
    const fs::path copy = scratch_file("spsa", "edited.jsonl");
    for (const auto& [changed, message] :
         {std::pair{edited("\"theta\":[", "\"theta\":[1"), std::string("are not those the run computes")},
          std::pair{edited("\"k\":4", "\"k\":5"), std::string("numbered 5")},
          std::pair{text + text.substr(text.rfind('\n', text.size() - 2) + 1), std::string("only 4 iterations")},
          std::pair{std::string("hello\n"), std::string("not JSON")},
          std::pair{std::string(), std::string("is empty")},
          std::pair{text.substr(0, text.find('\n')), std::string("only a torn header")}}) {
        write(copy, changed);
        EXPECT_NE(error_of([&] { (void)matches::run_spsa(tiny_run(1), copy.string()); }).find(message), std::string::npos) << message;
        EXPECT_EQ(read_text(copy), changed);
    }
}

TEST(SpsaRun, UnusableSettingsAreRefusedBeforeAnyGame) {
    const fs::path path = scratch_file("spsa", "refused.jsonl");
    auto refused = [&](matches::SpsaSettings s, const std::string& part) {
        EXPECT_NE(error_of([&] { (void)matches::run_spsa(s, path.string()); }).find(part), std::string::npos) << part;
        EXPECT_FALSE(fs::exists(path));
    };
    matches::SpsaSettings s = tiny_run(1);
    s.engine = "name=t,preset=full";
    refused(s, "has no limit");
    s = tiny_run(1);
    s.engine = "name=x,cmd=/bin/true,depth=2";
    refused(s, "in-process");
    s = tiny_run(1);
    s.params.push_back(matches::parse_spsa_param("qsearch_plies=5,1,12"));
    refused(s, "given twice");
    s = tiny_run(1);
    s.params = {matches::parse_spsa_param("futility=60,10,200"), matches::parse_spsa_param("futility.endgame=300,100,500")};
    refused(s, "given twice");
    s = tiny_run(1);
    s.engine = "name=t,preset=full,depth=2,futility=off";
    s.params = {matches::parse_spsa_param("futility.endgame=300,100,500")};
    refused(s, "'futility' is off");
    s = tiny_run(1);
    s.params.clear();
    refused(s, "no parameter");
    // Parameters that cannot change play, and values inside the bounds the engine refuses.
    s = tiny_run(1);
    s.params = {matches::parse_spsa_param("tm_max=400,200,800,40")};
    refused(s, "act on a clock");
    s.engine = "name=t,preset=full,tc=1+0.01,timeman=classic";
    refused(s, "timeman=tournament");
    s.engine = "name=t,preset=full,depth=2,lmr=off";
    s.params = {matches::parse_spsa_param("lmr_min_moves=3,1,12")};
    refused(s, "LMR is off");
    s.engine = "name=t,preset=full,depth=2,multicut=on";
    s.params = {matches::parse_spsa_param("mc_moves=10,4,16,2"), matches::parse_spsa_param("mc_cuts=3,1,8")};
    refused(s, "refuses values within the bounds (mc_moves=4,mc_cuts=8)");
}

}  // namespace
