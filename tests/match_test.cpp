// The match runner: statistics against hand-computed values, engine strings, openings,
// records that replay to their result, and results that do not depend on concurrency.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <unistd.h>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/text.hpp"
#include "loa/engine/session.hpp"
#include "loa/game.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "matches/live_file.hpp"
#include "matches/match.hpp"
#include "matches/player.hpp"
#include "matches/records.hpp"
#include "matches/report.hpp"
#include "matches/stats.hpp"
#include "small_match.hpp"

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

// The GSPRT's LLR against an independent computation (tests/oracles/sprt_llr_oracle.py: the
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

TEST(EngineSpec, ParsesSearchAndEngineKeys) {
    const EngineSpec e = parse_engine_spec("name=rhh,preset=pvs+tt+rhh,killers=1,depth=3,eval=concentration", 0);
    EXPECT_EQ(e.name, "rhh");
    EXPECT_EQ(e.depth, 3);
    EXPECT_EQ(e.eval, "concentration");
    EXPECT_EQ(e.config.history, search::HistoryMode::Relative);
    EXPECT_EQ(e.config.killers, 1);
    EXPECT_FALSE(e.config.null_move != search::NullMove::Off);
    const EngineSpec t = parse_engine_spec("tc=10+0.1,history=absolute", 1);
    EXPECT_EQ(t.name, "engine2");
    EXPECT_DOUBLE_EQ(t.time_control->base_ms, 10000);
    EXPECT_DOUBLE_EQ(t.time_control->increment_ms, 100);
    EXPECT_TRUE(t.config.lmr);  // switches without a preset apply on top of `full`
    EXPECT_EQ(t.config.history, search::HistoryMode::Absolute);
    // No eval= given: the engine's default evaluation, the network (strength.md rows 21-22);
    // hce is recorded as full, the name state files written before the network hold.
    EXPECT_EQ(t.eval, "nnue");
    EXPECT_EQ(parse_engine_spec("depth=1,eval=hce", 0).eval, "full");
}

