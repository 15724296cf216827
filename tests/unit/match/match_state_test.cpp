// MatchState: the state file: whole pairs kept, resumes of the same match only, rounds, shards.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/file_lock.hpp"
#include "common/search/config.hpp"
#include "matches/engine_spec.hpp"
#include "matches/match.hpp"
#include "matches/sprt.hpp"
#include "matches/state.hpp"
#include "support/small_match.hpp"

namespace matches {
namespace {

using fixtures::small_match;

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
    // A game lost on time ends with the loser's answer timed and not played: its record reads
    // back, whichever side lost (the game cut a ply short, so that both sides are tried).
    // (Every move timed, as without an opening; the side to move at the end timed once more.)
    for (const std::size_t cut : {0, 1}) {
        GameRecord on_time = r.games[0];
        on_time.moves.resize(on_time.moves.size() - cut);
        loa::Position end = on_time.start;
        std::size_t moved[2] = {0, 0};
        for (const loa::Move m : on_time.moves) {
            ++moved[loa::index(end.side_to_move())];
            end.make(m);
        }
        const loa::Colour loser = end.side_to_move();
        ++moved[loa::index(loser)];
        on_time.black_move_ms.assign(moved[loa::index(loa::Colour::Black)], 10.0);
        on_time.white_move_ms.assign(moved[loa::index(loa::Colour::White)], 10.0);
        on_time.outcome = loa::win_for(~loser);
        on_time.termination = fmt::format("{} loses on time", loa::colour_name(loser));
        const GameRecord back = game_from_json(nlohmann::json::parse(game_json(on_time).dump()));
        EXPECT_EQ(back.black_move_ms.size(), on_time.black_move_ms.size()) << cut;
        EXPECT_EQ(back.white_move_ms.size(), on_time.white_move_ms.size()) << cut;
    }
    j.erase("black_move_ms");  // records from before the field: no times
    EXPECT_TRUE(game_from_json(j).black_move_ms.empty());
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
