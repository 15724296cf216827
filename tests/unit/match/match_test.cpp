// Match: whole matches in process: callbacks, live file, records, SPRT stops, shards, verdicts.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "loa/game.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "matches/engine_spec.hpp"
#include "matches/live_file.hpp"
#include "matches/match.hpp"
#include "matches/openings.hpp"
#include "matches/records.hpp"
#include "matches/report.hpp"
#include "matches/sprt.hpp"
#include "support/small_match.hpp"

namespace matches {
namespace {

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

}  // namespace
}  // namespace matches