TEST(EngineSpec, RejectsBadStringsNamingTheProblem) {
    auto message = [](const char* text) {
        try {
            (void)parse_engine_spec(text, 0);
        } catch (const common::InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(message("name=a,depth=3,colour=red").find("unknown key 'colour'"), std::string::npos);
    EXPECT_NE(message("name=a").find("has no limit"), std::string::npos);
    EXPECT_NE(message("name=a,depth=x").find("bad depth"), std::string::npos);
    EXPECT_NE(message("name=a,st=-1").find("'st'"), std::string::npos);
    EXPECT_NE(message("name=a,depth=2,eval=magic").find("eval must be"), std::string::npos);
    // A network is read when the engine is given, so that a bad one fails before any game.
    EXPECT_EQ(message("name=a,depth=2,eval=" LOA_TEST_SOURCE_DIR "/data/nnue/test-h32.nnue"), "accepted");
    EXPECT_EQ(message("name=a,depth=2,eval=hce"), "accepted");
    EXPECT_EQ(parse_engine_spec("name=a,depth=2,eval=hce", 0).eval, "full");  // one name for the same engine
    // The files are read when a run starts (check_engine_files), not when its settings are read
    // back: a bad net fails then, by name.
    auto files_message = [](const std::string& text) {
        try {
            check_engine_files(parse_engine_spec(text, 0));
        } catch (const common::InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(files_message("name=a,depth=2,eval=" LOA_TEST_SOURCE_DIR "/data/nnue/test-h32.nnue"), "accepted");
    EXPECT_NE(files_message("name=a,depth=2,eval=/nonexistent/net.nnue").find("engine 'a': network file: cannot read"),
              std::string::npos);
    EXPECT_NE(files_message("name=a,depth=2,eval=" LOA_TEST_SOURCE_DIR "/data/nnue/test-h32.vectors.txt").find("eval must be"),
              std::string::npos);
    EXPECT_NE(files_message("name=a,depth=2,rps=/nonexistent/rps.json").find("engine 'a'"), std::string::npos);
    EXPECT_NE(message("name=a,cmd=/bin/true,proto=chess,depth=2").find("proto must be uci or gtp"), std::string::npos);
    EXPECT_NE(message("name=a,cmd=/bin/true,killers=2,depth=2").find("search keys apply to in-process engines"), std::string::npos);
    EXPECT_NE(message("name=a,cmd=/bin/true,proto=gtp,depth=2").find("GTP engines play with a clock"), std::string::npos);
}

TEST(EngineSpec, NamedTimeControlsAndTheirErrors) {
    const EngineSpec stc = parse_engine_spec("name=a,tc=stc", 0);
    EXPECT_DOUBLE_EQ(stc.time_control->base_ms, 5000);
    EXPECT_DOUBLE_EQ(stc.time_control->increment_ms, 50);
    EXPECT_EQ(stc.limit_text(), "tc=5+0.05");
    const TimeControl ltc = parse_time_control("ltc", "--tc");  // four times the short one
    EXPECT_DOUBLE_EQ(ltc.base_ms, 4 * stc.time_control->base_ms);
    EXPECT_DOUBLE_EQ(ltc.increment_ms, 4 * stc.time_control->increment_ms);
    EXPECT_DOUBLE_EQ(parse_time_control("7", "--tc").base_ms, 7000);
    EXPECT_DOUBLE_EQ(parse_time_control("7+0", "--tc").increment_ms, 0);
    for (const char* bad : {"fast", "0+1", "-5+0.1", "5+x", "5+-1", "inf", "nan+1", ""}) {
        try {
            (void)parse_time_control(bad, "--tc");
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const common::InputError& e) {
            EXPECT_NE(std::string(e.what()).find("--tc: tc must be stc, ltc or BASE+INC"), std::string::npos) << e.what();
        }
    }
    EXPECT_TRUE(has_limit("name=a,nodes=5"));
    EXPECT_TRUE(has_limit("st=1,preset=pvs"));
    EXPECT_FALSE(has_limit("name=a,preset=pvs,eval=simple"));
}

using fixtures::small_match;

TEST(Match, WithoutKeptGamesTheCountsAreTheSameAndOnGameSeesEveryRecord) {
    const MatchResult whole = run_match(small_match(1), {});
    MatchCallbacks callbacks;
    callbacks.keep_games = false;
    std::vector<GameRecord> seen;
    callbacks.on_game = [&](const GameRecord& g, const PairingStats&) { seen.push_back(g); };
    const MatchResult light = run_match(small_match(1), callbacks);
    EXPECT_TRUE(light.games.empty());  // nothing held per game: memory stays flat
    ASSERT_FALSE(whole.games.empty());
    EXPECT_EQ(light.finished_games, static_cast<int>(whole.games.size()));
    EXPECT_EQ(whole.finished_games, static_cast<int>(whole.games.size()));
    ASSERT_EQ(seen.size(), whole.games.size());
    for (const GameRecord& g : seen) {
        const GameRecord& w = whole.games[static_cast<std::size_t>(g.index)];
        EXPECT_EQ(g.moves, w.moves);
        EXPECT_EQ(g.result_text(), w.result_text());
    }
    ASSERT_EQ(light.pairings.size(), whole.pairings.size());
    EXPECT_EQ(light.pairings[0].pairs.count, whole.pairings[0].pairs.count);
    EXPECT_EQ(light.pairings[0].games.wins, whole.pairings[0].games.wins);
    EXPECT_EQ(light.pairings[0].games.draws, whole.pairings[0].games.draws);
    EXPECT_EQ(light.pairings[0].games.losses, whole.pairings[0].games.losses);
    EXPECT_DOUBLE_EQ(light.pairings[0].llr, whole.pairings[0].llr);
}

TEST(Match, OnMoveSeesEveryGameAfterItsOpeningAndEachMove) {
    MatchCallbacks callbacks;
    std::mutex lock;
    std::map<int, std::vector<loa::Move>> last_seen;
    std::map<int, int> calls;
    callbacks.on_move = [&](const GameInPlay& g) {
        const std::lock_guard guard(lock);
        last_seen[g.index] = g.game->moves();
        ++calls[g.index];
        EXPECT_TRUE(g.worker == 0 || g.worker == 1) << g.worker;
    };
    const MatchResult r = run_match(small_match(2), callbacks);
    ASSERT_EQ(last_seen.size(), r.games.size());
    for (const GameRecord& g : r.games) {
        EXPECT_EQ(last_seen[g.index], g.moves) << g.index;
        EXPECT_EQ(calls[g.index], 1 + static_cast<int>(g.moves.size()) - g.opening_plies) << g.index;
    }
}

TEST(Match, TheLiveFileHoldsTheGamesInPlayAndGoesWithTheRun) {
    const std::string path = testing::TempDir() + "games.live";
    std::remove(path.c_str());
    loa::Game game;
    game.play("b1-d3");
    auto read = [&] {
        std::ifstream in(path);
        return nlohmann::json::parse(in, nullptr, false);
    };
    auto wait_for = [&](const std::function<bool(const nlohmann::json&)>& done) {
        for (int i = 0; i < 50; ++i) {  // written within a second of a change
            const nlohmann::json j = read();
            if (!j.is_discarded() && done(j)) return j;
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        return nlohmann::json();
    };
    {
        LiveFile live(path);
        live.update({1, 6, "a", "b", &game});
        const nlohmann::json j = wait_for([](const nlohmann::json& x) { return x["games"].size() == 1; });
        ASSERT_FALSE(j.is_null()) << "no live file with the game";
        EXPECT_EQ(j["games"][0]["game"], 7);
        EXPECT_EQ(j["games"][0]["black"], "a");
        EXPECT_EQ(j["games"][0]["moves"], nlohmann::json::array({"b1-d3"}));
        EXPECT_EQ(j["games"][0]["start"], loa::StartPositionText);
        live.finished(6);
        EXPECT_FALSE(wait_for([](const nlohmann::json& x) { return x["games"].empty(); }).is_null());
    }
    EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(Match, ResultsDoNotDependOnConcurrency) {
    const MatchResult one = run_match(small_match(1), {});
    const MatchResult two = run_match(small_match(2), {});
    ASSERT_EQ(one.games.size(), 6u);
    ASSERT_EQ(two.games.size(), 6u);
    for (std::size_t i = 0; i < one.games.size(); ++i) {
        EXPECT_EQ(one.games[i].moves, two.games[i].moves) << "game " << i;
        EXPECT_EQ(one.games[i].outcome, two.games[i].outcome);
    }
    EXPECT_EQ(one.pairings[0].pairs.count, two.pairings[0].pairs.count);
    EXPECT_EQ(one.pairings[0].pairs.pairs(), 3);
    // Each opening is played twice with colours swapped.
    EXPECT_EQ(one.games[0].black, "a");
    EXPECT_EQ(one.games[1].black, "b");
    EXPECT_EQ(one.games[0].opening, one.games[1].opening);
}

TEST(Match, AnSprtStopKeepsTheDecisionAndReportsTheGamesInFlight) {
    // A much stronger engine: H1 (elo1 = 200) is accepted within a few pairs. With two
    // workers the other pair in flight at the decision is still played and counted; the
    // decision, and the LLR that took it, stay as they were.
    MatchSettings s = small_match(2);
    s.engines = {parse_engine_spec("name=strong,preset=full,nodes=300,tt=1", 0), parse_engine_spec("name=weak,preset=ab,depth=1,eval=material", 1)};
    s.games = 60;
    s.sprt = parse_sprt("elo0=0,elo1=200,model=logistic");
    const MatchResult r = run_match(s, {});
    const PairingStats& p = r.pairings[0];
    EXPECT_TRUE(r.stopped_by_sprt);
    ASSERT_EQ(p.decision, SprtDecision::AcceptH1);
    EXPECT_GE(p.decision_llr, s.sprt->upper_bound());
    EXPECT_LE(p.decision_games, p.games.games());
    EXPECT_LT(p.games.games(), 60);
    EXPECT_EQ(static_cast<std::int64_t>(r.games.size()), p.games.games());
    const std::string text = summary(s, r);
    EXPECT_NE(text.find(fmt::format("H1 accepted at game {} with LLR {:.2f}", p.decision_games, p.decision_llr)),
              std::string::npos) << text;
    if (p.decision_games != p.games.games()) {
        EXPECT_NE(text.find(fmt::format("final LLR {:.2f}", p.llr)), std::string::npos) << text;
    }
}

TEST(Match, AGauntletWithAnSprtStopsEachPairingAtItsOwnDecision) {
    // The base against a much weaker engine decides within a few pairs and then plays no
    // more (only the pairs in flight are finished); the other pairing is not held back by it
    // and plays its whole schedule unless it decides too.
    MatchSettings s = small_match(2);
    s.format = Format::Gauntlet;
    s.engines = {parse_engine_spec("name=strong,preset=full,nodes=300,tt=1", 0),
                 parse_engine_spec("name=weak,preset=ab,depth=1,eval=material", 1),
                 parse_engine_spec("name=equal,preset=full,nodes=300,eval=hand,tt=1", 2)};
    s.games = 28;  // the weak pairing decides after 16 to 20 games
    s.sprt = parse_sprt("elo0=0,elo1=200,model=logistic");
    const MatchResult r = run_match(s, {});
    ASSERT_EQ(r.pairings.size(), 2u);
    const PairingStats& weak = r.pairings[0];
    ASSERT_EQ(weak.decision, SprtDecision::AcceptH1);
    EXPECT_LT(weak.games.games(), 28);
    EXPECT_LE(weak.games.games(), weak.decision_games + 2 * 2);  // at most a pair per worker in flight
    EXPECT_TRUE(r.stopped_by_sprt);
    const PairingStats& equal = r.pairings[1];
    if (equal.decision == SprtDecision::Continue) EXPECT_EQ(equal.games.games(), 28);
    else EXPECT_LE(equal.games.games(), equal.decision_games + 2 * 2);
    EXPECT_EQ(static_cast<std::int64_t>(r.games.size()), weak.games.games() + equal.games.games());
    // A gauntlet has no --test/--base: the decided pairing still says in words what it found.
    const std::string text = summary(s, r);
    EXPECT_NE(text.find("Verdict: strong vs weak:"), std::string::npos) << text;
    EXPECT_NE(text.find("SPRT accepted H1: strong is stronger (elo0 = 0, elo1 = 200)"), std::string::npos) << text;

    // Resumed from the games of the decided pairing and half of the other's, the decided
    // pairing keeps its decision and plays no more; the other plays the rest of its schedule.
    s.concurrency = 1;
    const MatchResult whole = run_match(s, {});
    ASSERT_GE(whole.pairings[1].games.games(), 4);
    const std::int64_t others = whole.pairings[1].games.games() / 4 * 2;  // whole pairs, about half
    std::vector<GameRecord> played;
    std::int64_t taken = 0;
    for (const GameRecord& g : whole.games)  // pairs alternate between the two pairings
        if (g.pair % 2 == 0 || taken++ < others) played.push_back(g);
    int new_games_of_decided = 0;
    MatchCallbacks count_new;
    count_new.on_game = [&](const GameRecord& g, const PairingStats&) { new_games_of_decided += g.pair % 2 == 0; };
    const MatchResult resumed = run_match(s, count_new, played);
    EXPECT_EQ(new_games_of_decided, 0);
    EXPECT_EQ(resumed.pairings[0].decision, whole.pairings[0].decision);
    EXPECT_EQ(resumed.pairings[0].decision_games, whole.pairings[0].decision_games);
    EXPECT_EQ(resumed.pairings[1].games.games(), whole.pairings[1].games.games());
    EXPECT_LT(others, whole.pairings[1].games.games());  // the resume had something to play
}

TEST(Match, RecordsReplayLegallyToTheRecordedResult) {
    const MatchResult result = run_match(small_match(2), {});
    std::stringstream text;
    for (const GameRecord& g : result.games) write_record(text, g, "test");
    const auto parsed = read_records(text);
    ASSERT_EQ(parsed.size(), result.games.size());
    for (std::size_t i = 0; i < parsed.size(); ++i) {
        const auto& rec = parsed[i];
        loa::Game game(loa::Position::from_text(rec.start_text()));
        for (const std::string& m : rec.moves) ASSERT_NO_THROW(game.play(m)) << m;
        EXPECT_TRUE(game.over());
        const std::string expected = game.result().outcome == loa::Outcome::WhiteWins   ? "1-0"
                                     : game.result().outcome == loa::Outcome::BlackWins ? "0-1"
                                                                                        : "1/2-1/2";
        EXPECT_EQ(rec.tags.at("Result"), expected);
        EXPECT_EQ(rec.tags.at("White"), result.games[i].white);
        EXPECT_EQ(rec.tags.at("PlyCount"), std::to_string(rec.moves.size()));
        EXPECT_EQ(rec.tags.at("Termination"), "normal");  // PGN's word; the reason is the comment
        EXPECT_EQ(rec.reason, loa::describe(game.result()));
    }
}

TEST(Match, RecordsAreStandardPgnAndReadBackAsOpenings) {
    // Games from a position with White to move (a FEN, "1..." numbering), at node limits (no
    // clock: TimeControl "-" and the limits' own tags); their PGN read back as openings.
    MatchSettings s = small_match(2);
    loa::Game after(loa::Position::start());
    after.play("b1-d3");
    s.openings = {Opening{"white first", after.position(), {}}, s.openings[0]};
    s.games = 4;
    const MatchResult result = run_match(s, {});
    ASSERT_EQ(result.games.size(), 4u);
    const std::string path = testing::TempDir() + "standard_records.pgn";
    {
        std::ofstream out(path);
        for (const GameRecord& g : result.games) write_record(out, g, "pgn test");
    }
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text.find("[Event \"pgn test\"]\n[Site \"?\"]\n[Date \"20"), 0u) << text;  // the Seven Tag Roster, in order
    EXPECT_NE(text.find("\"]\n[Round \"1.1\"]\n[White \""), std::string::npos) << text;
    EXPECT_NE(text.find("[SetUp \"1\"]\n[FEN \"" + after.position().to_text() + "\"]"), std::string::npos) << text;
    EXPECT_NE(text.find("\n\n{end of opening} 1... "), std::string::npos) << text;  // White moves first there
    EXPECT_NE(text.find("[TimeControl \"-\"]\n[BlackLimit \"nodes=600\"]"), std::string::npos) << text;
    EXPECT_EQ(text.find("[Position "), std::string::npos) << text;
    std::ifstream again(path);
    const std::vector<ParsedRecord> back = read_records(again);
    ASSERT_EQ(back.size(), result.games.size());
    for (std::size_t i = 0; i < back.size(); ++i) {
        const GameRecord& g = result.games[i];
        EXPECT_EQ(back[i].start_text(), g.start.to_text());
        ASSERT_EQ(back[i].moves.size(), g.moves.size());
        for (std::size_t k = 0; k < g.moves.size(); ++k) EXPECT_EQ(back[i].moves[k], loa::move_to_text(g.moves[k]));
        EXPECT_EQ(back[i].opening_plies, g.opening_plies);  // marked, at the start too
    }
    // As openings: each game's start and its moves up to "{end of opening}", once a pair.
    const std::vector<Opening> openings = load_openings(path, loa::Position::start(), s.rules);
    ASSERT_EQ(openings.size(), result.games.size() / 2);
    for (std::size_t i = 0; i < openings.size(); ++i) {
        EXPECT_EQ(openings[i].start.to_text(), result.games[2 * i].start.to_text());
        EXPECT_EQ(static_cast<int>(openings[i].moves.size()), result.games[2 * i].opening_plies);
    }
    std::remove(path.c_str());
}

TEST(Match, ShardsPartitionTheSchedule) {
    MatchSettings s = small_match(1);
    s.shard_count = 2;
    s.shard_index = 0;
    const MatchResult first = run_match(s, {});
    s.shard_index = 1;
    const MatchResult second = run_match(s, {});
    const MatchResult whole = run_match(small_match(1), {});
    EXPECT_EQ(first.games.size() + second.games.size(), whole.games.size());
    for (const auto* part : {&first, &second})
        for (const GameRecord& g : part->games) EXPECT_EQ(g.moves, whole.games[static_cast<std::size_t>(g.index)].moves);
}

TEST(Match, SprtStopsARunOnceABoundIsCrossed) {
    // A depth-1 engine against a depth-3 one: the weak side loses quickly and the SPRT (with
    // generous error rates) accepts H0 (the first engine is not stronger) early.
    MatchSettings s;
    s.engines = {parse_engine_spec("name=weak,preset=ab,depth=1,qsearch=off", 0),
                 parse_engine_spec("name=strong,preset=pvs+tt+rhh,depth=3,qsearch_plies=2,tt=1", 1)};
    s.games = 400;
    s.concurrency = 1;
    s.sprt = parse_sprt("elo0=0,elo1=50,alpha=0.2,beta=0.2,model=logistic");
    OpeningGenerator g;
    g.count = 40;  // the decision comes long before the openings repeat
    g.balance_depth = 1;
    g.max_abs_score = 2000;
    s.openings = generate_openings(g, loa::Position::start(), s.rules);
    const MatchResult r = run_match(s, {});
    EXPECT_TRUE(r.stopped_by_sprt);
    EXPECT_EQ(r.pairings[0].decision, SprtDecision::AcceptH0);
    EXPECT_LE(r.games.size(), 80u);  // before the 40 openings were played twice
}

TEST(Match, TheVerdictSaysWhatTheSprtBoundsAsked) {
    // [0, 10] asks "is the test stronger?"; a non-regression test such as an ablation's
    // [-10, 0] asks "is it weaker?": its H0 means weaker, its H1 not weaker (never "stronger").
    MatchSettings s;
    s.engines = {parse_engine_spec("name=test,preset=full,depth=1", 0), parse_engine_spec("name=base,preset=full,depth=1", 1)};
    PairingStats p;
    p.games = {40, 10, 50};
    p.pairs.count = {10, 5, 20, 5, 10};
    const auto verdict = [&](const char* bounds, SprtDecision d) {
        s.sprt = parse_sprt(bounds);
        p.decision = d;
        return verdict_line(s, p);
    };
    EXPECT_NE(verdict("elo0=0,elo1=10", SprtDecision::AcceptH1).find("H1: test is stronger (elo0 = 0, elo1 = 10)"), std::string::npos);
    EXPECT_NE(verdict("elo0=0,elo1=10", SprtDecision::AcceptH0).find("H0: test is not stronger"), std::string::npos);
    EXPECT_NE(verdict("elo0=-10,elo1=0", SprtDecision::AcceptH0).find("H0: test is weaker (elo0 = -10, elo1 = 0)"), std::string::npos);
    EXPECT_NE(verdict("elo0=-10,elo1=0", SprtDecision::AcceptH1).find("H1: test is not weaker"), std::string::npos);
    EXPECT_NE(verdict("elo0=-5,elo1=5", SprtDecision::AcceptH0).find("H0: test is not stronger"), std::string::npos);
    EXPECT_NE(verdict("elo0=-5,elo1=5", SprtDecision::AcceptH1).find("H1: test is not weaker"), std::string::npos);
    // Bounds beyond 0 ask "by how much?": H0 of [5, 15] still allows +5, H1 of [-15, -5] -5.
    EXPECT_NE(verdict("elo0=5,elo1=15", SprtDecision::AcceptH1).find("H1: test is stronger (elo0"), std::string::npos);
    EXPECT_NE(verdict("elo0=5,elo1=15", SprtDecision::AcceptH0).find("H0: test is not stronger by 15 (elo0"), std::string::npos);
    EXPECT_NE(verdict("elo0=-15,elo1=-5", SprtDecision::AcceptH0).find("H0: test is weaker (elo0"), std::string::npos);
    EXPECT_NE(verdict("elo0=-15,elo1=-5", SprtDecision::AcceptH1).find("H1: test is not weaker by 15 (elo0"), std::string::npos);
    EXPECT_EQ(verdict("elo0=0,elo1=10", SprtDecision::AcceptH0).find(" by "), std::string::npos);
}

TEST(Openings, FileOfPositionsAndMoveLists) {
    const auto path = std::filesystem::temp_directory_path() / "loa_openings_test.txt";
    {
        std::ofstream out(path);
        out << "# comment\n\n1. b1-d3 a2-c2\n1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 w\n";
    }
    const auto openings = load_openings(path.string(), loa::Position::start(), loa::RuleSet{});
    ASSERT_EQ(openings.size(), 2u);
    EXPECT_EQ(openings[0].moves.size(), 2u);
    EXPECT_EQ(start_game(openings[0], loa::RuleSet{}).ply(), 2);
    EXPECT_EQ(openings[1].start.side_to_move(), loa::Colour::White);
    {
        std::ofstream out(path);
        out << "b1-d3 a2-b2\n";
    }
    try {
        (void)load_openings(path.string(), loa::Position::start(), loa::RuleSet{});
        ADD_FAILURE() << "accepted an illegal opening";
    } catch (const common::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("line 1"), std::string::npos) << e.what();
    }
    std::filesystem::remove(path);
}

TEST(Openings, GeneratedOpeningsAreDistinctBalancedAndSeeded) {
    OpeningGenerator g;
    g.count = 8;
    g.plies = 4;
    g.balance_depth = 2;
    const auto a = generate_openings(g, loa::Position::start(), loa::RuleSet{});
    const auto b = generate_openings(g, loa::Position::start(), loa::RuleSet{});
    ASSERT_EQ(a.size(), 8u);
    std::set<loa::Key> keys;
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].moves, b[i].moves);
        EXPECT_EQ(a[i].moves.size(), 4u);
        keys.insert(start_game(a[i], loa::RuleSet{}).position().key());
    }
    EXPECT_EQ(keys.size(), 8u);
}

// The smallest of the keys of a position's images under the symmetries that keep the start
// position (files mirrored, ranks flipped): written here from the board, not from the generator.
loa::Key mirror_class(const loa::Position& p) {
    loa::Key best = p.key();
    for (const bool files : {false, true})
        for (const bool ranks : {false, true}) {
            std::string text = p.to_text();
            const auto space = text.find(' ');
            std::vector<std::string> rows;
            for (std::string_view r : common::split(std::string_view(text).substr(0, space), '/')) {
                std::string row;
                for (const char c : r) row += std::isdigit(static_cast<unsigned char>(c)) ? std::string(c - '0', '.') : std::string(1, c);
                if (files) std::reverse(row.begin(), row.end());
                rows.push_back(row);
            }
            if (ranks) std::reverse(rows.begin(), rows.end());
            std::string mirrored;
            for (const std::string& row : rows) mirrored += (mirrored.empty() ? "" : "/") + row;
            best = std::min(best, loa::parse_position(mirrored + text.substr(space)).key());
        }
    return best;
}

TEST(Openings, PlyRangeAndDistinctMirrorImages) {
    OpeningGenerator g;
    g.count = 40;
    g.plies = 1;
    g.max_plies = 3;
    g.balance_depth = 1;
    g.max_abs_score = 100000;
    g.distinct_under_symmetry = true;
    const auto openings = generate_openings(g, loa::Position::start(), loa::RuleSet{});
    std::set<loa::Key> classes;
    std::set<std::size_t> lengths;
    for (const Opening& o : openings) {
        lengths.insert(o.moves.size());
        classes.insert(mirror_class(start_game(o, loa::RuleSet{}).position()));
    }
    EXPECT_EQ(lengths, (std::set<std::size_t>{1, 2, 3}));
    EXPECT_EQ(classes.size(), openings.size());  // one ply from the start has mirror twins: they were dropped
    // The file written from them reads back to the same openings.
    const auto path = std::filesystem::temp_directory_path() / "loa_generated_openings_test.txt";
    std::ofstream(path) << openings_file_text(openings, {"a header line"});
    const auto back = load_openings(path.string(), loa::Position::start(), loa::RuleSet{});
    ASSERT_EQ(back.size(), openings.size());
    for (std::size_t i = 0; i < back.size(); ++i) EXPECT_EQ(back[i].moves, openings[i].moves);
    std::filesystem::remove(path);
}

TEST(Openings, TheShippedOpeningsAreManyDistinctAndFromTheStandardStart) {
    const auto openings = load_openings(LOA_DATA_DIR "/openings/balanced-4-8.txt", loa::Position::start(), loa::RuleSet{});
    EXPECT_GE(openings.size(), 2000u);
    std::set<loa::Key> classes;
    for (const Opening& o : openings) {
        EXPECT_GE(o.moves.size(), 4u);
        EXPECT_LE(o.moves.size(), 8u);
        classes.insert(mirror_class(start_game(o, loa::RuleSet{}).position()));
    }
    EXPECT_EQ(classes.size(), openings.size());
}

}  // namespace
}  // namespace matches

