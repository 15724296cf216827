// Resuming a match over many sessions: the state file keeps the order the run counted its
// games (so a replay takes every SPRT decision where the run took it), a decided pairing still
// finishes the pair it had half played, a resume from other openings or another clock margin is
// refused, and `merge` of one run's file keeps the decisions that run recorded.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "matches/match.hpp"
#include "matches/merge.hpp"
#include "matches/openings.hpp"
#include "matches/player.hpp"
#include "matches/report.hpp"
#include "matches/state.hpp"
#include "support/small_match.hpp"

namespace matches {
namespace {

using fixtures::small_match;

// A resume of the state at `path` with `s` is refused because its openings are others.
void expect_refused_for_other_openings(const std::string& path, const MatchSettings& s) {
    try {
        (void)StateFile(path, s).load();
        ADD_FAILURE() << "a resume from other openings was accepted";
    } catch (const common::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("the openings are not the ones its games were played from"), std::string::npos)
            << e.what();
    }
}

// Strong against weak with an SPRT that decides within a few pairs.
MatchSettings deciding_match() {
    MatchSettings s = small_match(1);
    s.engines = {parse_engine_spec("name=strong,preset=full,nodes=300,tt=1", 0),
                 parse_engine_spec("name=weak,preset=ab,depth=1,eval=material", 1)};
    s.games = 28;  // decided after 16 to 20 games
    s.sprt = parse_sprt("elo0=0,elo1=200,model=logistic");
    s.sprt_text = "elo0=0,elo1=200,model=logistic";
    return s;
}

// The games the match would play for its first `pairs` pairs of every pairing, without an
// SPRT to stop it (fixed depth: a game depends only on its pair).
std::vector<GameRecord> unstopped_games(MatchSettings s, int pairs) {
    s.sprt.reset();
    s.sprt_text.clear();
    s.games = 2 * pairs;
    return run_match(s, {}).games;
}

TEST(MatchResume, TheStateFileKeepsTheOrderTheRunCountedItsGames) {
    // With -j 2 games are counted out of schedule order; an SPRT decision is the first bound
    // crossing in that order, so a resume must replay it, not the schedule's.
    const MatchSettings s = small_match(1);
    const MatchResult r = run_match(s, {});
    ASSERT_EQ(r.games.size(), 6u);
    const std::string path = testing::TempDir() + "resume_counting_order.state";
    std::remove(path.c_str());
    StateFile state(path, s);
    const int counted[] = {3, 4, 2, 5, 1, 0};  // pair 1 before pair 2 before pair 0, interleaved
    for (const int i : counted) state.append(r.games[static_cast<std::size_t>(i)]);
    for (int pass = 0; pass < 2; ++pass) {  // and again from the file the first load rewrote
        const std::vector<GameRecord> loaded = state.load();
        ASSERT_EQ(loaded.size(), 6u);
        for (std::size_t k = 0; k < loaded.size(); ++k) EXPECT_EQ(loaded[k].index, counted[k]) << "pass " << pass;
    }
    state.remove();
}

TEST(MatchResume, ADecidedPairingStillFinishesThePairItHadHalfPlayed) {
    // The uninterrupted run finishes and counts the pairs in flight at a decision; interrupted
    // with one of them half played, the resumed run plays that pair again, and only that one.
    for (const bool gauntlet : {false, true}) {
        MatchSettings s = deciding_match();
        if (gauntlet) {
            s.format = Format::Gauntlet;
            s.engines.push_back(parse_engine_spec("name=equal,preset=full,nodes=300,eval=hand,tt=1", 2));
        }
        const int pairings = gauntlet ? 2 : 1;
        const MatchResult whole = run_match(s, {});
        const PairingStats& decided = whole.pairings[0];
        ASSERT_NE(decided.decision, SprtDecision::Continue) << "gauntlet " << gauntlet;
        const int decided_pairs = static_cast<int>(decided.games.games() / 2);
        ASSERT_LT(2 * decided_pairs, s.games) << "the decision must leave pairs unplayed";
        // The first game of the decided pairing's next pair, as the run would have played it.
        const int next_pair = decided_pairs * pairings;  // global pair of pairing 0's pair number decided_pairs
        // Through the state file, as loa-match resumes: the half-played pair's game is kept
        // (the resume must know the pair was in flight) but not counted as played.
        const std::string path = testing::TempDir() + "resume_half_pair.state";
        std::remove(path.c_str());
        StateFile state(path, s);
        for (const GameRecord& g : whole.games) state.append(g);
        for (const GameRecord& g : unstopped_games(s, decided_pairs + 1))
            if (g.index == 2 * next_pair) state.append(g);
        const std::vector<GameRecord> saved = state.load_all();
        ASSERT_EQ(saved.size(), whole.games.size() + 1);
        EXPECT_EQ(state.load().size(), whole.games.size());
        EXPECT_EQ(state.load_all().size(), saved.size());  // the rewrite kept it

        std::vector<GameRecord> fresh;
        MatchCallbacks watch;
        watch.on_game = [&](const GameRecord& g, const PairingStats&) { fresh.push_back(g); };
        const MatchResult resumed = run_match(s, watch, saved);
        state.remove();
        ASSERT_EQ(fresh.size(), 2u) << "gauntlet " << gauntlet;
        for (const GameRecord& g : fresh) EXPECT_EQ(g.pair, next_pair);
        EXPECT_EQ(resumed.pairings[0].games.games(), decided.games.games() + 2);
        EXPECT_EQ(resumed.pairings[0].decision, decided.decision);
        EXPECT_EQ(resumed.pairings[0].decision_games, decided.decision_games);
        EXPECT_DOUBLE_EQ(resumed.pairings[0].decision_llr, decided.decision_llr);
        if (gauntlet) {
            EXPECT_EQ(resumed.pairings[1].games.games(), whole.pairings[1].games.games());
        }
    }
}

TEST(MatchResume, OtherOpeningsOrAnotherClockMarginAreAnotherMatch) {
    MatchSettings s = small_match(1);
    s.openings_digest = openings_digest(s.openings);
    const MatchResult r = run_match(s, {});
    const std::string path = testing::TempDir() + "resume_openings.state";
    std::remove(path.c_str());
    {
        StateFile state(path, s);
        for (const GameRecord& g : r.games) state.append(g);
    }
    EXPECT_EQ(StateFile(path, s).load().size(), r.games.size());

    // The same openings source text (here: none), other openings: an openings file edited in
    // place, or a rebuilt binary that generates others.
    MatchSettings reordered = s;
    std::reverse(reordered.openings.begin(), reordered.openings.end());
    reordered.openings_digest = openings_digest(reordered.openings);
    EXPECT_NE(reordered.openings_digest, s.openings_digest);
    expect_refused_for_other_openings(path, reordered);
    EXPECT_FALSE(same_match(settings_json(reordered), settings_json(s)));

    MatchSettings margin = s;
    margin.adjudication.time_margin_ms += 100;
    EXPECT_THROW((void)StateFile(path, margin).load(), common::InputError);
    EXPECT_FALSE(same_match(settings_json(margin), settings_json(s)));

    // A state written before these were recorded still resumes.
    {
        nlohmann::ordered_json old_settings = settings_json(s);
        old_settings.erase("openings_digest");
        old_settings.erase("time_margin_ms");
        std::ofstream out(path, std::ios::trunc);
        out << old_settings.dump() << '\n';
        for (const GameRecord& g : r.games) out << game_json(g).dump() << '\n';
    }
    EXPECT_EQ(StateFile(path, s).load().size(), r.games.size());
    std::remove(path.c_str());
}

TEST(MatchResume, TheSameOpeningsFileInAnotherCloneIsTheSameMatch) {
    MatchSettings s = small_match(1);
    s.openings_source = "file /home/a/loa/data/openings/book.txt order=random seed=7";
    s.openings_digest = openings_digest(s.openings);
    const MatchResult r = run_match(s, {});
    const std::string path = testing::TempDir() + "resume_moved_openings.state";
    std::remove(path.c_str());
    auto write_state = [&](const nlohmann::ordered_json& settings) {
        std::ofstream out(path, std::ios::trunc);
        out << settings.dump() << '\n';
        for (const GameRecord& g : r.games) out << game_json(g).dump() << '\n';
    };

    // The same file's contents read from another path (a clone elsewhere, another node).
    MatchSettings moved = s;
    moved.openings_source = "file /scratch/b order=x/data/openings/book.txt order=random seed=7";
    write_state(settings_json(s));
    EXPECT_EQ(StateFile(path, moved).load().size(), r.games.size());
    EXPECT_TRUE(same_match(settings_json(moved), settings_json(s)));

    // Still another match: another order or seed, or other contents at the other path.
    MatchSettings reseeded = moved;
    reseeded.openings_source = "file /scratch/b/data/openings/book.txt order=random seed=8";
    write_state(settings_json(s));
    EXPECT_THROW((void)StateFile(path, reseeded).load(), common::InputError);
    EXPECT_FALSE(same_match(settings_json(reseeded), settings_json(s)));
    MatchSettings edited = moved;
    std::reverse(edited.openings.begin(), edited.openings.end());
    edited.openings_digest = openings_digest(edited.openings);
    ASSERT_NE(edited.openings_digest, s.openings_digest);
    write_state(settings_json(s));
    expect_refused_for_other_openings(path, edited);
    EXPECT_FALSE(same_match(settings_json(edited), settings_json(s)));

    // A state without the digest has only the path to go by.
    nlohmann::ordered_json old_settings = settings_json(s);
    old_settings.erase("openings_digest");
    write_state(old_settings);
    EXPECT_THROW((void)StateFile(path, moved).load(), common::InputError);
    write_state(old_settings);
    EXPECT_EQ(StateFile(path, s).load().size(), r.games.size());
    std::remove(path.c_str());
}

TEST(MatchResume, MergeOfOneRunKeepsTheDecisionsItRecorded) {
    MatchSettings s = deciding_match();
    const MatchResult whole = run_match(s, {});
    ASSERT_NE(whole.pairings[0].decision, SprtDecision::Continue);
    ASSERT_GE(whole.pairings[0].decision_games, 4);
    nlohmann::json file = nlohmann::json::parse(result_json(s, whole));
    const std::string path = testing::TempDir() + "merge_one_run.json";
    auto merged_from = [&](const nlohmann::json& j, int copies) {
        {
            std::ofstream out(path, std::ios::trunc);
            out << j.dump();
        }
        const MergedGames m = merge_result_files(std::vector<std::string>(static_cast<std::size_t>(copies), path));
        MatchResult r;
        r.games = m.games;
        r.scheduled_games = static_cast<int>(r.games.size());
        tally(settings_from_json(m.settings), r);
        keep_recorded_decisions(m.single_run, settings_from_json(m.settings), r);
        return r;
    };
    // With -j 2 the run may have decided two games later than a recount in schedule order
    // would: what it recorded is what it did.
    nlohmann::json later = file;
    const std::int64_t recorded_games = whole.pairings[0].decision_games - 2;
    later["pairings"][0]["sprt"]["decision_games"] = recorded_games;
    later["scheduled_games"] = 80;
    const MatchResult kept = merged_from(later, 1);
    EXPECT_EQ(kept.pairings[0].decision, whole.pairings[0].decision);
    EXPECT_EQ(kept.pairings[0].decision_games, recorded_games);
    EXPECT_EQ(kept.scheduled_games, 80);
    EXPECT_EQ(kept.stopped_by_sprt, whole.stopped_by_sprt);
    // A run that recorded no decision keeps none, although the recount would cross a bound.
    nlohmann::json undecided = file;
    undecided["pairings"][0]["sprt"]["decision"] = "continue";
    EXPECT_EQ(merged_from(undecided, 1).pairings[0].decision, SprtDecision::Continue);
    // Two files (shards) have no common counting order: the recount's decisions.
    const MatchResult two = merged_from(later, 2);
    EXPECT_EQ(two.pairings[0].decision_games, whole.pairings[0].decision_games);
    // A record that contradicts its own bounds is refused, not shown.
    nlohmann::json contradicting = file;
    contradicting["pairings"][0]["sprt"]["decision_llr"] = 0.0;
    EXPECT_THROW((void)merged_from(contradicting, 1), common::InputError);
    nlohmann::json unknown = file;
    unknown["pairings"][0]["sprt"]["decision"] = "maybe";
    EXPECT_THROW((void)merged_from(unknown, 1), common::InputError);
    std::remove(path.c_str());
}

}  // namespace
}  // namespace matches
