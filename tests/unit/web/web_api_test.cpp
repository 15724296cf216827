// WebApi: the web board's HTTP API through a real socket: games, searches, limits and bad requests.
#include <gtest/gtest.h>
#include <httplib.h>

#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "loa/position.hpp"
#include "loa/rules.hpp"
#include "matches/records.hpp"
#include "matches/web/server.hpp"
#include "support/sanitized_build.hpp"
#include "support/web_helpers.hpp"

namespace {

using matches::web::fixtures::body_of;
using matches::web::fixtures::connect_with_receive_window;
using matches::web::fixtures::on_a_free_port;
using matches::web::fixtures::parse_events;
using matches::web::fixtures::RawClient;
using matches::web::fixtures::RunningServer;
using nlohmann::json;


TEST(WebApi, ThePageAndItsFilesAreServed) {
    RunningServer s({});
    auto c = s.client();
    const auto page = c.Get("/");
    ASSERT_TRUE(page);
    EXPECT_EQ(page->status, 200);
    EXPECT_NE(page->get_header_value("Content-Type").find("text/html"), std::string::npos);
    EXPECT_NE(page->body.find("<script type=\"module\" src=\"/app.js\">"), std::string::npos);
    // Every module the page imports is served, as JavaScript.
    std::vector<std::string> scripts = {"/app.js"};
    for (std::size_t i = 0; i < scripts.size(); ++i) {
        const auto r = c.Get(scripts[i]);
        ASSERT_TRUE(r) << scripts[i];
        EXPECT_EQ(r->status, 200) << scripts[i];
        EXPECT_NE(r->get_header_value("Content-Type").find("text/javascript"), std::string::npos) << scripts[i];
        for (std::size_t at = 0; (at = r->body.find("from \"./", at)) != std::string::npos; ++at) {
            std::string name = r->body.substr(at + 7, r->body.find('"', at + 8) - at - 7);  // "./x.js"
            name[0] = '/';  // (not "/" + ...: g++ 12 warns falsely on that, PR 105329)
            if (std::find(scripts.begin(), scripts.end(), name) == scripts.end()) scripts.push_back(name);
        }
    }
    EXPECT_GE(scripts.size(), 8u);
    for (const char* path : {"/style.css", "/favicon.svg", "/favicon.ico"}) {
        const auto r = c.Get(path);
        ASSERT_TRUE(r) << path;
        EXPECT_EQ(r->status, 200) << path;
        EXPECT_GT(r->body.size(), 200u) << path;
    }
    const auto missing = c.Get("/no-such-page");
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->status, 404);
    EXPECT_TRUE(body_of(missing).contains("error"));
}

TEST(WebApi, TheStartHasTheRulesPiecesAndPerftOneMoves) {
    RunningServer s({});
    auto c = s.client();
    const json game = body_of(c.Post("/api/game", "{}", "application/json"));
    EXPECT_EQ(game["side_to_move"], "b");
    EXPECT_EQ(game["legal"].size(), 36u);  // perft 1 of the standard start
    EXPECT_EQ(game["pieces"].size(), 24u);
    for (const char* sq : {"b1", "c1", "d1", "e1", "f1", "g1", "b8", "c8", "d8", "e8", "f8", "g8"})
        EXPECT_EQ(game["pieces"][sq], "b") << sq;
    for (const char* sq : {"a2", "a3", "a4", "a5", "a6", "a7", "h2", "h3", "h4", "h5", "h6", "h7"})
        EXPECT_EQ(game["pieces"][sq], "w") << sq;
    EXPECT_FALSE(game["over"]);
    EXPECT_TRUE(game["last_move"].is_null());
}

TEST(WebApi, MovesAreReplayedAndTheEndOfAGameIsReported) {
    RunningServer s({});
    auto c = s.client();
    // d1-b3 ... e1-e5 connects Black (the same game as the CLI's `show` test).
    const json game = body_of(c.Post("/api/game", json{{"moves", "d1-b3 h5-g4 b1-b4 g4xg1 b4-e7 a3xc1 b3-e6 h3xf1 e1-e5"}}.dump(),
                                     "application/json"));
    EXPECT_EQ(game["moves"].size(), 9u);
    EXPECT_EQ(game["moves"][3], "g4xg1");
    EXPECT_TRUE(game["over"]);
    EXPECT_EQ(game["winner"], "b");
    EXPECT_EQ(game["result"], "0-1");
    EXPECT_EQ(game["connected"], (json{"b"}));  // the page highlights the winner's group
    EXPECT_EQ(game["termination"], "connection");
    EXPECT_TRUE(game["legal"].empty());
    EXPECT_EQ(game["last_move"], (json{{"from", "e1"}, {"to", "e5"}}));
    // A list of moves in the compact form works too.
    const json listed = body_of(c.Post("/api/game", json{{"moves", {"b1d3", "a2c2"}}}.dump(), "application/json"));
    EXPECT_EQ(listed["moves"], (json{"b1-d3", "a2-c2"}));
    EXPECT_EQ(listed["side_to_move"], "b");
}

// "connected" names the colours whose pieces form one group, whatever the game's state: none at
// the start, both in a position where each side is one group.
TEST(WebApi, TheConnectedSidesAreNamed) {
    RunningServer s({});
    auto c = s.client();
    EXPECT_EQ(body_of(c.Post("/api/game", "{}", "application/json"))["connected"], json::array());
    const json both = body_of(c.Post("/api/game", json{{"start", "8/8/8/8/8/8/w7/bb6 b"}}.dump(), "application/json"));
    EXPECT_EQ(both["connected"], (json{"b", "w"}));
    const json one = body_of(c.Post("/api/game", json{{"start", "8/8/8/8/8/8/w6w/bb6 b"}}.dump(), "application/json"));
    EXPECT_EQ(one["connected"], (json{"b"}));
}