namespace matches {
namespace {

MatchResult against_fake(const std::string& mode, const std::string& limit, int games, int concurrency = 1) {
    MatchSettings s;
    s.engines = {parse_engine_spec("name=fake,cmd=bash,proto=uci,args=" LOA_TEST_SOURCE_DIR "/fake_engines/uci_fake.sh " + mode + "," + limit, 0),
                 parse_engine_spec("name=ours,preset=pvs+tt+rhh,depth=1", 1)};
    s.games = games;
    s.concurrency = concurrency;
    OpeningGenerator g;
    g.count = games;
    g.balance_depth = 1;
    g.max_abs_score = 5000;
    s.openings = generate_openings(g, loa::Position::start(), s.rules);
    return run_match(s, {});
}

TEST(ExternalEngines, ACrashLosesTheGameAndTheEngineRestarts) {
    const MatchResult r = against_fake("crash", "depth=2", 4);
    ASSERT_EQ(r.games.size(), 4u);
    for (const GameRecord& g : r.games) {
        const bool fake_black = g.black == "fake";
        EXPECT_EQ(g.outcome, fake_black ? loa::Outcome::WhiteWins : loa::Outcome::BlackWins);
        // The fake engine moves first as Black; as White it crashes at its first move too.
        EXPECT_NE(g.termination.find("engine crashed"), std::string::npos) << g.termination;
    }
    EXPECT_EQ(r.pairings[0].games.losses, 4);
}

TEST(ExternalEngines, AHungEngineLosesOnItsMoveTimeout) {
    const MatchResult r = against_fake("hang", "st=0.1", 2, 2);  // both games wait at once
    ASSERT_EQ(r.games.size(), 2u);
    for (const GameRecord& g : r.games) EXPECT_NE(g.termination.find("no bestmove in time"), std::string::npos) << g.termination;
}

TEST(ExternalEngines, AnIllegalMoveLosesAndIsRecorded) {
    const MatchResult r = against_fake("illegal", "depth=2", 2);
    for (const GameRecord& g : r.games) EXPECT_NE(g.termination.find("illegal move 'a1a1'"), std::string::npos) << g.termination;
}

// Processes whose command line contains `marker` (read from /proc).
int processes_with(const std::string& marker) {
    int found = 0;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        std::ifstream in(entry.path() / "cmdline");
        std::string cmdline((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::replace(cmdline.begin(), cmdline.end(), '\0', ' ');
        if (cmdline.find(marker) != std::string::npos && cmdline.find("gtest") == std::string::npos) ++found;
    }
    return found;
}

TEST(ExternalEngines, AHungWrapperScriptLeavesNoProcessBehind) {
    // The wrapper hangs on 'go' with children of its own: the move timeout kills the whole
    // process group, not only the script.
    const std::string marker = fmt::format("{}.{}", 7000 + getpid() % 1000, 271828);
    MatchSettings s;
    s.engines = {parse_engine_spec("name=wrapped,cmd=bash,proto=uci,st=0.1,args=" LOA_TEST_SOURCE_DIR
                                   "/fake_engines/wrapper.sh " + marker + " hang", 0),
                 parse_engine_spec("name=ours,preset=pvs+tt+rhh,depth=1", 1)};
    s.games = 2;
    s.concurrency = 2;  // both games wait for their timeout at once
    s.openings = {Opening{"start", loa::Position::start(), {}}};
    const MatchResult r = run_match(s, {});
    ASSERT_EQ(r.games.size(), 2u);
    for (const GameRecord& g : r.games) EXPECT_NE(g.termination.find("no bestmove in time"), std::string::npos) << g.termination;
    EXPECT_EQ(processes_with("sleep " + marker), 0);
}

TEST(ExternalEngines, AnEngineThatDoesNotStartFailsAtOnce) {
    MatchSettings s;
    s.engines = {parse_engine_spec("name=x,cmd=/nonexistent/engine,depth=1", 0), parse_engine_spec("name=y,depth=1", 1)};
    s.openings = {Opening{"start", loa::Position::start(), {}}};
    try {
        (void)run_match(s, {});
        ADD_FAILURE() << "started";
    } catch (const common::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("cannot start '/nonexistent/engine'"), std::string::npos) << e.what();
    }
}

TEST(ExternalEngines, GtpClocksUnderASecondAreSentWithTheirFractions) {
    const std::string log = testing::TempDir() + "gtp_wire.log";
    std::remove(log.c_str());
    MatchSettings s;
    s.engines = {parse_engine_spec("name=gtp,cmd=bash,proto=gtp,tc=0.5+0.05,args=" LOA_TEST_SOURCE_DIR
                                   "/fake_engines/logging_wrapper.sh " + log + " " LOA_BINARY " gtp", 0),
                 parse_engine_spec("name=ours,preset=pvs+tt+rhh,depth=1", 1)};
    s.games = 2;
    s.openings = {Opening{"start", loa::Position::start(), {}}};
    const MatchResult r = run_match(s, {});
    ASSERT_EQ(r.games.size(), 2u);
    std::ifstream in(log);
    const std::string wire((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NE(wire.find("time_settings 0.5 0.05\n"), std::string::npos) << wire;
    EXPECT_NE(wire.find("time_left b 0.5\n"), std::string::npos) << wire;  // its first move as Black
    EXPECT_EQ(wire.find("time_settings 0 0"), std::string::npos) << wire;
}

// Two games from the start: our binary over `proto` behind tests/fake_engines/delay_wrapper.sh
// (each line it is sent that starts with `prefix` arrives `seconds` late), named `name`, on
// `clock`, against a depth-1 engine in process. The two games are played at once: each spends
// most of its time waiting for the delayed lines.
MatchSettings against_delayed_engine(const std::string& name, const std::string& proto, const std::string& clock,
                                     const std::string& prefix, const std::string& seconds) {
    MatchSettings s;
    s.engines = {parse_engine_spec(fmt::format("name={},cmd=bash,proto={},{},args={}/fake_engines/delay_wrapper.sh {} {} {} {}",
                                               name, proto, clock, LOA_TEST_SOURCE_DIR, prefix, seconds, LOA_BINARY, proto),
                                   0),
                 parse_engine_spec("name=ours,preset=pvs+tt+rhh,depth=1", 1)};
    s.games = 2;
    s.concurrency = 2;
    s.openings = {Opening{"start", loa::Position::start(), {}}};
    return s;
}

// The runner lets a clock overrun by --time-margin; waiting for the move only a second past the
// clock once cut such a move short as "no bestmove in time" instead.
TEST(ExternalEngines, AnOverrunWithinTheMarginIsJudgedByTheClockNotCutShort) {
    MatchSettings s = against_delayed_engine("late", "uci", "tc=0.2+0", "go", "0.8");
    s.adjudication.time_margin_ms = 2000;  // 0.8 s late twice is within it, three times is not
    const MatchResult r = run_match(s, {});
    ASSERT_EQ(r.games.size(), 2u);
    for (const GameRecord& g : r.games) {
        EXPECT_NE(g.termination.find("loses on time"), std::string::npos) << g.termination;
        const auto& late_moves = g.black == "late" ? g.black_move_ms : g.white_move_ms;
        EXPECT_EQ(late_moves.size(), 3u) << g.termination;  // moved twice within the margin
    }
}

// A GTP engine is told the game one `play` at a time before each genmove; that set-up is the
// runner's business and once counted against the engine's clock, which lost long games on time.
TEST(ExternalEngines, ReplayingTheGameToAGtpEngineCostsNoClockTime) {
    MatchSettings s = against_delayed_engine("gtp", "gtp", "tc=0.6+0.03", "play", "0.03");
    s.rules = loa::parse_rules("plylimit=20");  // 0.03 s a ply of set-up: 2.7 s by ply 20 against a 0.9 s clock
    const MatchResult r = run_match(s, {});
    ASSERT_EQ(r.games.size(), 2u);
    for (const GameRecord& g : r.games) {
        EXPECT_EQ(g.termination.find("on time"), std::string::npos) << g.termination;
        EXPECT_GE(g.moves.size(), 12u) << g.termination;
        const double clock_ms = g.black == "gtp" ? g.black_ms : g.white_ms;
        EXPECT_LT(clock_ms, 600 + 10 * 30 + 30) << g.termination;
    }
}

// In process, a clock below zero (an overrun within the margin) once read as "no clock" to
// the time manager, which then searched without any limit.
TEST(InProcessPlayers, AClockBelowZeroStillGivesTheSearchATimeLimit) {
    EngineSpec spec = parse_engine_spec("name=x,preset=full,tc=1+0.01", 0);
    spec.nodes = 200000;  // a backstop, so that a failure of this test is not a hang
    InProcessPlayer player(spec, loa::RuleSet{});
    const loa::Game game;
    const MoveChoice choice = player.choose(game, ClockState{-3, 10, 50});
    EXPECT_GT(choice.hard_limit_ms, 0);
    EXPECT_LT(choice.hard_limit_ms, 10);
    EXPECT_TRUE(loa::is_legal(game.position(), choice.move));
}

TEST(ExternalEngines, TheUciPositionCommandUsesStartposForStandardStarts) {
    loa::Game game;
    EXPECT_EQ(uci_position(PositionCommand::Auto, game), "position startpos");
    game.play("b1-d3");
    game.play("a2-c2");
    EXPECT_EQ(uci_position(PositionCommand::Auto, game), "position startpos moves b1d3 a2c2");
    EXPECT_EQ(uci_position(PositionCommand::Fen, game),
              "position fen " + loa::Position::start().to_text() + " moves b1d3 a2c2");
    const loa::Game eggs(loa::Position::scrambled_eggs());
    EXPECT_EQ(uci_position(PositionCommand::Auto, eggs), "position fen " + eggs.start_position().to_text());
    EXPECT_THROW(parse_engine_spec("name=x,cmd=/bin/true,position=board,depth=1", 0), common::InputError);
}

// A picky engine that takes only 'position startpos moves ...', prints no info lines and
// ignores stop (tests/fake_engines/startpos_only.sh) plays whole games with generated
// (move-list) openings; told a FEN, it exits, and the runner records a crash.
MatchResult against_picky(const std::string& extra_keys, const std::vector<Opening>& openings) {
    MatchSettings s;
    s.engines = {parse_engine_spec("name=picky,cmd=bash,proto=uci,st=0.05,args=" LOA_TEST_SOURCE_DIR
                                   "/fake_engines/startpos_only.sh " LOA_BINARY + extra_keys, 0),
                 parse_engine_spec("name=ours,preset=pvs+tt+rhh,depth=1", 1)};
    s.games = 2;
    s.openings = openings;
    return run_match(s, {});
}

TEST(ExternalEngines, AnEngineThatKnowsOnlyStartposPlaysWholeGames) {
    OpeningGenerator g;
    g.count = 1;
    g.balance_depth = 1;
    const MatchResult r = against_picky("", generate_openings(g, loa::Position::start(), loa::RuleSet{}));
    ASSERT_EQ(r.games.size(), 2u);
    for (const GameRecord& g : r.games) {
        EXPECT_EQ(g.termination.find("engine"), std::string::npos) << g.termination;
        EXPECT_EQ(g.termination.find("illegal"), std::string::npos) << g.termination;
        EXPECT_NE(g.outcome, loa::Outcome::Ongoing);
    }
    const MatchResult fen = against_picky(",position=fen", {Opening{"start", loa::Position::start(), {}}});
    for (const GameRecord& g : fen.games) EXPECT_NE(g.termination.find("engine crashed"), std::string::npos) << g.termination;
}

TEST(ExternalEngines, PositionStartposRefusesOpeningsFromElsewhere) {
    try {
        (void)against_picky(",position=startpos", {Opening{"eggs", loa::Position::scrambled_eggs(), {}}});
        ADD_FAILURE() << "played";
    } catch (const common::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("position=startpos, but opening 'eggs'"), std::string::npos) << e.what();
    }
}

TEST(ExternalEngines, OurOwnBinaryOverUciPlaysLikeTheInProcessEngine) {
    // Same variant, fixed depth: the external process and the in-process searcher must choose
    // the same moves, so every game pair splits 1-1 with mirrored games.
    MatchSettings s;
    s.engines = {parse_engine_spec("name=external,cmd=" LOA_BINARY ",args=uci,proto=uci,depth=2,option.Hash=16", 0),
                 parse_engine_spec("name=inprocess,preset=full,depth=2", 1)};
    s.games = 2;
    OpeningGenerator g;
    g.count = 1;
    g.balance_depth = 1;
    s.openings = generate_openings(g, loa::Position::start(), s.rules);
    const MatchResult r = run_match(s, {});
    ASSERT_EQ(r.games.size(), 2u);
    EXPECT_EQ(r.games[0].moves, r.games[1].moves);
}

}  // namespace
}  // namespace matches

#include "common/file_lock.hpp"
#include "matches/state.hpp"

namespace matches {
namespace {

TEST(MatchState, LoadKeepsWholePairsOnceAndDropsATornLine) {
    const MatchSettings s = small_match(1);
    const MatchResult r = run_match(s, {});
    ASSERT_EQ(r.games.size(), 6u);
    const std::string path = testing::TempDir() + "load_keeps_pairs.state";
    std::remove(path.c_str());
    StateFile state(path, s);
    for (const int i : {0, 1, 2, 0}) state.append(r.games[static_cast<std::size_t>(i)]);  // pair 1 half done, game 0 twice
    {
        std::ofstream torn(path, std::ios::app);
        torn << game_json(r.games[3]).dump().substr(0, 40);  // killed while writing
    }
    const std::vector<GameRecord> kept = state.load();
    ASSERT_EQ(kept.size(), 2u);
    EXPECT_EQ(kept[0].index, 1);  // in the order counted: game 0's later record is its place
    EXPECT_EQ(kept[1].index, 0);
    // The file now holds exactly those: new games appended after it load cleanly.
    state.append(r.games[2]);
    state.append(r.games[3]);
    const std::vector<GameRecord> later = state.load();
    ASSERT_EQ(later.size(), 4u);
    const int order[] = {1, 0, 2, 3};
    for (int i = 0; i < 4; ++i) {
        EXPECT_EQ(later[static_cast<std::size_t>(i)].index, order[i]);
        EXPECT_EQ(later[static_cast<std::size_t>(i)].moves, r.games[static_cast<std::size_t>(order[i])].moves);
    }
    // Killed while writing the settings line: nothing to resume.
    {
        std::ofstream cut(path, std::ios::trunc);
        cut << "{\"engines\": [";
    }
    EXPECT_TRUE(state.load().empty());
    state.remove();
}

TEST(MatchState, RecordsWithNumbersOfTheWrongKindAreRejected) {
    // Found by fuzzing: a float out of int range for "pair" went through a cast (undefined).
    const MatchResult r = run_match(small_match(1), {});
    nlohmann::ordered_json j = game_json(r.games[0]);
    EXPECT_NO_THROW((void)game_from_json(j));
    for (const char* bad : {"1.666e84", "-3", "0", "1.5", "\"2\"", "18446744073709551615"}) {
        nlohmann::ordered_json broken = j;
        broken["pair"] = nlohmann::json::parse(bad);
        EXPECT_THROW((void)game_from_json(broken), common::InputError) << bad;
    }
    j["opening_plies"] = 1e300;
    EXPECT_THROW((void)game_from_json(j), common::InputError);
}

TEST(MatchState, GameRecordsRoundTripThroughJson) {
    const MatchResult r = run_match(small_match(1), {});
    for (const GameRecord& g : r.games) {
        const GameRecord back = game_from_json(nlohmann::json::parse(game_json(g).dump()));
        EXPECT_EQ(back.moves, g.moves);
        EXPECT_EQ(back.outcome, g.outcome);
        EXPECT_EQ(back.index, g.index);
        EXPECT_EQ(back.pair, g.pair);
        EXPECT_EQ(back.termination, g.termination);
        EXPECT_EQ(back.start, g.start);
    }
    EXPECT_THROW(game_from_json(nlohmann::json::parse(R"({"game": 1})")), common::InputError);
}

TEST(MatchState, EachSidesTimePerMoveIsRecordedAndRoundTrips) {
    const MatchResult r = run_match(small_match(1), {});
    for (const GameRecord& g : r.games) {
        const std::size_t played = g.moves.size() - static_cast<std::size_t>(g.opening_plies);
        ASSERT_EQ(g.black_move_ms.size() + g.white_move_ms.size(), played);  // one time per move after the opening
        EXPECT_LE(g.black_move_ms.size() - g.white_move_ms.size() + 1, 2u);  // the sides alternate
        double black = 0;
        for (const double t : g.black_move_ms) black += t;
        EXPECT_NEAR(black, g.black_ms, 1e-6);
        const GameRecord back = game_from_json(nlohmann::json::parse(game_json(g).dump()));
        ASSERT_EQ(back.white_move_ms.size(), g.white_move_ms.size());
        for (std::size_t i = 0; i < g.white_move_ms.size(); ++i) EXPECT_NEAR(back.white_move_ms[i], g.white_move_ms[i], 0.05);
    }
    nlohmann::ordered_json j = game_json(r.games[0]);
    for (const char* bad : {"[-1]", "[\"1\"]", "5", "[1e400]"}) {
        nlohmann::ordered_json broken = j;
        broken["black_move_ms"] = nlohmann::json::parse(bad, nullptr, false);
        EXPECT_THROW((void)game_from_json(broken), common::InputError) << bad;
    }
    nlohmann::ordered_json too_many = j;
    too_many["white_move_ms"] = std::vector<double>(r.games[0].moves.size(), 1.0);  // more than a side's moves
    EXPECT_THROW((void)game_from_json(too_many), common::InputError);
    j.erase("black_move_ms");  // records from before the field: no times
    EXPECT_TRUE(game_from_json(j).black_move_ms.empty());
}

TEST(MatchReport, TimePerMoveIsTabledForEnginesOnAClockOnly) {
    MatchSettings s = small_match(1);
    MatchResult r = run_match(s, {});
    EXPECT_EQ(summary(s, r).find("Time per move"), std::string::npos);  // fixed nodes: no clock, no table
    GameRecord& g = r.games[0];
    g.black_limit = "tc=10+0";
    g.black_move_ms.assign(12, 100.0);
    g.black_move_ms[10] = 400;  // the 11th move: second band
    const std::string text = summary(s, r);
    const auto table = text.find("Time per move");
    ASSERT_NE(table, std::string::npos) << text;
    const std::string rows = text.substr(table);
    EXPECT_NE(rows.find(g.black), std::string::npos);
    EXPECT_NE(rows.find("100/100 10"), std::string::npos) << rows;  // moves 1-10: mean/slowest, count
    EXPECT_NE(rows.find("250/400 2"), std::string::npos) << rows;   // moves 11-12
    EXPECT_EQ(rows.find("\n  " + g.white + " "), std::string::npos) << rows;  // White had no clock
}

TEST(MatchState, AResumedRunEqualsAnUninterruptedOne) {
    const MatchResult whole = run_match(small_match(2), {});
    // Pretend the run stopped after game 3: pair 0 complete, pair 1 half played.
    const std::vector<GameRecord> saved(whole.games.begin(), whole.games.begin() + 3);
    const auto path = (std::filesystem::temp_directory_path() / "loa_match_state_test.state").string();
    StateFile state(path, small_match(2));
    state.remove();
    for (const GameRecord& g : saved) state.append(g);
    const std::vector<GameRecord> loaded = state.load();
    ASSERT_EQ(loaded.size(), 2u);  // the half-played pair is dropped: it is played again
    int played = 0;
    MatchCallbacks count;
    count.on_game = [&](const GameRecord&, const PairingStats&) { ++played; };
    const MatchResult resumed = run_match(small_match(2), count, loaded);
    EXPECT_EQ(played, 4);  // pair 1 again (it was half done) and pair 2
    ASSERT_EQ(resumed.games.size(), whole.games.size());
    for (std::size_t i = 0; i < whole.games.size(); ++i) EXPECT_EQ(resumed.games[i].moves, whole.games[i].moves);
    EXPECT_EQ(resumed.pairings[0].pairs.count, whole.pairings[0].pairs.count);
    // A state file of another match is refused.
    MatchSettings other = small_match(2);
    other.games = 8;
    EXPECT_THROW(StateFile(path, other).load(), common::InputError);
    state.remove();
}

// The files an engine reads are recorded with their digest: the same name with other content is
// another match; a record written before digests were kept (the name alone) is the same one.
TEST(MatchState, AnEvaluationFileChangedInPlaceIsAnotherMatch) {
    const auto path = (std::filesystem::temp_directory_path() / ("loa_match_weights_" + std::to_string(::getpid()) + ".json")).string();
    auto with_weights = [&](const std::string& content) {
        std::ofstream(path) << content;
        MatchSettings s = small_match(1);
        s.engines[1] = parse_engine_spec("name=b,preset=pvs+tt+hh,nodes=600,qsearch_plies=2,tt=1,eval=" + path, 1);
        return nlohmann::json(settings_json(s));
    };
    const nlohmann::json first = with_weights(R"({"mobility": 20})");
    EXPECT_TRUE(same_match(first, with_weights(R"({"mobility": 20})")));
    const nlohmann::json changed = with_weights(R"({"mobility": 30})");
    EXPECT_FALSE(same_match(first, changed));
    const std::string plays = first["resolved"][1]["plays"];
    EXPECT_NE(plays.find("eval=" + path + "#"), std::string::npos) << plays;
    nlohmann::json old_record = first;  // as written before b4ac30c: the name alone
    std::string old_plays = plays;
    const auto hash = old_plays.find('#');
    old_plays.erase(hash, 17);
    old_record["resolved"][1]["plays"] = old_plays;
    EXPECT_TRUE(same_match(old_record, changed));
    std::filesystem::remove(path);
}

TEST(MatchState, AResumeWhoseEnginesNowResolveDifferentlyIsRefused) {
    // The same engine texts, but one engine's search now resolves to another setting, as when a
    // binary's default changed between the interrupted run and its resume (timeman, 2026-11-24).
    const MatchResult whole = run_match(small_match(1), {});
    const auto path = (std::filesystem::temp_directory_path() / "loa_match_state_resolved.state").string();
    StateFile state(path, small_match(1));
    state.remove();
    state.append(whole.games[0]);
    state.append(whole.games[1]);
    MatchSettings changed = small_match(1);
    changed.engines[1].config.timeman =
        changed.engines[1].config.timeman == search::TimePolicy::Tournament ? search::TimePolicy::Classic : search::TimePolicy::Tournament;
    try {
        (void)StateFile(path, changed).load();
        ADD_FAILURE() << "a resume with another time manager was accepted";
    } catch (const common::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("engine 'b' now plays with timeman="), std::string::npos) << e.what();
    }
    // Results of the two are not one match either (what merge checks).
    EXPECT_FALSE(same_match(settings_json(small_match(1)), settings_json(changed)));
    EXPECT_TRUE(same_match(settings_json(small_match(1)), settings_json(small_match(1))));
    EXPECT_EQ(StateFile(path, small_match(1)).load().size(), 2u);
    // The way out the message gives: the setting the saved games had, given explicitly, is the
    // same engine although its text differs. Another limit is another engine.
    MatchSettings explicit_default = small_match(1);
    const std::string text = explicit_default.engines[1].text;
    const bool tournament = explicit_default.engines[1].config.timeman == search::TimePolicy::Tournament;
    explicit_default.engines[1] = parse_engine_spec(text + (tournament ? ",timeman=tournament" : ",timeman=classic"), 1);
    EXPECT_EQ(StateFile(path, explicit_default).load().size(), 2u);
    MatchSettings more_nodes = small_match(1);
    more_nodes.engines[1] = parse_engine_spec("name=b,preset=pvs+tt+hh,nodes=800,qsearch_plies=2,tt=1", 1);
    EXPECT_THROW(StateFile(path, more_nodes).load(), common::InputError);
    MatchSettings renamed = small_match(1);
    renamed.engines[1] = parse_engine_spec("name=c,preset=pvs+tt+hh,nodes=600,qsearch_plies=2,tt=1", 1);
    EXPECT_THROW(StateFile(path, renamed).load(), common::InputError);
    EXPECT_EQ(StateFile(path, small_match(1)).load().size(), 2u);  // rewritten with the first texts

