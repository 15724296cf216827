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
#include "common/file_lock.hpp"
#include "common/search/score.hpp"
#include "loa/searchers.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "matches/datagen.hpp"
#include "support/scratch.hpp"

namespace {

namespace fs = std::filesystem;
using loa::testing::read_text;
using loa::testing::scratch_file;

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
    const fs::path path = scratch_file("datagen", "lines.txt");
    const matches::DatagenSettings s = small(4);
    const matches::DatagenCounts c = matches::generate_training_data(s, path.string());
    EXPECT_EQ(c.games, 4);
    EXPECT_EQ(c.black_wins + c.white_wins + c.draws, 4);
    EXPECT_EQ(c.positions, c.written + c.skipped_early + c.skipped_capture + c.skipped_decisive + c.skipped_tactical);
    EXPECT_EQ(c.skipped_early, 4u * 2u);  // the skip-plies of each game (the random plies are not searched)
    EXPECT_GT(c.written, 40u);

    std::istringstream in(read_text(path));
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

// The position lines of a data file, in order.
std::vector<std::string> position_lines(const fs::path& path) {
    std::istringstream in(read_text(path));
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line))
        if (!line.starts_with("#")) lines.push_back(line);
    return lines;
}

TEST(Datagen, TacticalPositionsAreLeftOutUnlessKept) {
    // The same games with and without the filter: the filter only leaves lines out, exactly
    // those whose quiescence search finds a capture line better than standing pat.
    const fs::path filtered = scratch_file("datagen", "filtered.txt"), kept = scratch_file("datagen", "kept.txt");
    matches::DatagenSettings s = small(4);
    const matches::DatagenCounts without = matches::generate_training_data(s, filtered.string());
    s.keep_tactical = true;
    const matches::DatagenCounts with = matches::generate_training_data(s, kept.string());
    EXPECT_EQ(with.skipped_tactical, 0u);
    EXPECT_EQ(with.positions, without.positions);
    EXPECT_GT(without.skipped_tactical, 0u);  // there was something to leave out
    EXPECT_EQ(with.written, without.written + without.skipped_tactical);
    EXPECT_NE(read_text(filtered).substr(0, read_text(filtered).find('\n')), read_text(kept).substr(0, read_text(kept).find('\n')));  // other headers

    // A fresh searcher of the engine's settings, for each line on its own.
    const loa::SearchGame game = loa::SearchGame::from_spec(s.rules, s.engine.eval, s.engine.rps);
    search::Searcher<loa::SearchGame> quiet(game, s.engine.config);
    auto tactical = [&](const std::string& line) {
        quiet.new_game();
        const loa::Position pos = loa::parse_position(matches::parse_training_line(line).position);
        const auto [pv, value] = quiet.quiescence_line(pos);
        EXPECT_EQ(pv.empty(), value == game.evaluate(pos)) << line;
        return !pv.empty();
    };
    const std::vector<std::string> all = position_lines(kept), quiet_lines = position_lines(filtered);
    std::size_t next = 0, left_out = 0;
    for (const std::string& line : all) {
        if (next < quiet_lines.size() && line == quiet_lines[next]) {
            EXPECT_FALSE(tactical(line)) << line;
            ++next;
        } else {
            EXPECT_TRUE(tactical(line)) << line;
            ++left_out;
        }
    }
    EXPECT_EQ(next, quiet_lines.size());
    EXPECT_EQ(left_out, without.skipped_tactical);
    fs::remove(filtered);
    fs::remove(kept);
}

