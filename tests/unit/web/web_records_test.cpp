// WebRecords: the board's records directory: files listed, records replayed, standings, no escape.
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/file_lock.hpp"
#include "loa/notation.hpp"
#include "matches/match.hpp"
#include "matches/records.hpp"
#include "matches/state.hpp"
#include "matches/web/server.hpp"
#include "support/small_match.hpp"
#include "support/web_helpers.hpp"

namespace {

namespace fs = std::filesystem;
using matches::web::fixtures::body_of;
using matches::web::fixtures::RunningServer;
using nlohmann::json;

class WebRecords : public testing::Test {
protected:
    void SetUp() override {
        fs::create_directories(dir / "sub");
        const matches::MatchSettings settings = matches::fixtures::small_match(1);
        result = matches::run_match(settings, {});
        std::ofstream pgn(dir / "games.pgn");
        for (const matches::GameRecord& g : result.games) matches::write_record(pgn, g, "web test");
        matches::StateFile state((dir / "run.json.state").string(), settings);
        for (const matches::GameRecord& g : result.games) state.append(g);
        std::ofstream(dir / "sub" / "inner.pgn") << "";
        std::ofstream(dir / "not-a-result.json") << R"({"hello": 1})";
        std::ofstream(dir.string() + "-outside.pgn") << "[Event \"secret\"]\n\n1. b1-d3 *\n";
        std::error_code ignored;
        fs::create_symlink(dir.string() + "-outside.pgn", dir / "link.pgn", ignored);
        std::ofstream(dir / "run.json.state.live")
            << R"({"games": [{"game": 7, "black": "a", "white": "b", "start": "startpos", "moves": ["b1-d3"]}]})";
        settings_.records_dir = dir.string();
    }
    void TearDown() override {  // nothing left behind beside the test's directory either
        std::error_code ignored;
        fs::remove(dir.string() + "-outside.pgn", ignored);
    }
    matches::web::fixtures::TestDirectory directory{"web-records"};  // one a test: CTest runs them at once
    const fs::path& dir = directory.path();
    matches::MatchResult result;
    matches::web::ServerSettings settings_;
};

TEST_F(WebRecords, FilesAreListedAndRecordsReplayed) {
    RunningServer s(settings_);
    auto c = s.client();
    const json files = body_of(c.Get("/api/files"));
    std::map<std::string, std::string> kinds;
    for (const json& f : files["files"]) kinds[f["name"]] = f["kind"];
    EXPECT_EQ(kinds["games.pgn"], "records");
    EXPECT_EQ(kinds["run.json.state"], "match");
    EXPECT_FALSE(kinds.contains("link.pgn"));  // it leads out of the directory
    EXPECT_FALSE(kinds.contains("sub"));
    const json records = body_of(c.Get("/api/records/games.pgn"));
    ASSERT_EQ(records["games"].size(), result.games.size());
    for (std::size_t i = 0; i < result.games.size(); ++i) {
        const json& g = records["games"][i];
        EXPECT_EQ(g["moves"].size(), result.games[i].moves.size()) << i;
        EXPECT_EQ(g["tags"]["Result"], result.games[i].result_text()) << i;
        EXPECT_EQ(g["tags"]["White"], result.games[i].white) << i;
    }
    // The same file opened in the page and sent as text.
    std::ifstream in(dir / "games.pgn");
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    EXPECT_EQ(body_of(c.Post("/api/records", text, "text/plain"))["games"], records["games"]);
    const auto bad = c.Post("/api/records", "[Event \"x\"]\n\n1. b1-b2 *\n", "text/plain");
    ASSERT_TRUE(bad);
    EXPECT_EQ(bad->status, 400);
    EXPECT_NE(body_of(bad)["error"].get<std::string>().find("game 1"), std::string::npos);
}

TEST_F(WebRecords, NoNameReadsAFileOutsideTheDirectory) {
    RunningServer s(settings_);
    auto c = s.client();
    const std::string outside = dir.filename().string() + "-outside.pgn";  // a real file beside the directory
    const std::vector<std::string> attempts = {
        "/api/records/..%2F" + outside, "/api/records/%2E%2E%2F" + outside, "/api/records/..%5C" + outside,
        "/api/records/../" + outside,   "/api/records/..",                  "/api/records/link.pgn",
        "/api/records/sub%2Finner.pgn", "/api/records/.hidden",             "/api/records/%2Fetc%2Fpasswd",
        "/api/match/..%2F..%2Fetc%2Fpasswd", "/api/treesize/%00",           "/api/records/nothere.pgn"};
    for (const std::string& path : attempts) {
        const auto r = c.Get(path);
        ASSERT_TRUE(r) << path;
        EXPECT_EQ(r->status, 404) << path;
        EXPECT_EQ(r->body.find("secret"), std::string::npos) << path;
    }
    // Without --records no file is served at all.
    RunningServer bare({});
    auto b = bare.client();
    const auto r = b.Get("/api/files");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 400);
    EXPECT_NE(body_of(r)["error"].get<std::string>().find("--records"), std::string::npos);
}

