// The web board's whole-game analysis (/api/analysis, matches/web/analysis_stream.hpp): its
// events, its values against the command line's analysis of the same game, its bounds, and a
// cancelled analysis giving its session back.
#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <cctype>
#include <chrono>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "loa/game.hpp"
#include "loa/game_analysis.hpp"
#include "loa/notation.hpp"
#include "matches/web/server.hpp"
#include "support/web_helpers.hpp"

namespace {

using matches::web::fixtures::body_of;
using matches::web::fixtures::parse_events;
using matches::web::fixtures::RunningServer;
using nlohmann::json;

// A thesis game (tests/data/thesis-games/appendix_E_game2.txt): 33 plies, Black connects.
constexpr const char* ThesisGame =
    "f1-f3 a2-c4 c1xc4 a6xc4 b1-d3 a7-c5 c8xc5 a3-a6 d1-d4 a5-c3 e1-g3 c4-e6 g1-g4 a6-d6 g8-g5 a4-c6 e8-g6 c6-e4 f8-f6 "
    "c3xc5 d8xh4 c5-c6 d3xd6 c6-c7 b8-b7 h2-g2 d4-c5 h7-e7 c5xc7 h6-g7 c7-c6 e4xg6 b7xe7";

// The query of a game's moves (a space is %20; the moves need no other escape).
std::string query(const std::string& moves, const std::string& extra) {
    std::string encoded;
    for (const char ch : moves) encoded += ch == ' ' ? std::string("%20") : std::string(1, ch);
    return "/api/analysis?moves=" + encoded + extra;
}

TEST(WebAnalysis, AGameIsAnalysedMoveByMoveAsTheCommandLineAnalysesIt) {
    RunningServer s({});
    auto c = s.client();
    const auto r = c.Get(query(ThesisGame, "&depth=2"));
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    const auto events = parse_events(r->body);
    ASSERT_GE(events.size(), 3u);
    EXPECT_EQ(events.front().first, "start");
    EXPECT_EQ(events.front().second["positions"], 33);  // the game is over after its last move
    std::size_t progress = 0;
    for (const auto& [name, data] : events) {
        if (name == "progress") {
            EXPECT_EQ(data["done"].get<std::size_t>(), ++progress);
        }
    }
    EXPECT_EQ(progress, 33u);
    ASSERT_EQ(events.back().first, "analysis");
    const json& a = events.back().second;
    EXPECT_TRUE(a["complete"].get<bool>());
    ASSERT_EQ(a["plies"].size(), 33u);

    // The same values as loa/game_analysis.hpp gives the same game at the same depth.
    loa::Game game;
    for (const std::string_view m : loa::split_move_list(ThesisGame)) game.play(m);
    loa::AnalysisSettings settings;
    settings.limits.depth = 2;
    const loa::GameAnalysis local = loa::analyse_game(game, settings);
    for (std::size_t i = 0; i < 33; ++i) {
        const json& ply = a["plies"][i];
        EXPECT_EQ(ply["move"], loa::move_to_text(game.moves()[i]));
        EXPECT_EQ(ply["best"], loa::move_to_text(local.plies[i].best)) << i;
        EXPECT_DOUBLE_EQ(ply["expected_after"].get<double>(), local.plies[i].expected_after) << i;
        // White's view: Black moves the even plies.
        const double white = i % 2 ? local.plies[i].expected_after : 1 - local.plies[i].expected_after;
        EXPECT_DOUBLE_EQ(ply["white_expected"].get<double>(), white) << i;
        const std::string want = local.plies[i].judgement == loa::Judgement::None ? "" : [&] {
            std::string name(loa::judgement_name(local.plies[i].judgement));
            name[0] = static_cast<char>(std::tolower(name[0]));
            return name;
        }();
        EXPECT_EQ(ply["judgement"], want) << i;
    }
    // Black's last move connects: White's expected result after it is 0.
    EXPECT_EQ(a["plies"][32]["white_expected"].get<double>(), 0.0);
}

TEST(WebAnalysis, BadAndTooLongAnalysesAreRefusedWithTheReason) {
    matches::web::ServerSettings settings;
    settings.max_search_ms = 2000;
    RunningServer s(settings);
    auto c = s.client();
    const std::pair<std::string, std::string> cases[] = {
        {"/api/analysis", "needs moves"},
        {query("b1-d3", "&movetime=5"), "'movetime' must be an integer from 10 to 10000"},
        {query("b1-d3", "&depth=30"), "'depth' must be an integer from 1 to 20"},
        {query("b1-d3", "&depth=2&movetime=100"), "exclude each other"},
        {query("b1-d4", ""), "illegal move"},
        {query(ThesisGame, "&movetime=100"), "33 positions at 100 ms would take 3 s; an analysis may take 2 s"},
    };
    for (const auto& [path, message] : cases) {
        const auto r = c.Get(path);
        ASSERT_TRUE(r) << path;
        EXPECT_EQ(r->status, 400) << path;
        EXPECT_NE(body_of(r).value("error", "").find(message), std::string::npos) << path << ": " << r->body;
    }
}

// A fixed depth has no time of its own: the analysis still ends within the server's allowance,
// with the plies done by then and "complete": false.
TEST(WebAnalysis, AFixedDepthAnalysisEndsWithinTheAllowance) {
    matches::web::ServerSettings settings;
    settings.max_search_ms = 1000;
    RunningServer s(settings);
    auto c = s.client();
    const auto started = std::chrono::steady_clock::now();
    const auto r = c.Get(query(ThesisGame, "&depth=20"));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    const auto events = parse_events(r->body);
    ASSERT_FALSE(events.empty());
    ASSERT_EQ(events.back().first, "analysis");
    EXPECT_FALSE(events.back().second["complete"].get<bool>());
    EXPECT_LT(events.back().second["plies"].size(), 33u);
    EXPECT_LT(seconds, 3.5);  // the allowance, and at most one search's cap beyond it
}

// Closing the stream (the page's cancel) stops the analysis and gives its session back: with one
// search allowed, the next request is served at once rather than after the whole game.
TEST(WebAnalysis, ACancelledAnalysisStopsAndFreesItsSession) {
    matches::web::ServerSettings settings;
    settings.max_searches = 1;
    RunningServer s(settings);
    std::atomic<bool> reading{false};
    const auto started = std::chrono::steady_clock::now();
    std::thread page([&] {
        auto c = s.client();
        // 34 positions at 1 s: half a minute, dropped after its first progress event.
        (void)c.Get(query(ThesisGame, "&movetime=1000"), [&](const char* data, std::size_t size) {
            const bool progressed = std::string(data, size).find("event: progress") != std::string::npos;
            reading = true;
            return !progressed;
        });
    });
    page.join();
    ASSERT_TRUE(reading);
    auto c = s.client();
    bool served = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!served && std::chrono::steady_clock::now() < deadline) {
        const auto r = c.Get("/api/search?depth=1");
        served = r && r->status == 200;
        if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_TRUE(served) << "the cancelled analysis kept its session";
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(), 10.0);
}

}  // namespace