    // A state written before the record (no "resolved") or by a version that lacked a key
    // still resumes: only a key both know and set differently is a difference.
    auto rewrite_settings = [&](const std::function<void(nlohmann::json&)>& edit) {
        std::ifstream in(path);
        std::string first, rest, line;
        std::getline(in, first);
        while (std::getline(in, line)) rest += line + "\n";
        nlohmann::json settings = nlohmann::json::parse(first);
        edit(settings);
        std::ofstream out(path, std::ios::trunc);
        out << settings.dump() << "\n" << rest;
    };
    // Without the record, engines that name no evaluation played the hand-written one (every
    // such state predates the network's becoming the default): refused, saying so, even where
    // the texts agree.
    nlohmann::json original;
    rewrite_settings([&](nlohmann::json& j) {
        original = j;
        j.erase("resolved");
    });
    for (const MatchSettings& now : {changed, small_match(1)}) {
        try {
            (void)StateFile(path, now).load();
            ADD_FAILURE() << "a state of engines without an evaluation resumed with the network";
        } catch (const common::InputError& e) {
            EXPECT_NE(std::string(e.what()).find("before the network became the default evaluation"), std::string::npos) << e.what();
        }
    }
    // Engines that name their evaluation: the texts decide, as before the record.
    MatchSettings named = small_match(1);
    for (std::size_t i = 0; i < named.engines.size(); ++i)
        named.engines[i] = parse_engine_spec(named.engines[i].text + ",eval=hce", static_cast<int>(i));
    rewrite_settings([&](nlohmann::json& j) {
        j.erase("resolved");
        j["engines"] = {named.engines[0].text, named.engines[1].text};
    });
    MatchSettings named_changed = named;
    named_changed.engines[1].config.timeman = changed.engines[1].config.timeman;
    EXPECT_EQ(StateFile(path, named_changed).load().size(), 2u);  // nothing to compare with: the texts decide
    rewrite_settings([&](nlohmann::json& j) {
        j.erase("resolved");
        j["engines"] = {named.engines[0].text, named.engines[1].text};
    });
    EXPECT_THROW(StateFile(path, explicit_default).load(), common::InputError);
    rewrite_settings([&](nlohmann::json& j) { j = original; });
    EXPECT_EQ(StateFile(path, small_match(1)).load().size(), 2u);  // the texts agree: rewritten with the record
    rewrite_settings([](nlohmann::json& j) {
        std::string plays = j["resolved"][1]["plays"].get<std::string>();
        const auto at = plays.find(",timeman=");
        ASSERT_NE(at, std::string::npos);
        const auto end = plays.find(',', at + 1);
        j["resolved"][1]["plays"] = plays.erase(at, end - at);  // as if written before the key existed
    });
    EXPECT_EQ(StateFile(path, changed).load().size(), 2u);  // a switch the saved record lacks is no difference
    state.remove();
}

// Read back (merge, the web board), each engine keeps the evaluation its games were played with:
// the record's, or, in a file written before the record, the hand-written one where the text
// names none; not this build's default.
TEST(MatchState, SettingsReadBackKeepTheEvaluationTheGamesHad) {
    const nlohmann::json now = settings_json(small_match(1));
    for (const EngineSpec& e : settings_from_json(now).engines) EXPECT_EQ(e.eval, "nnue");
    nlohmann::json before = now;
    for (auto& r : before["resolved"]) {
        std::string plays = r["plays"].get<std::string>();
        const auto at = plays.find(",eval=");
        plays.replace(at, plays.find(',', at + 1) - at, ",eval=full");
        r["plays"] = plays;
    }
    for (const EngineSpec& e : settings_from_json(before).engines) EXPECT_EQ(e.eval, "full");
    before.erase("resolved");
    for (const EngineSpec& e : settings_from_json(before).engines) EXPECT_EQ(e.eval, "full");
    before["engines"][0] = "name=a,preset=pvs+tt+rhh,nodes=600,eval=concentration";
    EXPECT_EQ(settings_from_json(before).engines[0].eval, "concentration");
}

TEST(MatchState, RoundsOfMaxPairsAddUpToTheWholeRunAndShareItsStateFile) {
    const MatchResult whole = run_match(small_match(1), {});  // 3 pairs
    MatchSettings first = small_match(1);
    first.max_pairs = 1;
    EXPECT_EQ(scheduled_games(first), 2);
    const MatchResult one = run_match(first, {});
    ASSERT_EQ(one.games.size(), 2u);
    // max_pairs is not part of the match's identity: the next round resumes from its games.
    const auto path = (std::filesystem::temp_directory_path() / "loa_match_rounds.state").string();
    StateFile state(path, first);
    state.remove();
    for (const GameRecord& g : one.games) state.append(g);
    MatchSettings second = small_match(1);
    second.max_pairs = 5;  // beyond the shard's 3 pairs: the rest
    const std::vector<GameRecord> loaded = StateFile(path, second).load();
    ASSERT_EQ(loaded.size(), 2u);
    int played = 0;
    MatchCallbacks count;
    count.on_game = [&](const GameRecord&, const PairingStats&) { ++played; };
    const MatchResult rest = run_match(second, count, loaded);
    EXPECT_EQ(played, 4);
    ASSERT_EQ(rest.games.size(), whole.games.size());
    for (std::size_t i = 0; i < whole.games.size(); ++i) EXPECT_EQ(rest.games[i].moves, whole.games[i].moves);
    EXPECT_EQ(rest.pairings[0].pairs.count, whole.pairings[0].pairs.count);
    state.remove();
}

TEST(MatchState, ASecondRunOnTheSameStateFileIsRefusedUntilTheFirstEnds) {
    const std::string path = testing::TempDir() + "claimed.state";
    {
        const common::FileLock first(path);
        try {
            const common::FileLock second(path);
            ADD_FAILURE() << "a second claim on a held state file was granted";
        } catch (const common::InputError& e) {
            EXPECT_NE(std::string(e.what()).find("another loa-match run is using this state file"), std::string::npos)
                << e.what();
        }
        EXPECT_TRUE(std::filesystem::exists(path + ".lock"));
    }
    EXPECT_FALSE(std::filesystem::exists(path + ".lock"));  // a finished run leaves no lock file
    const common::FileLock again(path);                              // and the path is free again
}

TEST(MatchState, MergedShardsGiveTheResultOfOneRun) {
    MatchSettings s = small_match(1);
    s.sprt = parse_sprt("elo0=0,elo1=20");
    const MatchResult whole = run_match(s, {});
    MatchResult merged;
    for (int shard = 0; shard < 3; ++shard) {
        MatchSettings part = s;
        part.shard_index = shard;
        part.shard_count = 3;
        const MatchResult r = run_match(part, {});
        EXPECT_TRUE(same_match(settings_json(part), settings_json(s)));
        for (const GameRecord& g : r.games) merged.games.push_back(game_from_json(nlohmann::json::parse(game_json(g).dump())));
    }
    tally(s, merged);
    EXPECT_EQ(merged.pairings[0].pairs.count, whole.pairings[0].pairs.count);
    EXPECT_EQ(merged.pairings[0].games.wins, whole.pairings[0].games.wins);
    EXPECT_DOUBLE_EQ(merged.pairings[0].llr, whole.pairings[0].llr);
    MatchSettings other = s;
    other.engines[0] = parse_engine_spec(other.engines[0].text + ",killers=1", 0);
    EXPECT_FALSE(same_match(settings_json(other), settings_json(s)));
}

}  // namespace
}  // namespace matches