TEST(Datagen, DecisivePositionsAreWrittenWithTheirScoreWhenKept) {
    // The same games with and without --keep-decisive: the lines of the plain file are those of
    // the other whose |score| is within max-score, in order, and every other line is decisive:
    // beyond max-score, and a proven one (beyond every evaluation) labelled with the side's
    // win or loss.
    const fs::path plain = scratch_file("datagen", "plain.txt"), decisive = scratch_file("datagen", "decisive.txt");
    matches::DatagenSettings s = small(4);
    const matches::DatagenCounts without = matches::generate_training_data(s, plain.string());
    s.keep_decisive = true;
    const matches::DatagenCounts with = matches::generate_training_data(s, decisive.string());
    EXPECT_EQ(with.positions, without.positions);
    EXPECT_EQ(with.skipped_decisive, 0u);
    EXPECT_EQ(without.kept_decisive, 0u);
    EXPECT_GT(with.kept_decisive, 0u);  // there was something to keep
    EXPECT_EQ(with.written, without.written + with.kept_decisive);
    // Decisive and tactical: counted as decisive without the option (the first filter that
    // leaves it out), as tactical with it.
    EXPECT_EQ(without.skipped_decisive, with.kept_decisive + (with.skipped_tactical - without.skipped_tactical));
    const std::string header = read_text(decisive).substr(0, read_text(decisive).find('\n'));
    EXPECT_EQ(header, matches::datagen_header(s));
    EXPECT_TRUE(header.ends_with(", decisive kept")) << header;
    s.keep_decisive = false;
    EXPECT_EQ(read_text(plain).substr(0, read_text(plain).find('\n')), matches::datagen_header(s));
    EXPECT_EQ(matches::datagen_header(s).find("decisive"), std::string::npos);  // the header of the files made before

    const std::vector<std::string> all = position_lines(decisive), within = position_lines(plain);
    std::size_t next = 0, kept = 0, proven = 0;
    for (const std::string& line : all) {
        const matches::TrainingPosition p = matches::parse_training_line(line);
        if (next < within.size() && line == within[next]) {
            EXPECT_LE(std::abs(p.score), s.max_abs_score) << line;
            ++next;
            continue;
        }
        EXPECT_GT(std::abs(p.score), s.max_abs_score) << line;
        ++kept;
        if (std::abs(p.score) >= search::EvalLimit) {
            ++proven;
            EXPECT_EQ(p.result, p.score > 0 ? 1.0 : 0.0) << line;
        }
    }
    EXPECT_EQ(next, within.size());
    EXPECT_EQ(kept, with.kept_decisive);
    EXPECT_GT(proven, 0u);
    fs::remove(plain);
    fs::remove(decisive);
}

TEST(Datagen, TheFileIsTheSameForAnyNumberOfThreadsAndWhenResumed) {
    const fs::path one = scratch_file("datagen", "one.txt"), two = scratch_file("datagen", "two.txt"), resumed = scratch_file("datagen", "resumed.txt");
    matches::DatagenSettings s = small(5);
    matches::generate_training_data(s, one.string());
    s.threads = 2;
    matches::generate_training_data(s, two.string());
    EXPECT_EQ(read_text(one), read_text(two));

    // Two games, then the run again with five: it plays the three missing.
    s.threads = 1;
    s.games = 2;
    EXPECT_EQ(matches::generate_training_data(s, resumed.string()).games, 2);
    s.games = 5;
    const matches::DatagenCounts c = matches::generate_training_data(s, resumed.string());
    EXPECT_EQ(c.resumed_games, 2);
    EXPECT_EQ(c.games, 3);
    EXPECT_EQ(read_text(resumed), read_text(one));
    // Nothing to do when the file is complete.
    EXPECT_EQ(matches::generate_training_data(s, resumed.string()).games, 0);
    EXPECT_EQ(read_text(resumed), read_text(one));

    // A game cut short by a kill (its end line missing, its last line torn) is played again.
    const std::string whole = read_text(one);
    const std::size_t third = whole.find("# game 3\n");
    ASSERT_NE(third, std::string::npos);
    std::ofstream(resumed, std::ios::binary | std::ios::trunc) << whole.substr(0, third + 60);
    EXPECT_EQ(matches::generate_training_data(s, resumed.string()).games, 3);
    EXPECT_EQ(read_text(resumed), whole);
    for (const auto& p : {one, two, resumed}) fs::remove(p);
}

TEST(Datagen, AnInterruptedRunEndsBetweenGamesAndResumes) {
    const fs::path one = scratch_file("datagen", "uninterrupted.txt"), cut = scratch_file("datagen", "interrupted.txt");
    matches::DatagenSettings s = small(6);
    matches::generate_training_data(s, one.string());
    // Raised once the first games are written (as Ctrl-C would): the games in flight finish,
    // no other starts.
    std::atomic<bool> stop{false};
    s.stop = &stop;
    s.threads = 2;
    s.on_progress = [&](int, std::uint64_t) { stop = true; };
    const matches::DatagenCounts c = matches::generate_training_data(s, cut.string());
    EXPECT_TRUE(c.interrupted);
    EXPECT_GE(c.games, 1);
    EXPECT_LT(c.games, 6);
    EXPECT_EQ(matches::datagen_games_in(s, cut.string()), c.games);
    EXPECT_EQ(read_text(one).substr(0, read_text(cut).size()), read_text(cut));  // the first games, whole
    s.stop = nullptr;
    s.on_progress = nullptr;
    const matches::DatagenCounts rest = matches::generate_training_data(s, cut.string());
    EXPECT_FALSE(rest.interrupted);
    EXPECT_EQ(rest.resumed_games + rest.games, 6);
    EXPECT_EQ(read_text(cut), read_text(one));
    fs::remove(one);
    fs::remove(cut);
}