TEST_F(WebRecords, AMatchIsReadFromItsStateFile) {
    RunningServer s(settings_);
    auto c = s.client();
    json m = body_of(c.Get("/api/match/run.json.state"));
    // No run holds this state file: it was stopped, and its live file is stale.
    EXPECT_FALSE(m["running"]);
    EXPECT_TRUE(m["in_progress"].empty());
    const common::FileLock run((dir / "run.json.state").string());  // now one does
    m = body_of(c.Get("/api/match/run.json.state"));
    EXPECT_TRUE(m["running"]);
    EXPECT_EQ(m["played_games"], result.games.size());
    ASSERT_EQ(m["pairings"].size(), 1u);
    const matches::PairingStats& p = result.pairings[0];
    EXPECT_EQ(m["pairings"][0]["wins"], p.games.wins);
    EXPECT_EQ(m["pairings"][0]["draws"], p.games.draws);
    EXPECT_EQ(m["pairings"][0]["losses"], p.games.losses);
    EXPECT_EQ(m["pairings"][0]["pentanomial"], json(p.pairs.count));
    // The latest games, without their moves.
    ASSERT_FALSE(m["games"].empty());
    EXPECT_FALSE(m["games"][0].contains("moves"));
    // One game whole, as a records file's game (Watch opens it in Replay): its moves are the
    // run's record of it; a game the match does not have is 404.
    const int number = m["games"][0]["game"];
    const json game = body_of(c.Get(fmt::format("/api/match/run.json.state/game/{}", number)));
    const auto played = std::find_if(result.games.begin(), result.games.end(), [&](const auto& g) { return g.index + 1 == number; });
    ASSERT_NE(played, result.games.end());
    ASSERT_EQ(game["moves"].size(), played->moves.size());
    for (std::size_t i = 0; i < played->moves.size(); ++i) EXPECT_EQ(game["moves"][i], loa::move_to_text(played->moves[i])) << i;
    EXPECT_EQ(game["tags"]["Black"], played->black);
    EXPECT_EQ(game["tags"]["Result"], played->result_text());
    const auto missing = c.Get("/api/match/run.json.state/game/999");
    ASSERT_TRUE(missing);
    EXPECT_EQ(missing->status, 404);
    // The games in play, from the runner's live file, drawn by the server.
    ASSERT_EQ(m["in_progress"].size(), 1u);
    EXPECT_EQ(m["in_progress"][0]["game"], 7);
    EXPECT_EQ(m["in_progress"][0]["plies"], 1);
    EXPECT_EQ(m["in_progress"][0]["pieces"]["d3"], "b");
    EXPECT_FALSE(m["in_progress"][0]["pieces"].contains("b1"));
    EXPECT_EQ(m["in_progress"][0]["side_to_move"], "w");
    // With its start and moves, which Watch's "Analyse in Play" opens.
    EXPECT_EQ(m["in_progress"][0]["moves"], json::array({"b1-d3"}));
    EXPECT_FALSE(m["in_progress"][0]["start"].get<std::string>().empty());
    // A torn last line (the runner writing it now) is skipped.
    std::ofstream(dir / "run.json.state", std::ios::app) << R"({"game": 99, "pair)";
    EXPECT_EQ(body_of(c.Get("/api/match/run.json.state"))["played_games"], result.games.size());
    // A state file of fewer than two engines (hand-made or damaged) is refused, not counted.
    {
        std::ifstream in(dir / "run.json.state");
        std::string settings_line, game_line;
        std::getline(in, settings_line);
        std::getline(in, game_line);
        json settings = json::parse(settings_line);
        settings["engines"] = json::array({settings["engines"][0]});
        std::ofstream(dir / "one.state") << settings.dump() << '\n' << game_line << '\n';
        const auto one = c.Get("/api/match/one.state");
        ASSERT_TRUE(one);
        EXPECT_EQ(one->status, 400);
        EXPECT_NE(body_of(one)["error"].get<std::string>().find("two engines"), std::string::npos);
    }
    const auto wrong = c.Get("/api/match/not-a-result.json");
    ASSERT_TRUE(wrong);
    EXPECT_EQ(wrong->status, 400);
    const auto tree = c.Get("/api/treesize/not-a-result.json");
    ASSERT_TRUE(tree);
    EXPECT_EQ(tree->status, 400);
}

}  // namespace
