// Rules regression on complete game records from Winands' thesis (appendices E and F): every
// move is legal, and the game ends exactly at the last recorded move with the listed result.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "loa/game.hpp"
#include "loa/notation.hpp"

namespace loa {
namespace {

const std::filesystem::path GamesDir = std::filesystem::path(LOA_TEST_DATA_DIR) / "thesis-games";

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

struct Expected {
    int plies;
    std::string result;
};

// The README lists "file: plies=N result=w wins|b wins|ongoing".
std::map<std::string, Expected> expected_results() {
    std::map<std::string, Expected> out;
    const std::string readme = read_file(GamesDir / "README.md");
    const std::regex line(R"((\S+\.txt): plies=(\d+) result=(.+))");
    for (std::sregex_iterator it(readme.begin(), readme.end(), line), end; it != end; ++it)
        out[(*it)[1]] = {std::stoi((*it)[2]), (*it)[3]};
    return out;
}

std::string result_text(const GameResult& r) {
    switch (r.outcome) {
        case Outcome::BlackWins: return "b wins";
        case Outcome::WhiteWins: return "w wins";
        case Outcome::Draw: return "draw";
        case Outcome::Ongoing: return "ongoing";
    }
    return "?";
}

TEST(ThesisGames, EveryRecordReplaysToItsResult) {
    const auto expected = expected_results();
    ASSERT_EQ(expected.size(), 16u);
    for (const auto& [file, want] : expected) {
        SCOPED_TRACE(file);
        Game game;
        const std::string text = read_file(GamesDir / file);
        ASSERT_FALSE(text.empty());
        const auto moves = split_move_list(text);
        for (std::size_t i = 0; i < moves.size(); ++i) {
            ASSERT_FALSE(game.over()) << "game over before ply " << i + 1;
            ASSERT_NO_THROW(game.play(moves[i])) << "ply " << i + 1 << ": " << moves[i];
            // The notation in the record says which moves capture; ours must agree.
            EXPECT_EQ(move_to_text(game.moves().back()), moves[i]);
        }
        EXPECT_EQ(game.ply(), want.plies);
        EXPECT_EQ(result_text(game.result()), want.result);
    }
}

}  // namespace
}  // namespace loa
