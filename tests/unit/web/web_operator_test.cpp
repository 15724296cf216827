// WebOperator: the operator's mode's server side through a real socket: games saved after
// every move survive a restart of the server, stale or bad saves are refused, files the
// server did not make are never replaced, and a pondering search turns into the move's.
#include <gtest/gtest.h>
#include <httplib.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "support/web_helpers.hpp"

namespace {

namespace fs = std::filesystem;
using matches::web::fixtures::body_of;
using matches::web::fixtures::parse_events;
using matches::web::fixtures::RunningServer;
using nlohmann::json;

class WebOperator : public testing::Test {
protected:
    void SetUp() override { settings.records_dir = dir.string(); }
    // A game 5 minutes + 3 s for the engine (Black), 10 minutes for the opponent.
    static json game(const json& moves = json::array(), const json& after = json::array()) {
        return {{"revision", 0},
                {"event", "Computer Olympiad"},
                {"round", "3"},
                {"opponent", "Rival"},
                {"engine", "loa (full)"},
                {"engine_side", "b"},
                {"moves", moves},
                {"clocks", {{"b", {{"base_ms", 300'000}, {"increment_ms", 3'000}}}, {"w", {{"base_ms", 600'000}, {"increment_ms", 0}}}}},
                {"clock_after_ms", after},
                {"left_ms", {{"b", 300'000}, {"w", 600'000}}},
                {"running", moves.empty() ? "" : moves.size() % 2 ? "w" : "b"}};
    }
    static std::string post(httplib::Client& c, const std::string& path, const json& body, int* status = nullptr) {
        const auto r = c.Post(path, body.dump(), "application/json");
        EXPECT_TRUE(r);
        if (status) *status = r ? r->status : 0;
        return r ? r->body : "";
    }
    matches::web::fixtures::TestDirectory directory{"web-operator"};
    const fs::path& dir = directory.path();
    matches::web::ServerSettings settings;
};

TEST_F(WebOperator, AGameIsSavedAfterEveryMoveAndSurvivesARestart) {
    std::string id;
    json saved;
    {
        RunningServer s(settings);
        auto c = s.client();
        int status = 0;
        saved = json::parse(post(c, "/api/operator", game(), &status));
        ASSERT_EQ(status, 200) << saved;
        id = saved["id"];
        EXPECT_EQ(saved["revision"], 1);
        EXPECT_TRUE(fs::is_regular_file(dir / "operator" / (id + ".json")));
        // Two moves later, clocks and all.
        json next = game({"b1-d3", "a3xd3"}, {298'000, 590'000});
        next["revision"] = 1;
        next["left_ms"] = {{"b", 298'000}, {"w", 590'000}};
        saved = json::parse(post(c, "/api/operator/" + id, next, &status));
        ASSERT_EQ(status, 200) << saved;
        EXPECT_EQ(saved["revision"], 2);
        // A page that did not see the last save (another tab, a page from before a restart)
        // is refused rather than allowed to throw the newer state away.
        const std::string stale = post(c, "/api/operator/" + id, next, &status);
        EXPECT_EQ(status, 409) << stale;
        EXPECT_NE(stale.find("saved elsewhere"), std::string::npos) << stale;
        // A second game made at once (within the same second, mostly) gets an id of its own.
        const json second = json::parse(post(c, "/api/operator", game(), &status));
        ASSERT_EQ(status, 200);
        EXPECT_NE(second["id"], id);
        EXPECT_TRUE(second["id"].get<std::string>() > id) << second["id"] << " after " << id;
    }
    RunningServer again(settings);  // the server restarted on the same directory
    auto c = again.client();
    const json loaded = body_of(c.Get("/api/operator/" + id));
    EXPECT_EQ(loaded["moves"], json({"b1-d3", "a3xd3"}));
    EXPECT_EQ(loaded["clock_after_ms"], json({298'000, 590'000}));
    EXPECT_EQ(loaded["left_ms"]["w"], 590'000);
    EXPECT_EQ(loaded["running"], "b");
    EXPECT_EQ(loaded["revision"], 2);
    EXPECT_EQ(loaded["saved_at_ms"], saved["saved_at_ms"]);
    EXPECT_GE(loaded["now_ms"].get<double>(), loaded["saved_at_ms"].get<double>());
    const json list = body_of(c.Get("/api/operator"));
    ASSERT_EQ(list["games"].size(), 2u);
    EXPECT_EQ(list["games"][1]["id"], id);  // the newest first
    EXPECT_EQ(list["games"][1]["plies"], 2);
    EXPECT_EQ(list["games"][1]["opponent"], "Rival");
    EXPECT_EQ(list["games"][0]["plies"], 0);
    // A ponderhit is a few bytes: a large body is refused before it is read.
    int status = 0;
    (void)post(c, "/api/ponderhit", json{{"id", 1}, {"padding", std::string(1000, 'x')}}, &status);
    EXPECT_EQ(status, 413);
}

TEST_F(WebOperator, BadGamesAreRefusedWithTheFieldNamed) {
    RunningServer s(settings);
    auto c = s.client();
    const auto refused = [&](const json& body, const std::string& words, int expected = 400) {
        int status = 0;
        const std::string reply = post(c, "/api/operator", body, &status);
        EXPECT_EQ(status, expected) << body;
        EXPECT_NE(reply.find(words), std::string::npos) << reply;
    };
    refused(game({"b1-b5"}, {1}), "b1-b5");
    refused(game({"b1-d3"}, json::array()), "clock_after_ms");
    json g = game();
    g["clocks"]["w"].erase("base_ms");
    refused(g, "clocks.w.base_ms");
    g = game();
    g["engine_side"] = "x";
    refused(g, "engine_side");
    g = game();
    g["event"] = std::string(300, 'e');
    refused(g, "event");
    g = game({"b1-d3"}, {1000});
    g["ending"] = {{"resigned", "w"}};
    refused(g, "running");  // a clock runs in a game that is over
    g["running"] = "";
    g["ending"]["draw_agreed"] = true;
    refused(g, "exclude");
    g = game();
    g["revision"] = 4;
    refused(g, "revision");
    refused(json::array(), "object");
    int status = 0;
    (void)post(c, "/api/operator/20260101-000000", game(), &status);
    EXPECT_EQ(status, 404);
    (void)post(c, "/api/operator/..%2Fsecret", game(), &status);
    EXPECT_EQ(status, 404);
    EXPECT_FALSE(fs::exists(dir / "operator" / "20260101-000000.json"));
    // Without a records directory there is nowhere to save: said so.
    RunningServer bare({});
    auto b = bare.client();
    const std::string reply = post(b, "/api/operator", game(), &status);
    EXPECT_EQ(status, 400);
    EXPECT_NE(reply.find("--records"), std::string::npos) << reply;
}

TEST_F(WebOperator, AFileTheServerDidNotMakeIsNeverReplaced) {
    fs::create_directories(dir / "operator");
    const fs::path foreign = dir / "operator" / "20260101-000000.json";
    std::ofstream(foreign) << R"({"revision": 1, "mine": "keep me"})";
    RunningServer s(settings);
    auto c = s.client();
    json next = game();
    next["revision"] = 1;
    int status = 0;
    const std::string reply = post(c, "/api/operator/20260101-000000", next, &status);
    EXPECT_EQ(status, 400) << reply;
    std::ifstream in(foreign);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), R"({"revision": 1, "mine": "keep me"})");
    EXPECT_EQ(body_of(c.Get("/api/operator"))["games"].size(), 0u);  // not listed either
}

// The engine thinks on the opponent's time: the search runs unbounded until the ponderhit,
// then as the timed search of its move (its plan counted from its start), and ends with a move.
TEST_F(WebOperator, APonderingSearchBecomesTheMovesSearchOnAHit) {
    RunningServer s(settings);
    std::atomic<long long> ponder_id{-1};
    std::mutex mutex;  // of the stream, read here while the reader appends to it
    std::string stream;
    std::thread search([&] {
        auto c = s.client();
        (void)c.Get("/api/search?moves=b1-d3,a3xd3&btime=4000&wtime=4000&ponder=1", [&](const char* data, std::size_t size) {
            const std::lock_guard guard(mutex);
            stream.append(data, size);
            const auto at = stream.find("event: ponder\ndata: ");
            if (at != std::string::npos && ponder_id < 0) {
                const auto end = stream.find('\n', at + 20);
                if (end != std::string::npos) ponder_id = json::parse(stream.substr(at + 20, end - at - 20))["id"].get<long long>();
            }
            return true;
        });
    });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (ponder_id < 0 && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (ponder_id < 0) {
        search.detach();  // (a failed test: the server's stop ends its stream)
        const std::lock_guard guard(mutex);
        FAIL() << "no ponder event: " << stream;
    }
    // Pondering well past what 4 s on the clock allows a move: no move comes meanwhile.
    std::this_thread::sleep_for(std::chrono::milliseconds(1200));
    auto c = s.client();
    {
        const std::lock_guard guard(mutex);
        EXPECT_EQ(stream.find("event: bestmove"), std::string::npos);
    }
    const auto hit_at = std::chrono::steady_clock::now();
    const json hit = body_of(c.Post("/api/ponderhit", json{{"id", ponder_id.load()}}.dump(), "application/json"));
    EXPECT_EQ(hit["hit"], true);
    search.join();
    const double after_hit_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - hit_at).count();
    EXPECT_LT(after_hit_ms, 1000) << "the time spent pondering is a head start";
    const auto events = parse_events(stream);
    ASSERT_FALSE(events.empty());
    ASSERT_EQ(events.back().first, "bestmove");
    const std::string move = events.back().second["move"];
    const json position = body_of(c.Post("/api/game", json{{"moves", {"b1-d3", "a3xd3"}}}.dump(), "application/json"));
    bool legal = false;
    for (const json& m : position["legal"]) legal = legal || m["text"] == move;
    EXPECT_TRUE(legal) << move << " is Black's move in the position pondered";
    // The search has ended: its id names nothing now; ponder needs a clock.
    const auto gone = c.Post("/api/ponderhit", json{{"id", ponder_id.load()}}.dump(), "application/json");
    ASSERT_TRUE(gone);
    EXPECT_EQ(gone->status, 404);
    const auto no_clock = c.Get("/api/search?ponder=1");
    ASSERT_TRUE(no_clock);
    EXPECT_EQ(no_clock->status, 400);
}

}  // namespace