// The page's "Download PGN": the game as a record that the runner's reader reads back, with the
// result by the rules, or a loss on time the page reports, or none.
TEST(WebApi, AGameIsWrittenAsAPgnRecordThatReadsBack) {
    RunningServer s({});
    auto c = s.client();
    auto records_of = [&](const json& request) {
        const json reply = body_of(c.Post("/api/pgn", request.dump(), "application/json"));
        std::istringstream in(reply.value("pgn", ""));
        return matches::read_records(in);
    };
    const std::string won = "d1-b3 h5-g4 b1-b4 g4xg1 b4-e7 a3xc1 b3-e6 h3xf1 e1-e5";
    auto records = records_of({{"moves", won}, {"black", "user"}, {"white", "loa (full)"}, {"date", "2026.11.29"}});
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].tags["Result"], "0-1");
    EXPECT_EQ(records[0].tags["Termination"], "normal");  // PGN's word; the reason is the comment
    EXPECT_EQ(records[0].reason, "black wins by connection");
    EXPECT_EQ(records[0].tags["Black"], "user");
    EXPECT_EQ(records[0].tags["White"], "loa (full)");
    EXPECT_EQ(records[0].tags["Date"], "2026.11.29");
    EXPECT_EQ(fmt::format("{}", fmt::join(records[0].moves, " ")), won);
    // A flag fell (White's) in an unfinished game: Black wins on time; a result by the rules
    // came first and stays.
    records = records_of({{"moves", "b1-d3"}, {"time_forfeit", "w"}, {"time_control", "300+3"}});
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].tags["Result"], "0-1");
    EXPECT_EQ(records[0].tags["Termination"], "time forfeit");
    EXPECT_EQ(records[0].reason, "white loses on time");
    EXPECT_EQ(records[0].tags["TimeControl"], "300+3");
    records = records_of({{"moves", won}, {"time_forfeit", "b"}});
    EXPECT_EQ(records.at(0).tags["Result"], "0-1");
    // A resignation and an agreed draw: PGN's "normal" ending, the words in the comment.
    records = records_of({{"moves", "b1-d3 a3xd3"}, {"resigned", "b"}});
    EXPECT_EQ(records.at(0).tags["Result"], "1-0");
    EXPECT_EQ(records.at(0).tags["Termination"], "normal");
    EXPECT_EQ(records.at(0).reason, "black resigns");
    records = records_of({{"moves", "b1-d3 a3xd3"}, {"draw_agreed", true}});
    EXPECT_EQ(records.at(0).tags["Result"], "1/2-1/2");
    EXPECT_EQ(records.at(0).reason, "draw agreed");
    EXPECT_FALSE(records.at(0).tags.contains("Rules"));  // the default rules go without saying
    // Another rule set is named, and a replay of the record (the page's Replay) uses it.
    const json rules_game = body_of(c.Post("/api/pgn", json{{"moves", "b1-d3"}, {"rules", "loabot"}}.dump(), "application/json"));
    const json replayed = body_of(c.Post("/api/records", rules_game.value("pgn", ""), "text/plain"));
    ASSERT_EQ(replayed["games"].size(), 1u);
    EXPECT_EQ(replayed["games"][0]["tags"]["Rules"], replayed["games"][0]["rules"]);
    EXPECT_NE(replayed["games"][0]["rules"].get<std::string>().find("simultaneous=mover"), std::string::npos)
        << replayed["games"][0]["rules"];
    // The operator's mode: each side's own clock, and the mover's time after every move as
    // PGN's clock comments, which read back.
    records = records_of({{"moves", "b1-d3 a3xd3 d1-b3"}, {"black_time_control", "300+3"}, {"white_time_control", "600+0"},
                          {"clocks", {298'500, 590'000, 271'999}}});
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].tags["TimeControl"], "?");
    EXPECT_EQ(records[0].tags["BlackLimit"], "tc=300+3");
    EXPECT_EQ(records[0].tags["WhiteLimit"], "tc=600+0");
    EXPECT_EQ(records[0].clocks_ms, (std::map<std::size_t, double>{{1, 298'000}, {2, 590'000}, {3, 271'000}}));
    EXPECT_EQ(fmt::format("{}", fmt::join(records[0].moves, " ")), "b1-d3 a3xd3 d1-b3");
    records = records_of({{"start", "eggs"}, {"moves", json::array()}});
    EXPECT_EQ(records.at(0).tags["Result"], "*");
    EXPECT_EQ(records.at(0).start_text(), loa::Position::scrambled_eggs().to_text());
    for (const char* bad : {R"({"time_forfeit": "x"})", R"({"moves": "b1-b5"})", R"({"black": 3})", R"({"resigned": "x"})",
                            R"({"draw_agreed": "yes"})", R"({"resigned": "b", "draw_agreed": true})",
                            R"({"resigned": "b", "time_forfeit": "w"})", R"({"moves": "b1-d3", "clocks": [1, 2]})",
                            R"({"moves": "b1-d3", "clocks": [-1]})", R"({"moves": "b1-d3", "clocks": ["0:04:31"]})",
                            R"({"time_control": "60+0", "black_time_control": "60+0"})"}) {
        const auto r = c.Post("/api/pgn", bad, "application/json");
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 400) << bad;
        EXPECT_TRUE(body_of(r).contains("error")) << bad;
    }
}

// A game on the clock: the side to move's time and increment go to the engine's time manager,
// which answers well within them; a clock without the mover's time, or with movetime, is refused.
TEST(WebApi, ASearchOnTheClockPlansItsOwnTime) {
    RunningServer s({});
    auto c = s.client();
    const auto started = std::chrono::steady_clock::now();
    const auto r = c.Get("/api/search?moves=b1-d3&wtime=3000&btime=60000&winc=100&binc=100");
    const double elapsed_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    const auto events = parse_events(r->body);
    ASSERT_FALSE(events.empty());
    ASSERT_EQ(events.back().first, "bestmove");
    EXPECT_EQ(events.back().second["move"].get<std::string>().size(), 5u);
    // White's 3 s for a game of ~30 more moves: a small share of it, far from its 60 s of Black's.
    EXPECT_LT(elapsed_ms, 1500);
    for (const char* query : {"/api/search?moves=b1-d3&winc=100", "/api/search?btime=1000&movetime=100",
                              "/api/search?btime=-1", "/api/search?btime=99999999999"}) {
        const auto bad = c.Get(query);
        ASSERT_TRUE(bad) << query;
        EXPECT_EQ(bad->status, 400) << query;
        EXPECT_TRUE(body_of(bad).contains("error")) << query;
    }
}

TEST(WebApi, BadRequestsGetAClearErrorAndTheServerGoesOn) {
    matches::web::ServerSettings settings;
    settings.max_body_bytes = 4096;
    RunningServer s(settings);
    auto c = s.client();
    struct Case {
        std::string body, message;
    };
    const Case cases[] = {
        {R"({"moves": "b1-d4"})", "illegal move 'b1-d4'"},
        {R"({"moves": "b1-d3 b1-d3"})", "move 2"},
        {R"({"start": "8/8/8 b"})", "position"},
        {R"({"start": 7})", "'start' must be a string"},
        {R"({"moves": [1, 2]})", "'moves' must hold strings"},
        {R"({"rules": "simultaneous=maybe"})", "simultaneous"},
        {"not json at all", "not JSON"},
        {"[1, 2, 3]", "JSON object"},
    };
    for (const Case& k : cases) {
        const auto r = c.Post("/api/game", k.body, "application/json");
        ASSERT_TRUE(r) << k.body;
        EXPECT_EQ(r->status, 400) << k.body;
        const std::string error = body_of(r).value("error", "");
        EXPECT_NE(error.find(k.message), std::string::npos) << k.body << " -> " << error;
    }
    // Bytes that are not UTF-8 (the error message quotes them) are answered, not fatal.
    for (const char* query : {"/api/search?moves=%FF", "/api/search?start=%C3%28", "/api/search?variant=%FF"}) {
        const auto r = c.Get(query);
        ASSERT_TRUE(r) << query;
        EXPECT_EQ(r->status, 400) << query;
    }
    const auto latin = c.Post("/api/records", "[Event \"x\"]\n\n1. b1-d3 \xff\xfe *\n", "text/plain");
    ASSERT_TRUE(latin);
    EXPECT_EQ(latin->status, 400);
    const auto huge = c.Post("/api/game", std::string(10000, ' '), "application/json");
    ASSERT_TRUE(huge);
    EXPECT_EQ(huge->status, 413);
    const auto still = c.Post("/api/game", "{}", "application/json");
    ASSERT_TRUE(still);
    EXPECT_EQ(still->status, 200);
    // Search parameters are checked before anything streams.
    for (const char* query : {"/api/search?movetime=5", "/api/search?depth=0", "/api/search?variant=bogus&depth=1",
                              "/api/search?moves=e1-e5", "/api/search?moves=d1-b3%20h5-g4%20b1-b4%20g4xg1%20b4-e7%20a3xc1%20b3-e6%20h3xf1%20e1-e5&depth=1"}) {
        const auto r = c.Get(query);
        ASSERT_TRUE(r) << query;
        EXPECT_EQ(r->status, 400) << query;
        EXPECT_TRUE(body_of(r).contains("error")) << query;
    }
}

// The board's evaluation is the server's setting, read at start: a bad one stops the server
// before it listens.
TEST(WebApi, ABadEvaluationIsRefusedAtStart) {
    matches::web::ServerSettings settings;
    settings.eval = "/nonexistent/net.nnue";
    try {
        matches::web::Server server(on_a_free_port(settings));
        ADD_FAILURE() << "the server started with an evaluation it cannot read";
    } catch (const common::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/net.nnue"), std::string::npos) << e.what();
    }
}

TEST(WebApi, ASearchStreamsItsIterationsAndALegalBestMove) {
    RunningServer s({});
    auto c = s.client();
    const auto r = c.Get("/api/search?moves=b1-d3&depth=4");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
    EXPECT_NE(r->get_header_value("Content-Type").find("text/event-stream"), std::string::npos);
    const auto events = parse_events(r->body);
    ASSERT_GE(events.size(), 3u);
    EXPECT_EQ(events.front().first, "start");  // what the search's tables claim
    EXPECT_EQ(events.front().second["memory_mb"], 16.5625);  // the 16 MB table and its PV lines
    int depth = 0;
    for (std::size_t i = 1; i + 1 < events.size(); ++i) {
        EXPECT_EQ(events[i].first, "info");
        EXPECT_GT(events[i].second["depth"].get<int>(), depth);  // one line per deeper iteration
        depth = events[i].second["depth"];
    }
    EXPECT_EQ(depth, 4);
    ASSERT_EQ(events.back().first, "bestmove");
    const std::string move = events.back().second["move"];
    const json game = body_of(c.Post("/api/game", json{{"moves", {"b1-d3"}}}.dump(), "application/json"));
    bool legal = false;
    for (const json& m : game["legal"]) legal = legal || m["text"] == move;
    EXPECT_TRUE(legal) << move;
    // White is to move: the move is a White piece's.
    EXPECT_EQ(game["pieces"][move.substr(0, 2)], "w");
}

// MultiPV on the board: multipv=3 gives each depth's three lines in a row, best first, with
// different first moves; the pooled session goes back to one line for the next request; a
// count outside 1..8 is refused before anything streams.
TEST(WebApi, AnAnalysisShowsSeveralLinesWhenAsked) {
    RunningServer s({});
    auto c = s.client();
    const auto analysis = c.Get("/api/search?moves=b1-d3&depth=3&multipv=3");
    ASSERT_TRUE(analysis);
    ASSERT_EQ(analysis->status, 200) << analysis->body;
    const auto events = parse_events(analysis->body);
    std::vector<json> infos;
    for (const auto& [name, data] : events)
        if (name == "info") infos.push_back(data);
    ASSERT_EQ(infos.size(), 9u);
    for (std::size_t i = 0; i < infos.size(); ++i) {
        EXPECT_EQ(infos[i]["depth"], static_cast<int>(i / 3) + 1);
        EXPECT_EQ(infos[i]["multipv"], static_cast<int>(i % 3) + 1);
        if (i % 3 > 0) {
            EXPECT_NE(infos[i]["pv"][0], infos[i - 1]["pv"][0]);
        }
    }
    ASSERT_EQ(events.back().first, "bestmove");
    EXPECT_EQ(events.back().second["move"], infos[6]["pv"][0]);
    const auto single = c.Get("/api/search?moves=b1-d3&depth=2");
    ASSERT_TRUE(single);
    for (const auto& [name, data] : parse_events(single->body))
        EXPECT_FALSE(data.contains("multipv")) << "the pooled session kept the last request's lines";
    for (const char* query : {"/api/search?multipv=0", "/api/search?multipv=9"}) {
        const auto r = c.Get(query);
        ASSERT_TRUE(r) << query;
        EXPECT_EQ(r->status, 400) << query;
    }
}

TEST(WebApi, TheServerStopsWhileAnAnalysisStreams) {
    std::thread reader;
    std::atomic<bool> streaming{false};
    const auto start = std::chrono::steady_clock::now();
    {
        RunningServer s({});
        reader = std::thread([&] {
            auto c = s.client();
            (void)c.Get("/api/search", [&](const char*, std::size_t) {
                streaming = true;
                return true;  // reads for ever: only the server can end this
            });
        });
        while (!streaming) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }  // Server::stop, then the serving thread is joined
    reader.join();
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    EXPECT_LT(took.count(), 10.0) << "the server waited for the analysis to end by itself";
}

TEST(WebApi, AStopBeforeTheLoopStartsIsNotLost) {
    matches::web::Server server(on_a_free_port({}));
    (void)server.bind();
    server.stop();   // e.g. a signal right after the "listening" line
    server.serve();  // returns at once instead of serving for ever
}

TEST(WebApi, ASearchEndsWhenItsReaderGoesAwayAndBusyIsRefused) {
    matches::web::ServerSettings settings;
    settings.max_searches = 1;
    RunningServer s(settings);
    // An analysis (no time limit), read until the busy check below is done, then dropped.
    std::atomic<bool> streaming{false}, checked{false};
    std::thread analysis([&] {
        auto c = s.client();
        (void)c.Get("/api/search", [&](const char*, std::size_t) {
            streaming = true;
            return !checked.load();  // false: close the connection
        });
    });
    while (!streaming) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    // While it runs, the only session is taken.
    auto c = s.client();
    const auto busy = c.Get("/api/search?depth=1");
    checked = true;
    analysis.join();
    ASSERT_TRUE(busy);
    EXPECT_EQ(busy->status, 503);
    EXPECT_NE(body_of(busy).value("error", "").find("busy"), std::string::npos);
    // The dropped analysis stops (within its half-second heartbeat) and frees the session.
    bool served = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!served && std::chrono::steady_clock::now() < deadline) {
        const auto r = c.Get("/api/search?depth=2");
        served = r && r->status == 200;
        if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_TRUE(served) << "the analysis kept its session after its reader went away";
}

// ---- what one request may claim, and who may ask (issue 54) -------------------------------

// threads=16 with a 256 MB evaluation cache each once left the server at 4.2 GB: a request's
// tables are counted whole (every thread's cache), refused over the cap, and freed after the
// search; the answer says what they claim.
TEST(WebApi, ARequestsTablesAreCountedWholeCappedAndFreedAfterwards) {
    matches::web::ServerSettings settings;
    settings.max_request_mb = 64;
    settings.max_memory_mb = 64;
    settings.max_threads = 2;
    RunningServer s(settings);
    auto c = s.client();
    const auto over = c.Get("/api/search?variant=threads%3D16%2Ceval_cache%3D256&depth=1");
    ASSERT_TRUE(over);
    EXPECT_EQ(over->status, 400);
    EXPECT_NE(body_of(over).value("error", "").find("memory 4096 MB: eval cache 256 MB x 16 threads"), std::string::npos)
        << over->body;
    const auto cache = c.Get("/api/search?variant=full%2Ceval_cache%3D32%2Cthreads%3D2&depth=1");
    ASSERT_TRUE(cache);
    EXPECT_EQ(cache->status, 400);
    EXPECT_NE(body_of(cache).value("error", "").find("memory 81 MB: hash 16 MB + PV lines 0.6 MB + eval cache 32 MB x 2 threads"), std::string::npos)
        << cache->body;
    const auto fits = c.Get("/api/search?variant=full%2Ceval_cache%3D8%2Cthreads%3D2&depth=2");
    ASSERT_TRUE(fits);
    ASSERT_EQ(fits->status, 200);
    const auto events = parse_events(fits->body);
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events.front().first, "start");
    EXPECT_EQ(events.front().second.value("memory_mb", 0.0), 32.5625);  // 16 + 0.5625 PV lines + 2 x 8
    EXPECT_EQ(events.back().first, "bestmove");
    // Freed: the budget holds a second search of the same size at once, and another after it.
    for (int i = 0; i < 2; ++i) {
        const auto again = c.Get("/api/search?variant=full%2Ceval_cache%3D8%2Cthreads%3D2&depth=1");
        ASSERT_TRUE(again);
        EXPECT_EQ(again->status, 200);
    }
}

// An analysis that holds its tables until released (it streams and reads on): what the budget
// tests fill the server with.
class HeldAnalysis {
public:
    HeldAnalysis(RunningServer& s, const std::string& variant)
        : thread_([this, &s, variant] {
              auto c = s.client();
              (void)c.Get("/api/search?variant=" + variant, [this](const char*, std::size_t) {
                  streaming_ = true;
                  return !released_.load();
              });
          }) {
        while (!streaming_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ~HeldAnalysis() { release(); }
    HeldAnalysis(const HeldAnalysis&) = delete;
    HeldAnalysis& operator=(const HeldAnalysis&) = delete;
    void release() {
        released_ = true;
        if (thread_.joinable()) thread_.join();
    }

private:
    std::atomic<bool> streaming_{false}, released_{false};
    std::thread thread_;
};

// Two searches that fit one by one but not together: the second waits, then is refused.
TEST(WebApi, SearchesTogetherStayWithinTheServersMemory) {
    matches::web::ServerSettings settings;
    settings.max_searches = 2;
    settings.max_request_mb = 32;
    settings.max_memory_mb = 40;
    RunningServer s(settings);
    HeldAnalysis analysis(s, "full%2Ctt%3D31");
    auto c = s.client();
    const auto second = c.Get("/api/search?variant=full%2Ctt%3D16&depth=1");
    analysis.release();
    ASSERT_TRUE(second);
    EXPECT_EQ(second->status, 503);
    EXPECT_NE(body_of(second).value("error", "").find("at most 40 MB"), std::string::npos) << second->body;
    const json config = body_of(c.Get("/api/config"));
    EXPECT_EQ(config.value("max_memory_mb", 0), 40);
    // Each named rule set with its text as records spell rules (Play maps a record's to a name).
    ASSERT_FALSE(config["rules"].empty());
    for (const json& r : config["rules"])
        EXPECT_EQ(r["text"], loa::to_string(loa::parse_rules(r["name"].get<std::string>()))) << r.dump();
}

// A page of another site must not drive searches or read files: not through a name it points
// at this machine (DNS rebinding: the Host is its own), nor from its origin.
TEST(WebApi, RequestsOfOtherSitesAreRefused) {
    matches::web::ServerSettings settings;
    settings.allowed_hosts = {"board.example"};
    RunningServer s(settings);
    auto c = s.client();
    struct Case {
        httplib::Headers headers;
        int status;
    };
    const std::string p = std::to_string(s.port());
    const Case cases[] = {
        {{{"Host", "evil.example:" + p}}, 403},
        {{{"Host", "localhost:9999"}}, 403},  // a forwarded port is named: --allow-host localhost:9999 (below)
        {{{"Origin", "http://evil.example:" + p}}, 403},
        {{{"Origin", "null"}}, 403},
        {{{"Sec-Fetch-Site", "cross-site"}}, 403},  // (a page itself, "/", may be opened from a link anywhere)
        {{{"Host", "localhost:" + p}, {"Origin", "http://localhost:" + p}, {"Sec-Fetch-Site", "same-origin"}}, 200},
        {{{"Host", "board.example:" + p}}, 200},
        {{}, 200},
    };
    for (const Case& k : cases) {
        for (const char* path : {"/api/config", "/api/search?depth=1"}) {
            const auto r = c.Get(path, k.headers);
            ASSERT_TRUE(r) << path;
            EXPECT_EQ(r->status, k.status) << path << " " << (k.headers.empty() ? "" : k.headers.begin()->second);
        }
    }
    const auto page = c.Get("/", {{"Sec-Fetch-Site", "cross-site"}, {"Sec-Fetch-Mode", "navigate"}});
    ASSERT_TRUE(page);
    EXPECT_EQ(page->status, 200);
    const auto post = c.Post("/api/game", {{"Origin", "http://evil.example"}}, "{}", "application/json");
    ASSERT_TRUE(post);
    EXPECT_EQ(post->status, 403);
    // No Host at all (the client above always sends one): malformed in HTTP/1.1 (400), and
    // unverifiable in HTTP/1.0 (403).
    for (const auto& [version, status] : {std::pair{"1.1", "400"}, std::pair{"1.0", "403"}}) {
        RawClient raw(s.port());
        ASSERT_TRUE(raw.send(fmt::format("GET /api/config HTTP/{}\r\n\r\n", version)));
        std::string answer(512, '\0');
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        const ssize_t n = ::recv(raw.fd(), answer.data(), answer.size(), 0);
        ASSERT_GT(n, 0);
        answer.resize(static_cast<std::size_t>(n));
        EXPECT_EQ(answer.find(fmt::format("HTTP/1.1 {}", status)), 0u) << answer;
        EXPECT_NE(answer.find("names no host"), std::string::npos) << answer;
    }
}

// Twelve clients sending one header line every half second, never ending their requests, once
// held every worker and the server stopped answering. Requests are read apart from the
// workers, each with a deadline for the whole request: the board answers others at once, and
// drops the slow ones when their time is up.
TEST(WebApi, SlowClientsHoldNoWorkerAndAreDroppedAtTheirDeadline) {
    matches::web::ServerSettings settings;
    settings.request_seconds = 2;
    RunningServer s(settings);
    std::vector<std::unique_ptr<RawClient>> slow;
    for (int i = 0; i < 12; ++i) {
        slow.push_back(std::make_unique<RawClient>(s.port()));
        ASSERT_TRUE(slow.back()->connected());
        ASSERT_TRUE(slow.back()->send("GET /api/config HTTP/1.1\r\n"));
    }
    RawClient silent(s.port());  // connects and sends nothing
    const auto start = std::chrono::steady_clock::now();
    std::atomic<bool> done{false};
    std::thread trickle([&] {
        for (int line = 0; !done.load() && line < 20; ++line) {
            for (auto& c : slow) (void)c->send(fmt::format("X-Slow-{}: {}\r\n", line, line));
            std::this_thread::sleep_for(std::chrono::milliseconds(500));
        }
    });
    // Others are served at once, again and again, while the slow ones trickle.
    auto c = s.client();
    for (int i = 0; i < 5; ++i) {
        const auto asked = std::chrono::steady_clock::now();
        const auto r = c.Get("/api/config");
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 200);
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count(), 3.0);
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
    // The slow and the silent are dropped at their deadline (2 s), not served.
    bool all_dropped = false;
    while (!all_dropped && std::chrono::steady_clock::now() - start < std::chrono::seconds(8)) {
        all_dropped = silent.closed_by_server();
        for (auto& k : slow) all_dropped = all_dropped && k->closed_by_server();
    }
    done = true;
    trickle.join();
    EXPECT_TRUE(all_dropped);
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_GT(took, 1.5);
    EXPECT_LT(took, 6.0);
}

// Keep-alive: requests sent one after another on one connection (the second before the first
// was answered) are each answered, in order, and the connection stays open for more.
TEST(WebApi, RequestsOnOneConnectionAreAnsweredInOrder) {
    RunningServer s({});
    RawClient raw(s.port());
    const std::string host = fmt::format("Host: 127.0.0.1:{}\r\n", s.port());
    const std::string body = R"({"moves": "b1-d3"})";
    ASSERT_TRUE(raw.send("GET /api/config HTTP/1.1\r\n" + host + "\r\n" + "POST /api/game HTTP/1.1\r\n" + host +
                         fmt::format("Content-Length: {}\r\n\r\n{}", body.size(), body)));
    const std::string answers = raw.read_until_text("side_to_move");
    const auto first = answers.find("HTTP/1.1 200 OK"), second = answers.find("HTTP/1.1 200 OK", first + 1);
    ASSERT_NE(second, std::string::npos) << answers.substr(0, 300);
    EXPECT_NE(answers.find("\"presets\""), std::string::npos);
    EXPECT_LT(answers.find("\"presets\""), second);  // the config first
    EXPECT_NE(answers.find("\"side_to_move\""), std::string::npos);
    ASSERT_TRUE(raw.send("GET /api/config HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n"));
    const std::string third = raw.read_until_text("\"presets\"");
    EXPECT_EQ(third.find("HTTP/1.1 200 OK"), 0u) << "the connection was not kept for a third request";
}

// Clients that pipeline requests and never read the answers once held every worker: plain
// responses are written by the I/O thread, with a deadline, and the board answers others.
TEST(WebApi, ClientsThatDoNotReadTheirAnswersHoldNoWorker) {
    matches::web::ServerSettings settings;
    RunningServer s(settings);
    std::vector<int> sockets;
    const std::string request = fmt::format("GET /app.js HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n\r\n", s.port());
    std::string many;
    for (int i = 0; i < 300; ++i) many += request;
    for (int i = 0; i < 12; ++i) {
        const int fd = connect_with_receive_window(s.port(), 2048);
        ASSERT_GE(fd, 0);
        timeval tv{1, 0};
        ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        (void)::send(fd, many.data(), many.size(), MSG_NOSIGNAL);  // as much as goes in: never read
        sockets.push_back(fd);
    }
    auto c = s.client();
    for (int i = 0; i < 5; ++i) {
        const auto asked = std::chrono::steady_clock::now();
        const auto r = c.Get("/api/config");
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 200);
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count(), 3.0);
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
    }
    for (const int fd : sockets) ::close(fd);
}

// A connection closed after its answer (Connection: close) while its client still sends: the
// server shuts its side and drops the client's input until the client closes, so that the
// kernel does not reset the connection and lose the answer's end (a close() with unread input
// did, to a client with a small receive window).
TEST(WebApi, AnAnswerSurvivesAClientThatSendsMoreBeforeTheClose) {
    RunningServer s({});
    const int fd = connect_with_receive_window(s.port(), 4096);
    ASSERT_GE(fd, 0);
    const std::string request = fmt::format("GET /app.js HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n", s.port());
    ASSERT_EQ(::send(fd, request.data(), request.size(), MSG_NOSIGNAL), static_cast<ssize_t>(request.size()));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // answered, partly still in the server's buffers
    ASSERT_EQ(::send(fd, "XY", 2, MSG_NOSIGNAL), 2);              // which the server never reads as a request
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::string answer;
    bool reset = false;
    for (char buffer[1024];;) {
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
        if (n > 0) answer.append(buffer, static_cast<std::size_t>(n));
        else {
            reset = n < 0;
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    ::close(fd);
    EXPECT_FALSE(reset) << "after " << answer.size() << " bytes: " << std::strerror(errno);
    const auto head_end = answer.find("\r\n\r\n");
    ASSERT_NE(head_end, std::string::npos);
    const auto length_at = answer.find("Content-Length: ");
    ASSERT_NE(length_at, std::string::npos);
    EXPECT_EQ(answer.size() - head_end - 4, std::stoul(answer.substr(length_at + 16)));
}

// Requests that end their heads with bare LFs, that begin after empty lines, that are followed
// by the client closing its side, are each answered in order.
TEST(WebApi, BareLineFeedsEmptyLinesAndHalfClosedPipelinesAreAnswered) {
    RunningServer s({});
    const std::string host = fmt::format("Host: 127.0.0.1:{}", s.port());
    RawClient raw(s.port());
    ASSERT_TRUE(raw.send("\r\nGET /nope1 HTTP/1.1\n" + host + "\n\nGET /nope2 HTTP/1.1\r\n" + host + "\r\n\r\n" +
                         "GET /api/config HTTP/1.1\r\n" + host + "\r\n\r\n"));
    ::shutdown(raw.fd(), SHUT_WR);
    std::string answers;
    for (char buffer[65536];;) {
        const ssize_t n = ::recv(raw.fd(), buffer, sizeof buffer, 0);
        if (n == 0) break;
        if (n > 0) answers.append(buffer, static_cast<std::size_t>(n));
        else if (errno != EAGAIN) break;
    }
    const auto first = answers.find("HTTP/1.1 404"), second = answers.find("HTTP/1.1 404", first + 1),
               third = answers.find("HTTP/1.1 200", second + 1);
    EXPECT_EQ(first, 0u) << answers.substr(0, 200);
    EXPECT_NE(second, std::string::npos) << answers.substr(0, 400);
    EXPECT_NE(third, std::string::npos) << answers.substr(0, 600);
}

// A request head or body over its bound, a chunked body, and garbage are refused with a
// status, and the server goes on.
TEST(WebApi, MalformedOrOversizedRequestsAreRefused) {
    matches::web::ServerSettings settings;
    settings.max_body_bytes = 1024;
    RunningServer s(settings);
    struct Case {
        std::string request;
        std::string status;
    };
    const Case cases[] = {
        {"GET /api/config HTTP/1.1\r\nX-Big: " + std::string(20'000, 'a') + "\r\n\r\n", " 431 "},
        {"POST /api/game HTTP/1.1\r\nContent-Length: 5000\r\n\r\n", " 413 "},
        {"POST /api/game HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", " 411 "},
        {"NONSENSE\r\n\r\n", " 400 "},
        {"GET /api/config HTTP/2.0\r\n\r\n", " 505 "},
        {"GET /api/config?moves=%G1 HTTP/1.1\r\n\r\n", " 400 "},
        {"DELETE /api/config HTTP/1.1\r\n\r\n", " 405 "},
        {"GET /api/config HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", " 400 "},
        {"POST /api/game HTTP/1.1\r\nContent-Length : 5\r\n\r\nhello", " 400 "},  // no space before the colon
        {"POST /api/game HTTP/1.1\r\nContent-Length:\r\n\r\n", " 400 "},
        {"POST /api/game HTTP/1.1\r\nTransfer-Encoding:\r\n\r\n", " 411 "},
        {"GET /api/con fig HTTP/1.1\r\n\r\n", " 400 "},             // a space in the target
        {"G(T /api/config HTTP/1.1\r\n\r\n", " 400 "},             // a method that is not a token
        {"GET /api/config HTTP/1.1\r\nX-Note: a\rb\r\n\r\n", " 400 "},  // a bare CR in a value
        {"GET /api/records/" + std::string(5000, 'a') + " HTTP/1.1\r\n\r\n", " 414 "},
        {"GET /api/config HTTP/1.2\r\n\r\n", " 200 "},             // a later HTTP/1.x is answered as 1.1
        {"POST /api/game HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n{}", " 403 "},  // no 100 to 1.0
    };
    const std::string host = fmt::format("\r\nHost: 127.0.0.1:{}", s.port());
    for (const Case& k : cases) {
        RawClient raw(s.port());
        std::string request = k.request;
        if ((request.find("HTTP/1.1\r\n") != std::string::npos || request.find("HTTP/1.2\r\n") != std::string::npos) &&
            request.find("Host:") == std::string::npos)
            request.replace(request.find("\r\n"), 2, host + "\r\n");
        ASSERT_TRUE(raw.send(request)) << k.request.substr(0, 40);
        std::string answer(4096, '\0');
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        const ssize_t n = ::recv(raw.fd(), answer.data(), answer.size(), 0);
        ASSERT_GT(n, 0) << k.request.substr(0, 40);
        answer.resize(static_cast<std::size_t>(n));
        EXPECT_EQ(answer.find("HTTP/1.1" + k.status), 0u) << k.request.substr(0, 40) << " -> " << answer.substr(0, 60);
    }
    const auto r = s.client().Get("/api/config");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 200);
}

// ---- one memory budget, and memory given back (issue 83) ----------------------------------

// This process's resident size now and at its peak since reset_peak(), in MB (/proc).
struct Resident {
    double now_mb = 0, peak_mb = 0;
};

Resident resident() {
    std::ifstream in("/proc/self/status");
    Resident r;
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("VmRSS:")) r.now_mb = std::stod(line.substr(6)) / 1024;
        if (line.starts_with("VmHWM:")) r.peak_mb = std::stod(line.substr(6)) / 1024;
    }
    return r;
}

void reset_peak() { std::ofstream("/proc/self/clear_refs") << "5"; }  // VmHWM back to VmRSS

// `plies` legal plies from the start that go back and forth (b1-b3 a2-c2 b3-b1 c2-a2, again
// and again): a game as long as one likes under `repetition=off`.
std::vector<std::string> back_and_forth(std::size_t plies) {
    const char* const cycle[] = {"b1b3", "a2c2", "b3b1", "c2a2"};
    std::vector<std::string> moves;
    for (std::size_t i = 0; i < plies; ++i) moves.emplace_back(cycle[i % 4]);
    return moves;
}

// `games` records of `plies` plies each (repetition off), each with a tag of `padding` bytes.
std::string long_records(std::size_t games, std::size_t plies, std::size_t padding = 0) {
    const std::string record = fmt::format("[Event \"{}\"]\n[Rules \"repetition=off\"]\n\n{} *\n\n", std::string(padding, 'x'),
                                           fmt::join(back_and_forth(plies), " "));
    std::string out;
    for (std::size_t i = 0; i < games; ++i) out += record;
    return out;
}

// 8 MB of empty records (279,620 of them) once took 600 MB and 3.6 s to answer with 47 MB, and
// a legal game of 1.3 million plies 164 MB: a request holds at most 10,000 games and 250,000
// plies, and one over is refused before its games are replayed, with the limit named.
TEST(WebApi, RecordsAndGamesOverTheLimitsAreRefusedWithTheLimitNamed) {
    RunningServer s({});
    auto c = s.client();
    {
        const std::string record = "[Event \"xxxxxxxxxxxxxxxx\"]\n*\n\n";
        std::string records;
        while (records.size() + record.size() <= 8 * 1024 * 1024) records += record;
        reset_peak();
        const double before = resident().now_mb;
        const auto asked = std::chrono::steady_clock::now();
        const auto r = c.Post("/api/records", records, "text/plain");
        ASSERT_TRUE(r);
        EXPECT_EQ(r->status, 413) << r->body.substr(0, 200);
        EXPECT_NE(r->body.find("at most 10000"), std::string::npos) << r->body.substr(0, 200);
        // The sanitizers run several times slower and keep freed memory in quarantine: time and
        // resident size are Release's to measure.
        EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count(),
                  loa::testing::sanitized_build ? 20.0 : 2.0);
        if (!loa::testing::sanitized_build) {
            EXPECT_LT(resident().peak_mb - before, 250) << "the peak of reading 8 MB of records (this process's)";
        }
    }
    // One ply over the limit, as a string and as a list, for a game and for its PGN.
    json game = {{"moves", fmt::format("{}", fmt::join(back_and_forth(250'001), " "))}, {"rules", "repetition=off"}};
    json list = {{"moves", back_and_forth(250'001)}, {"rules", "repetition=off"}};
    for (const char* route : {"/api/game", "/api/pgn"}) {
        for (const json& body : {game, list}) {
            const auto r = c.Post(route, body.dump(), "application/json");
            ASSERT_TRUE(r);
            EXPECT_EQ(r->status, 413) << route << " " << r->body.substr(0, 200);
            EXPECT_NE(r->body.find("at most 250000"), std::string::npos) << r->body.substr(0, 200);
        }
    }
    // At the limit the game is answered.
    game["moves"] = fmt::format("{}", fmt::join(back_and_forth(250'000), " "));
    const auto whole = c.Post("/api/game", game.dump(), "application/json");
    ASSERT_TRUE(whole);
    ASSERT_EQ(whole->status, 200) << whole->body.substr(0, 200);
    EXPECT_EQ(body_of(whole)["moves"].size(), 250'000u);
    // A records file with too many plies in all is refused too (2,600 games of 100 plies).
    const auto plies = c.Post("/api/records", long_records(2'600, 100), "text/plain");
    ASSERT_TRUE(plies);
    EXPECT_EQ(plies->status, 413);
    EXPECT_NE(plies->body.find("260000 plies"), std::string::npos) << plies->body.substr(0, 200);
}

// What a request parses and answers is claimed from the server's one memory budget
// (--max-memory-mb), as the searches' tables are: a records file that does not fit beside a
// running search waits and is then refused (503), one a request may not claim at all is refused
// (413, --max-request-mb), and both are read once the memory is there.
TEST(WebApi, RequestsThatReadBodiesClaimTheServersMemoryBudget) {
    matches::web::ServerSettings settings;
    settings.max_searches = 2;
    settings.max_request_mb = 32;
    settings.max_memory_mb = 40;
    RunningServer s(settings);
    const std::string records = long_records(2'000, 100);  // 1 MB: about 17 MB to read and answer
    auto c = s.client();
    const auto alone = c.Post("/api/records", records, "text/plain");
    ASSERT_TRUE(alone);
    EXPECT_EQ(alone->status, 200) << alone->body.substr(0, 200);
    EXPECT_EQ(body_of(alone)["games"].size(), 2'000u);
    // An analysis holding 31.6 MB of the 40 (a 31 MB table and its PV lines).
    HeldAnalysis analysis(s, "full%2Ctt%3D31");
    const auto beside = c.Post("/api/records", records, "text/plain");
    const auto move = c.Post("/api/game", R"({"moves": "b1-d3"})", "application/json");  // a page's move still is answered
    analysis.release();
    ASSERT_TRUE(beside);
    EXPECT_EQ(beside->status, 503) << beside->body.substr(0, 200);
    EXPECT_NE(beside->body.find("--max-memory-mb"), std::string::npos) << beside->body;
    ASSERT_TRUE(move);
    EXPECT_EQ(move->status, 200) << move->body;
    // 3 MB of records would claim more than a request may (32 MB).
    const auto over = c.Post("/api/records", long_records(2'000, 100, 1'000), "text/plain");
    ASSERT_TRUE(over);
    EXPECT_EQ(over->status, 413) << over->body.substr(0, 200);
    EXPECT_NE(over->body.find("--max-request-mb"), std::string::npos) << over->body;
    // The analysis gone, the budget is back.
    bool served = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (!served && std::chrono::steady_clock::now() < deadline) {
        const auto again = c.Post("/api/records", records, "text/plain");
        served = again && again->status == 200;
        if (!served) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_TRUE(served);
}

// Posts `body` to `path` and reads the answer through a small buffer, dropping it: the test's own
// memory does not grow with the answer. The answer's status, 0 when none came.
int post_dropping_the_answer(int port, const std::string& path, const std::string& body) {
    RawClient raw(port);
    if (!raw.send(fmt::format("POST {} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n", path,
                              port, body.size())) ||
        !raw.send(body))
        return 0;
    std::string head;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (char buffer[16384]; std::chrono::steady_clock::now() < deadline;) {
        const ssize_t n = ::recv(raw.fd(), buffer, sizeof buffer, 0);
        if (n == 0) break;
        if (n > 0 && head.size() < 64) head.append(buffer, static_cast<std::size_t>(std::min<ssize_t>(n, 64)));
    }
    return head.starts_with("HTTP/1.1 ") ? std::stoi(head.substr(9, 3)) : 0;
}

// 16 searches once left the idle server at 232 MB (the tables went back to glibc's arenas, not
// to the system), and an 8 MB upload at 578 MB: the tables are mapped pages, and what requests
// freed is given back, so the idle server returns to about where it started.
TEST(WebApi, AnIdleServerGivesItsMemoryBack) {
    if (loa::testing::sanitized_build) GTEST_SKIP() << "the sanitizers' allocators keep freed memory: Release measures it";
    RunningServer s({});
    auto c = s.client();
    ASSERT_TRUE(c.Get("/api/config"));
    const std::string records = long_records(7'000, 24, 900);  // 7.5 MB, an answer of as much
    const double start = resident().now_mb;
    for (int round = 0; round < 8; ++round) {  // two at a time, as two pages would
        std::vector<std::thread> pages;
        for (int i = 0; i < 2; ++i)
            pages.emplace_back([&] {
                const auto r = s.client().Get("/api/search?movetime=150");
                EXPECT_TRUE(r && r->status == 200);
            });
        for (std::thread& t : pages) t.join();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the last sessions returned
    EXPECT_LT(resident().now_mb - start, 40) << "after 16 searches";
    EXPECT_EQ(post_dropping_the_answer(s.port(), "/api/records", records), 200);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_LT(resident().now_mb - start, 60) << "after an upload of 7.5 MB";  // (in this process: 27 MB, without loa-web's mallopt)
}

// The Host's port counts as much as its name (a page of another server on this machine, or a
// name with another port, may not use the board); a forwarded port is named with
// --allow-host NAME:PORT.
TEST(WebApi, TheHostsPortIsChecked) {
    matches::web::ServerSettings settings;
    settings.allowed_hosts = {"board.example", "localhost:9999"};
    RunningServer s(settings);
    auto c = s.client();
    const std::string p = std::to_string(s.port());
    struct Case {
        httplib::Headers headers;
        int status;
    };
    const Case cases[] = {
        {{{"Host", "localhost:1"}}, 403},
        {{{"Host", "127.0.0.1"}}, 403},  // port 80
        {{{"Host", "board.example:1"}}, 403},
        {{{"Host", "localhost:" + p}, {"Origin", "http://localhost:3000"}}, 403},
        {{{"Host", "localhost:" + p}, {"Origin", "http://localhost"}}, 403},
        {{{"Host", "localhost:" + p}, {"Origin", "http://localhost:" + p}}, 200},
        {{{"Host", "board.example:" + p}, {"Origin", "http://board.example:" + p}}, 200},
        {{{"Host", "localhost:9999"}, {"Origin", "http://localhost:9999"}}, 200},  // ssh -L 9999:localhost:PORT
        {{{"Host", "board.example:9999"}}, 403},
    };
    for (const Case& k : cases) {
        const auto r = c.Get("/api/config", k.headers);
        ASSERT_TRUE(r);
        std::string said;
        for (const auto& [name, value] : k.headers) said += name + ": " + value + "  ";
        EXPECT_EQ(r->status, k.status) << said << r->body;
        if (k.status == 403) {
            EXPECT_NE(r->body.find("this server"), std::string::npos) << r->body;
        }
    }
}

}  // namespace