matches::DatagenSettings part_of(matches::DatagenSettings s, int first, int last) {
    s.part = true;
    s.first_game = first;
    s.games = last;
    return s;
}

TEST(Datagen, PartsJoinedInOrderAreTheFileOfOneRun) {
    const fs::path one = scratch_file("datagen", "whole.txt"), a = scratch_file("datagen", "part-a.txt"), b = scratch_file("datagen", "part-b.txt"), joined = scratch_file("datagen", "joined.txt"),
                   base = scratch_file("datagen", "base.txt");
    const matches::DatagenSettings whole = small(5);
    matches::generate_training_data(whole, one.string());
    matches::generate_training_data(part_of(whole, 0, 2), a.string());
    matches::DatagenSettings second = part_of(whole, 2, 5);
    second.threads = 2;  // a part is the same on any number of threads too
    EXPECT_EQ(matches::generate_training_data(second, b.string()).games, 3);
    EXPECT_NE(read_text(a).substr(0, read_text(a).find('\n')), matches::datagen_header(whole));  // a part says it is one
    // A part is not a whole run's file, nor another part's.
    EXPECT_THROW(matches::generate_training_data(whole, a.string()), common::InputError);
    EXPECT_THROW(matches::generate_training_data(part_of(whole, 0, 3), a.string()), common::InputError);
    EXPECT_EQ(matches::datagen_games_in(part_of(whole, 2, 5), b.string()), 3);

    const matches::JoinedParts all = matches::join_datagen_parts(whole, {a.string(), b.string()}, joined.string());
    EXPECT_EQ(read_text(joined), read_text(one));
    EXPECT_EQ(all.games, 5);
    EXPECT_EQ(all.part_games, 5);
    EXPECT_EQ(all.black_wins + all.white_wins + all.draws, 5);
    EXPECT_EQ(all.positions, position_lines(one).size());
    // Onto a file holding the first games already: the parts of the rest.
    matches::DatagenSettings first_two = whole;
    first_two.games = 2;
    matches::generate_training_data(first_two, base.string());
    // (its last game torn by a kill: cut off, as a resume does)
    const std::string two_games = read_text(base);
    std::ofstream(base, std::ios::binary | std::ios::app) << "# game 3\n1bbbb";
    const matches::JoinedParts rest = matches::join_datagen_parts(whole, {b.string()}, base.string());
    EXPECT_EQ(rest.games, 5);
    EXPECT_EQ(rest.part_games, 3);
    EXPECT_EQ(read_text(base), read_text(one));
    EXPECT_EQ(read_text(one).substr(0, two_games.size()), two_games);

    // A part cut by a kill is resumed from its games, and is the same part.
    const fs::path resumed = scratch_file("datagen", "part-resumed.txt");
    const std::string b_text = read_text(b);
    const std::size_t fourth = b_text.find("# game 4\n");
    ASSERT_NE(fourth, std::string::npos);
    std::ofstream(resumed, std::ios::binary) << b_text.substr(0, fourth + 40);
    EXPECT_EQ(matches::datagen_games_in(part_of(whole, 2, 5), resumed.string()), 1);
    const matches::DatagenCounts again = matches::generate_training_data(part_of(whole, 2, 5), resumed.string());
    EXPECT_EQ(again.resumed_games, 1);
    EXPECT_EQ(again.games, 2);
    EXPECT_EQ(read_text(resumed), b_text);
    fs::remove(resumed);

    // Refused, touching nothing: a gap, a part twice, parts ending short, a torn part, a
    // symbolic link as out, a part of other settings, an out of other settings.
    const fs::path none = scratch_file("datagen", "none.txt");
    const std::string whole_text = read_text(one);
    auto refused = [&](const std::vector<fs::path>& parts, const fs::path& out, const matches::DatagenSettings& settings) {
        const bool existed = fs::exists(out);
        const std::string before = existed ? read_text(out) : "";
        std::vector<std::string> names;
        for (const fs::path& p : parts) names.push_back(p.string());
        EXPECT_THROW(matches::join_datagen_parts(settings, names, out.string()), common::InputError) << out;
        EXPECT_EQ(fs::exists(out), existed) << out;
        if (existed) {
            EXPECT_EQ(read_text(out), before) << out;
        }
        for (const auto& e : fs::directory_iterator(out.parent_path()))
            EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();  // no temporary left
    };
    refused({b}, none, whole);
    refused({a, a}, none, whole);
    refused({a}, none, whole);
    refused({a, b}, one, whole);  // one holds all five: the parts begin at game 1, game 6 is due
    const std::string b_whole = read_text(b);
    std::ofstream(b, std::ios::binary | std::ios::trunc) << b_whole.substr(0, b_whole.size() - 30);  // its last game torn
    refused({a, b}, none, whole);
    // A link as --out: renaming over it would replace the link.
    const fs::path link = scratch_file("datagen", "link.txt");
    fs::create_symlink(base, link);
    const std::string base_text = read_text(base);
    refused({b}, link, whole);
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(read_text(base), base_text);
    fs::remove(link);
    matches::DatagenSettings other = whole;
    other.seed = 8;
    refused({a}, none, other);
    std::ofstream(none) << "someone's notes\n";
    refused({a}, none, whole);
    EXPECT_EQ(read_text(one), whole_text);
    for (const auto& p : {one, a, b, joined, base, none}) fs::remove(p);
}