#include "matches/plot.hpp"
#include "matches/treesize.hpp"

namespace matches {
namespace {

TEST(TreeSize, BootstrapIntervalOfTheRatio) {
    const std::vector<double> a = {10, 20, 30, 40}, b = {20, 40, 60, 80};
    const auto [low, high] = bootstrap_ratio(a, b, 500, 1);
    EXPECT_DOUBLE_EQ(low, 0.5);  // every resample has the same ratio
    EXPECT_DOUBLE_EQ(high, 0.5);
    const std::vector<double> c = {10, 90, 30, 70}, d = {20, 20, 60, 60};
    const auto [lo, hi] = bootstrap_ratio(c, d, 2000, 2);
    EXPECT_LT(lo, 200.0 / 160.0);
    EXPECT_GT(hi, 200.0 / 160.0);
    EXPECT_LT(lo, hi);
}

TEST(TreeSize, StudiesHaveTheirVariants) {
    EXPECT_EQ(study_variants("history").size(), 56u);  // 4 bases x (none + 4 HH + BF + 8 RHH)
    EXPECT_EQ(study_variants("history-tt").size(), 28u);
    const auto combos = study_variants("combinations");
    EXPECT_EQ(combos.size(), 64u);
    EXPECT_EQ(combos.front().name, "ab");
    EXPECT_TRUE(combos.front().ordering_only());
    EXPECT_FALSE(combos.back().ordering_only());  // it has the TT
    EXPECT_THROW(study_variants("nonsense"), common::InputError);
}

// A variant is ordering-only (its scores must equal minimax's) only without every switch that
// prunes or reduces: the frontier trio of `full` included.
TEST(TreeSize, SelectiveSwitchesAreNotOrderingOnly) {
    EXPECT_TRUE(parse_tree_variant("name=x,preset=pvs+killers+rhh+caps,aspiration=off").ordering_only());
    EXPECT_FALSE(parse_tree_variant("name=x,preset=full,tt=off,null=off,lmr=off").ordering_only());
    EXPECT_TRUE(parse_tree_variant("name=x,preset=full,tt=off,null=off,lmr=off,futility=off,ext_futility=off,razoring=off")
                    .ordering_only());
    for (const char* selective : {"futility=on", "ext_futility=on", "razoring=on", "multicut=on"})
        EXPECT_FALSE(parse_tree_variant(std::string("name=x,preset=pvs+killers,") + selective).ordering_only()) << selective;
}

TEST(TreeSize, OrderingOnlyVariantsAgreeOnEveryScoreAndTheRunIsReproducible) {
    TreeSizeSettings s;
    s.positions = load_positions(LOA_DATA_DIR "/treesize-positions.txt");
    ASSERT_GE(s.positions.size(), 200u);
    std::set<loa::Key> distinct;
    for (const auto& p : s.positions) distinct.insert(p.key());
    EXPECT_EQ(distinct.size(), s.positions.size());
    s.positions.resize(6);
    for (const char* v : {"name=ab,preset=ab", "pvs+killers", "pvs+hh", "pvs+rhh,rhh_update=cutnodes", "pvs+asp+ref+caps"})
        s.variants.push_back(parse_tree_variant(v));
    s.max_depth = 3;
    s.concurrency = 2;
    s.bootstrap_samples = 100;
    const TreeSizeResult r = run_treesize(s, false);
    for (std::size_t v = 1; v < s.variants.size(); ++v)
        for (std::size_t p = 0; p < s.positions.size(); ++p) EXPECT_EQ(r.runs[v][p].scores, r.runs[0][p].scores) << s.variants[v].name;
    const std::string table = treesize_table(s, r);
    EXPECT_EQ(table.find("ERROR"), std::string::npos) << table;
    EXPECT_NE(table.find("identical (required)"), std::string::npos);
    s.concurrency = 1;
    const TreeSizeResult again = run_treesize(s, false);
    for (std::size_t v = 0; v < s.variants.size(); ++v)
        for (std::size_t p = 0; p < s.positions.size(); ++p) EXPECT_EQ(again.runs[v][p].nodes, r.runs[v][p].nodes);
    const std::string csv = treesize_csv(s, r);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 5 * 6 * 3);

