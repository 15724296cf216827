// Realization probabilities learnt from game records (matches/realization_learning.hpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "common/error.hpp"
#include "common/search/realization.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/realization.hpp"
#include "matches/game_runner.hpp"
#include "matches/realization_learning.hpp"
#include "matches/records.hpp"

namespace matches {
namespace {

TEST(RealizationLearning, CountsEveryMoveAfterTheOpeningAndThePlayedOne) {
    // A record of 9 plies whose first 3 are the opening: 6 positions are counted.
    GameRecord record;
    record.start = loa::Position::start();
    record.opening_plies = 3;
    record.outcome = loa::Outcome::Draw;
    loa::Position pos = record.start;
    std::vector<std::uint64_t> available(loa::RealizationCategoryCount, 0), played(loa::RealizationCategoryCount, 0);
    for (int ply = 0; ply < 9; ++ply) {
        loa::MoveList moves;
        loa::generate_moves(pos, moves);
        const loa::Move m = moves[static_cast<std::size_t>(ply * 7) % moves.size()];
        if (ply >= 3) {
            for (const loa::Move legal : moves) ++available[static_cast<std::size_t>(loa::realization_category(pos, legal))];
            ++played[static_cast<std::size_t>(loa::realization_category(pos, m))];
        }
        record.moves.push_back(m);
        pos.make(m);
    }
    const std::string path = ::testing::TempDir() + "rps-records.pgn";
    {
        std::ofstream out(path);
        write_record(out, record, "test");
        write_record(out, record, "test");  // twice: every count doubles
    }
    RealizationLearning settings;
    settings.record_files = {path};
    const auto p = learn_realization(settings);
    EXPECT_EQ(p.games, 2u);
    EXPECT_EQ(p.positions, 12u);
    for (std::size_t c = 0; c < available.size(); ++c) {
        EXPECT_EQ(p.available[c], 2 * available[c]) << c;
        EXPECT_EQ(p.played[c], 2 * played[c]) << c;
    }
    EXPECT_NE(realization_summary(p).find("2 games, 12 positions"), std::string::npos);

    settings.min_ply = 8;  // only the last position
    EXPECT_EQ(learn_realization(settings).positions, 2u);
    settings.min_ply = 9;  // none: an error, not an empty table
    EXPECT_THROW(learn_realization(settings), common::InputError);
    settings.record_files = {path + ".missing"};
    EXPECT_THROW(learn_realization(settings), common::InputError);
    std::remove(path.c_str());
}

}  // namespace
}  // namespace matches