TEST(Datagen, AnotherFileOrOtherSettingsOrATimedEngineAreRefused) {
    const fs::path mine = scratch_file("datagen", "mine.txt"), theirs = scratch_file("datagen", "theirs.txt");
    matches::DatagenSettings s = small(1);
    matches::generate_training_data(s, mine.string());
    const std::string before = read_text(mine);
    s.seed = 8;  // other settings: not this file's
    EXPECT_THROW(matches::generate_training_data(s, mine.string()), common::InputError);
    EXPECT_EQ(read_text(mine), before);
    std::ofstream(theirs) << "someone's notes\n";
    EXPECT_THROW(matches::generate_training_data(small(1), theirs.string()), common::InputError);
    EXPECT_EQ(read_text(theirs), "someone's notes\n");
    // Engines whose moves would depend on time or threads, external ones, none with a limit (the
    // last is refused as it is read already): refused before any file is made.
    const fs::path bad_path = scratch_file("datagen", "bad.txt");
    for (const char* engine : {"name=t,preset=full,st=0.1", "name=t,preset=full,nodes=400,st=0.1", "name=t,preset=full,depth=3,tc=10+0.1",
                               "name=t,preset=full,threads=2,nodes=400", "name=x,cmd=/bin/true,nodes=10", "name=n,preset=full",
                               // the tactical filter needs a quiescence search
                               "name=m,preset=mcts,nodes=400", "name=q,preset=full,qsearch=off,nodes=400"}) {
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
    {
        // An MCTS score is clamped at 29871, where a proof begins: no decisive positions from it.
        matches::DatagenSettings mcts = small(1);
        mcts.engine = matches::parse_engine_spec("name=m,preset=mcts,nodes=400", 0);
        mcts.keep_tactical = true;
        mcts.keep_decisive = true;
        EXPECT_THROW(matches::generate_training_data(mcts, bad_path.string()), common::InputError);
        EXPECT_FALSE(fs::exists(bad_path));
    }
    // A file another run is writing (its lock held) is not touched.
    {
        const common::FileLock other_run(mine.string());
        EXPECT_THROW(matches::generate_training_data(small(3), mine.string()), common::InputError);
    }
    EXPECT_EQ(read_text(mine), before);
    // A header cut before its newline is not mistaken for a file to resume (nor grown).
    const fs::path torn = scratch_file("datagen", "torn.txt");
    std::ofstream(torn, std::ios::binary) << matches::datagen_header(small(1));
    EXPECT_THROW(matches::generate_training_data(small(1), torn.string()), common::InputError);
    EXPECT_EQ(read_text(torn), matches::datagen_header(small(1)));
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