    // Quiescence nodes are part of the count at every depth, and the full-width ratio leaves
    // them out of both sides.
    const auto json = nlohmann::json::parse(treesize_json(s, r));
    for (int depth = 1; depth <= 3; ++depth) {
        const auto d = static_cast<std::size_t>(depth - 1);
        double base_full_width = 0;
        for (std::size_t p = 0; p < s.positions.size(); ++p) {
            for (std::size_t v = 0; v < s.variants.size(); ++v) EXPECT_LT(r.runs[v][p].qnodes[d], r.runs[v][p].nodes[d]);
            base_full_width += static_cast<double>(r.runs[0][p].nodes[d] - r.runs[0][p].qnodes[d]);
        }
        const auto& rows = json["depths"][d]["variants"];
        EXPECT_DOUBLE_EQ(rows[0]["full_width_ratio"].get<double>(), 1.0);
        for (std::size_t v = 0; v < s.variants.size(); ++v) {
            double full_width = 0;
            for (std::size_t p = 0; p < s.positions.size(); ++p)
                full_width += static_cast<double>(r.runs[v][p].nodes[d] - r.runs[v][p].qnodes[d]);
            EXPECT_NEAR(rows[v]["full_width_ratio"].get<double>(), full_width / base_full_width, 1e-12);
            EXPECT_GT(rows[v]["qnodes"].get<double>(), 0);
        }
    }
}

TEST(Plot, GnuplotStringsDoubleTheirQuotes) {
    EXPECT_EQ(gnuplot_string("plain"), "'plain'");
    EXPECT_EQ(gnuplot_string("it's a/b.png"), "'it''s a/b.png'");
    EXPECT_EQ(gnuplot_string(""), "''");
}

TEST(Plot, AGauntletRowReadsFromTheVariantsSideWithTheSummarysInterval) {
    // A weak variant against a strong base: its row says "weak vs strong" with a negative Elo,
    // and the interval is the pentanomial one the summary prints, mirrored.
    MatchSettings s = small_match(2);
    s.format = Format::Gauntlet;
    s.engines = {parse_engine_spec("name=strong,preset=full,nodes=300,tt=1", 0), parse_engine_spec("name=weak,preset=ab,depth=1,eval=material", 1),
                 parse_engine_spec("name=other,preset=full,nodes=300,tt=1", 2)};
    s.games = 6;
    const MatchResult r = run_match(s, {});
    const auto png = std::filesystem::temp_directory_path() / "loa-gauntlet-plot-test.png";
    write_plot(s, r, png.string());
    std::ifstream data(png.string() + ".dat");
    const std::string text((std::istreambuf_iterator<char>(data)), std::istreambuf_iterator<char>());
    const EloEstimate e = estimate(r.pairings[0].pairs, r.pairings[0].games);
    ASSERT_GT(e.elo, 0);
    EXPECT_NE(text.find(fmt::format("{:.2f} {:.2f} {:.2f} 6 \"weak vs strong (6 games)\"", -std::min(e.elo, 800.0),
                                    -std::min(e.elo_high, 800.0), -std::min(e.elo_low, 800.0))),
              std::string::npos)
        << text;
    std::ifstream script(png.string() + ".gp");
    const std::string gp((std::istreambuf_iterator<char>(script)), std::istreambuf_iterator<char>());
    EXPECT_NE(gp.find("against the base"), std::string::npos) << gp;
    for (const auto& f : {png.string(), png.string() + ".gp", png.string() + ".dat"}) std::filesystem::remove(f);
}

TEST(TreeSize, PlotDrawsNodesAndRatiosEvenWithQuotesInNames) {
    TreeSizeSettings s;
    s.positions = load_positions(LOA_DATA_DIR "/treesize-positions.txt");
    s.positions.resize(2);
    s.variants = {parse_tree_variant("name=it's plain,preset=pvs"), parse_tree_variant("name=hh,preset=pvs+hh")};
    s.max_depth = 2;
    s.bootstrap_samples = 10;
    const TreeSizeResult r = run_treesize(s, false);
    const auto png = std::filesystem::temp_directory_path() / "loa-treesize-plot-test.png";
    std::filesystem::remove(png);
    treesize_plot(treesize_totals(s, r), png.string());
    ASSERT_TRUE(std::filesystem::exists(png));
    EXPECT_GT(std::filesystem::file_size(png), 1000u);
    std::ifstream script(png.string() + ".gp");
    const std::string text((std::istreambuf_iterator<char>(script)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("title 'it''s plain'"), std::string::npos) << text;
    EXPECT_NE(text.find("($3/$2)"), std::string::npos) << text;  // the ratio panel

    // Redrawn from the JSON of the run: the same data file.
    const auto json_path = std::filesystem::temp_directory_path() / "loa-treesize-plot-test.json";
    std::ofstream(json_path) << treesize_json(s, r);
    std::ifstream first_data(png.string() + ".dat");
    const std::string first((std::istreambuf_iterator<char>(first_data)), std::istreambuf_iterator<char>());
    first_data.close();
    const TreeSizeTotals from_json = treesize_totals_from_json(json_path.string());
    EXPECT_EQ(from_json.names, treesize_totals(s, r).names);
    EXPECT_EQ(from_json.nodes, treesize_totals(s, r).nodes);
    treesize_plot(from_json, png.string());
    std::ifstream second_data(png.string() + ".dat");
    const std::string second((std::istreambuf_iterator<char>(second_data)), std::istreambuf_iterator<char>());
    EXPECT_EQ(second, first);
    std::ofstream(json_path) << R"({"positions": 2, "baseline": "x", "variants": [{"name": "a"}], "depths": []})";
    EXPECT_THROW(treesize_totals_from_json(json_path.string()), common::InputError);
    std::ofstream(json_path) << "not json";
    EXPECT_THROW(treesize_totals_from_json(json_path.string()), common::InputError);
    for (const auto& f : {png.string(), png.string() + ".gp", png.string() + ".dat", json_path.string()}) std::filesystem::remove(f);
}

}  // namespace
}  // namespace matches

