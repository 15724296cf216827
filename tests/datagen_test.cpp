// loa-match datagen: the file's lines are what the data format says (each position legal, its
// move legal and no capture, its result the game's from the side to move's view), the same file
// for any number of threads, a resumed run equal to one run (also after a torn game), and
// another file never touched.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "common/error.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "matches/datagen.hpp"
#include "matches/file_lock.hpp"

namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / fmt::format("loa_datagen_test_{}", getpid());
    fs::create_directories(dir);
    const fs::path path = dir / name;
    fs::remove(path);
    return path;
}

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

matches::DatagenSettings small(int games) {
    matches::DatagenSettings s;
    s.engine = matches::parse_engine_spec("name=d,preset=full,nodes=400", 0);
    s.openings = {matches::Opening{"start", loa::Position::start(), {}}};
    s.games = games;
    s.random_plies = 3;
    s.skip_plies = 2;
    s.max_abs_score = 1500;
    s.seed = 7;
    return s;
}

TEST(Datagen, EveryLineIsALegalPositionWithItsMoveScoreAndTheGamesResult) {
    const fs::path path = scratch("lines.txt");
    const matches::DatagenSettings s = small(4);
    const matches::DatagenCounts c = matches::generate_training_data(s, path.string());
    EXPECT_EQ(c.games, 4);
    EXPECT_EQ(c.black_wins + c.white_wins + c.draws, 4);
    EXPECT_EQ(c.positions, c.written + c.skipped_early + c.skipped_capture + c.skipped_decisive);
    EXPECT_EQ(c.skipped_early, 4u * 2u);  // the skip-plies of each game (the random plies are not searched)
    EXPECT_GT(c.written, 40u);

    std::istringstream in(read(path));
    std::string line;
    ASSERT_TRUE(std::getline(in, line));
    EXPECT_EQ(line, matches::datagen_header(s));
    int games = 0;
    std::uint64_t positions = 0;
    std::vector<matches::TrainingPosition> game;
    while (std::getline(in, line)) {
        if (line.starts_with("# game ")) {
            EXPECT_EQ(line, fmt::format("# game {}", games + 1));
            game.clear();
            continue;
        }
        if (line.starts_with("# end ")) {
            ++games;
            // "# end N <Black's result>": each position's result is the game's, from its side to move.
            const double black = std::stod(line.substr(line.rfind(' ') + 1));
            for (const auto& p : game) {
                const bool black_to_move = loa::parse_position(p.position).side_to_move() == loa::Colour::Black;
                EXPECT_EQ(p.result, black_to_move ? black : 1 - black) << p.position;
            }
            continue;
        }
        const matches::TrainingPosition p = matches::parse_training_line(line);
        ++positions;
        const loa::Position pos = loa::parse_position(p.position);
        bool legal = false, capture = false;
        for (const loa::Move m : loa::legal_moves(pos))
            if (loa::move_to_text(m) == p.move) {
                legal = true;
                capture = m.is_capture();
            }
        EXPECT_TRUE(legal) << line;
        EXPECT_FALSE(capture) << line;
        EXPECT_LE(std::abs(p.score), s.max_abs_score) << line;
        game.push_back(p);
    }
    EXPECT_EQ(games, 4);
    EXPECT_EQ(positions, c.written);
    fs::remove(path);
}

TEST(Datagen, TheFileIsTheSameForAnyNumberOfThreadsAndWhenResumed) {
    const fs::path one = scratch("one.txt"), two = scratch("two.txt"), resumed = scratch("resumed.txt");
    matches::DatagenSettings s = small(5);
    matches::generate_training_data(s, one.string());
    s.threads = 2;
    matches::generate_training_data(s, two.string());
    EXPECT_EQ(read(one), read(two));

    // Two games, then the run again with five: it plays the three missing.
    s.threads = 1;
    s.games = 2;
    EXPECT_EQ(matches::generate_training_data(s, resumed.string()).games, 2);
    s.games = 5;
    const matches::DatagenCounts c = matches::generate_training_data(s, resumed.string());
    EXPECT_EQ(c.resumed_games, 2);
    EXPECT_EQ(c.games, 3);
    EXPECT_EQ(read(resumed), read(one));
    // Nothing to do when the file is complete.
    EXPECT_EQ(matches::generate_training_data(s, resumed.string()).games, 0);
    EXPECT_EQ(read(resumed), read(one));

    // A game cut short by a kill (its end line missing, its last line torn) is played again.
    const std::string whole = read(one);
    const std::size_t third = whole.find("# game 3\n");
    ASSERT_NE(third, std::string::npos);
    std::ofstream(resumed, std::ios::binary | std::ios::trunc) << whole.substr(0, third + 60);
    EXPECT_EQ(matches::generate_training_data(s, resumed.string()).games, 3);
    EXPECT_EQ(read(resumed), whole);
    for (const auto& p : {one, two, resumed}) fs::remove(p);
}

TEST(Datagen, AnotherFileOrOtherSettingsOrATimedEngineAreRefused) {
    const fs::path mine = scratch("mine.txt"), theirs = scratch("theirs.txt");
    matches::DatagenSettings s = small(1);
    matches::generate_training_data(s, mine.string());
    const std::string before = read(mine);
    s.seed = 8;  // other settings: not this file's
    EXPECT_THROW(matches::generate_training_data(s, mine.string()), common::InputError);
    EXPECT_EQ(read(mine), before);
    std::ofstream(theirs) << "someone's notes\n";
    EXPECT_THROW(matches::generate_training_data(small(1), theirs.string()), common::InputError);
    EXPECT_EQ(read(theirs), "someone's notes\n");
    // Engines whose moves would depend on time or threads, external ones, none with a limit (the
    // last is refused as it is read already): refused before any file is made.
    const fs::path bad_path = scratch("bad.txt");
    for (const char* engine : {"name=t,preset=full,st=0.1", "name=t,preset=full,nodes=400,st=0.1", "name=t,preset=full,depth=3,tc=10+0.1",
                               "name=t,preset=full,threads=2,nodes=400", "name=x,cmd=/bin/true,nodes=10", "name=n,preset=full"}) {
        matches::DatagenSettings bad = small(1);
        EXPECT_THROW(
            {
                bad.engine = matches::parse_engine_spec(engine, 0);
                matches::generate_training_data(bad, bad_path.string());
            },
            common::InputError)
            << engine;
        EXPECT_FALSE(fs::exists(bad_path)) << engine;
    }
    // A file another run is writing (its lock held) is not touched.
    {
        const matches::FileLock other_run(mine.string());
        EXPECT_THROW(matches::generate_training_data(small(3), mine.string()), common::InputError);
    }
    EXPECT_EQ(read(mine), before);
    // A header cut before its newline is not mistaken for a file to resume (nor grown).
    const fs::path torn = scratch("torn.txt");
    std::ofstream(torn, std::ios::binary) << matches::datagen_header(small(1));
    EXPECT_THROW(matches::generate_training_data(small(1), torn.string()), common::InputError);
    EXPECT_EQ(read(torn), matches::datagen_header(small(1)));
    // A directory is no data file.
    EXPECT_THROW(matches::generate_training_data(small(1), fs::temp_directory_path().string()), common::InputError);
    fs::remove(torn);
    for (const char* line : {"1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b | 12 | b1-d3", "8/8 b | 1 | b1-d3 | 1",
                             "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b | x | b1-d3 | 1",
                             "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b | 12 | b1-d3 | 2"})
        EXPECT_THROW(matches::parse_training_line(line), common::InputError) << line;
    fs::remove(mine);
    fs::remove(theirs);
}

}  // namespace