#include "matches/slurm.hpp"

namespace matches {
namespace {

TEST(Slurm, ATaskGetsTheCommandLineWithoutTheDriversOptions) {
    const std::map<std::string, int> drop = {{"--slurm", 1}, {"--json", 1}, {"-q", 0}, {"-j", 1}, {"--fresh", 0}};
    const std::vector<std::string> args = {"loa-match", "--engine", "name=a,depth=2", "--slurm", "4",   "--json=x.json",
                                           "-q",        "--games",  "8",              "-j",      "2",   "--fresh",
                                           "--engine",  "name=b",   "--json",         "y.json",  "-j4", "-g8"};
    EXPECT_EQ(task_arguments(args, drop),
              (std::vector<std::string>{"--engine", "name=a,depth=2", "--games", "8", "--engine", "name=b", "-g8"}));
    // A subcommand stays; a value that looks like an option is a value.
    EXPECT_EQ(task_arguments({"loa-match", "treesize", "--slurm", "--json", "--variant", "pvs"}, drop),
              (std::vector<std::string>{"treesize", "--variant", "pvs"}));
}

TEST(TreeSize, RawRunsOfShardsMergeIntoTheWholeRunAndOtherExperimentsAreRefused) {
    TreeSizeSettings s;
    s.variants = {parse_tree_variant("name=a,preset=pvs+tt"), parse_tree_variant("name=b,preset=pvs+tt+rhh")};
    s.positions = load_positions(std::string(LOA_DATA_DIR) + "/treesize-positions.txt");
    s.positions.resize(5);
    s.max_depth = 3;
    const TreeSizeResult whole = run_treesize(s, false);
    TreeSizeResult merged;
    std::vector<bool> filled;
    for (int shard = 0; shard < 2; ++shard) {
        TreeSizeSettings part = s;
        part.positions.clear();
        std::vector<std::size_t> indices;
        for (std::size_t p = static_cast<std::size_t>(shard); p < s.positions.size(); p += 2) {
            indices.push_back(p);
            part.positions.push_back(s.positions[p]);
        }
        const std::string path = testing::TempDir() + fmt::format("runs-{}.json", shard);
        std::ofstream(path) << treesize_runs_json(s, run_treesize(part, false), indices);
        merge_treesize_runs(s, path, merged, filled);
    }
    EXPECT_EQ(std::count(filled.begin(), filled.end(), true), 10);
    for (std::size_t v = 0; v < 2; ++v)
        for (std::size_t p = 0; p < 5; ++p) {
            EXPECT_EQ(merged.runs[v][p].nodes, whole.runs[v][p].nodes) << v << ' ' << p;
            EXPECT_EQ(merged.runs[v][p].scores, whole.runs[v][p].scores) << v << ' ' << p;
            EXPECT_EQ(merged.runs[v][p].qnodes, whole.runs[v][p].qnodes) << v << ' ' << p;
            EXPECT_EQ(merged.runs[v][p].best_moves, whole.runs[v][p].best_moves) << v << ' ' << p;
            EXPECT_EQ(merged.runs[v][p].tt_hits, whole.runs[v][p].tt_hits) << v << ' ' << p;
        }
    TreeSizeSettings other = s;
    other.max_depth = 4;
    TreeSizeResult ignored;
    EXPECT_THROW(merge_treesize_runs(other, testing::TempDir() + "runs-0.json", ignored, filled), common::InputError);
    std::ofstream(testing::TempDir() + "runs-bad.json") << "{\"runs\": 3}";
    EXPECT_THROW(merge_treesize_runs(s, testing::TempDir() + "runs-bad.json", ignored, filled), common::InputError);
}

}  // namespace
}  // namespace matches

namespace matches {
namespace {

// option.NAME of an engine in process sets what `loa uci` sets for the same option, or is
// refused with the reason: never dropped (issue 82). Every option the engine offers is tried,
// so that an option added to the engine and not to the runner fails here.
TEST(EngineOptions, EveryUciOptionOfTheEngineIsAppliedOrRefusedWithAReason) {
    const loa::engine::Session session;
    int applied = 0;
    for (const loa::engine::OptionInfo& o : session.options()) {
        const std::string value = o.value.empty() ? "<empty>" : o.value;
        if (value.find(',') != std::string::npos) continue;  // cannot be written in an engine string
        try {
            (void)parse_engine_spec(fmt::format("name=a,depth=1,option.{}={}", o.name, value), 0);
            ++applied;
        } catch (const common::InputError& e) {
            EXPECT_NE(std::string(e.what()).find("not an option of an engine in process"), std::string::npos) << o.name << ": " << e.what();
        }
    }
    EXPECT_GT(applied, 20);
}

TEST(EngineOptions, HashThreadsMultiPvEvalAndSwitchesApply) {
    const EngineSpec e = parse_engine_spec("name=a,depth=1,option.Hash=8,option.Threads=2,option.MultiPV=3,option.Eval=hce,"
                                           "option.lmr=false,option.MoveOverhead=20", 0);
    EXPECT_TRUE(e.config.tt);
    EXPECT_EQ(e.config.tt_mb, 8);
    EXPECT_EQ(e.config.threads, 2);
    EXPECT_EQ(e.multipv, 3);
    EXPECT_EQ(e.eval, "full");  // hce's one name
    EXPECT_FALSE(e.config.lmr);
    EXPECT_EQ(e.move_overhead_ms, 20);
    // The defaults, without options.
    const EngineSpec plain = parse_engine_spec("name=a,depth=1", 0);
    EXPECT_EQ(plain.config.tt_mb, 16);
    EXPECT_TRUE(plain.config.lmr);
}

TEST(EngineOptions, UnknownOrBadOptionsAreRefusedNamingThem) {
    auto message = [](const std::string& text) {
        try {
            (void)parse_engine_spec(text, 0);
        } catch (const common::InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(message("name=a,depth=1,option.Hahs=8").find("did you mean 'option.Hash'?"), std::string::npos);
    EXPECT_NE(message("name=a,depth=1,option.Hash=0").find("option.Hash: Hash must be 1..65536 MB, not '0'"), std::string::npos);
    EXPECT_NE(message("name=a,depth=1,option.lmr=maybe").find("option.lmr"), std::string::npos);
    EXPECT_NE(message("name=a,depth=1,option.Rules=codingame").find("--rules"), std::string::npos);
    // An external engine's options are its own: sent, not checked here.
    EXPECT_EQ(message("name=a,depth=1,cmd=./x,option.Anything=1"), "accepted");
}

// Both clocks in UCI's order, as cutechess and fastchess send them; an opponent off the clock
// has none to send.
TEST(UciClocks, BothClocksInEveryGo) {
    ClockState c;
    c.remaining_ms = 957;
    c.increment_ms = 10;
    c.opponent_on_clock = true;
    c.opponent_remaining_ms = 1000;
    c.opponent_increment_ms = 10;
    EXPECT_EQ(uci_clocks(/*black_to_move=*/true, c), " wtime 1000 btime 957 winc 10 binc 10");
    EXPECT_EQ(uci_clocks(/*black_to_move=*/false, c), " wtime 957 btime 1000 winc 10 binc 10");
    c.remaining_ms = -20;  // overran within the margin: no negative time on the wire
    EXPECT_EQ(uci_clocks(true, c), " wtime 1000 btime 0 winc 10 binc 10");
    c.opponent_on_clock = false;
    EXPECT_EQ(uci_clocks(false, c), " wtime 0 winc 10");
}

// cutechess's M:SS base and every spelling of a time control.
TEST(TimeControlText, MinutesAndSeconds) {
    EXPECT_EQ(parse_time_control("1:30+1", "tc").base_ms, 90000);
    EXPECT_EQ(parse_time_control("1:30+1", "tc").increment_ms, 1000);
    EXPECT_EQ(parse_time_control("0:05", "tc").base_ms, 5000);
    EXPECT_THROW(parse_time_control("1:75+1", "tc"), common::InputError);
    EXPECT_THROW(parse_time_control("x:10", "tc"), common::InputError);
}

}  // namespace
}  // namespace matches
