// Move categories and realization probabilities (loa/realization.hpp). The categories are
// checked against features counted square by square from the board, not with the bitboard code
// they test.
#include <gtest/gtest.h>

#include <cmath>

#include "common/error.hpp"
#include "common/search/realization.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/realization.hpp"
#include "matches/game_runner.hpp"
#include "matches/records.hpp"
#include "support/test_positions.hpp"

namespace loa {
namespace {

// The ring of a square from its file and rank: how many steps it lies out from the centre four.
int ring_by_hand(int file, int rank) {
    const double df = std::abs(file - 3.5) - 0.5, dr = std::abs(rank - 3.5) - 0.5;
    return static_cast<int>(std::max(df, dr));
}

int own_neighbours_by_hand(const Position& pos, Square around, Square excluded) {
    int n = 0;
    for (int df = -1; df <= 1; ++df)
        for (int dr = -1; dr <= 1; ++dr) {
            const int f = file_of(around) + df, r = rank_of(around) + dr;
            if ((df == 0 && dr == 0) || !on_board(f, r)) continue;
            const Square s = make_square(f, r);
            if (s != excluded && (pos.pieces(pos.side_to_move()) & square_bb(s))) ++n;
        }
    return n;
}

TEST(Realization, CategoriesFromTheBoard) {
    // b1-b3 from the start: quiet, ring 3 to ring 2, no own piece beside b3, one (c1) beside b1.
    const Position start = Position::start();
    const Move b1b3 = parse_move(start, "b1-b3");
    EXPECT_EQ(realization_category(start, b1b3), ((0 * 4 + 3) * 4 + 2) * 12 + 0 * 3 + 1);
    EXPECT_EQ(describe_realization_category(realization_category(start, b1b3)),
              "quiet, ring 3 -> 2, 0 own at to, 1 own left at from");
    int checked = 0, captures = 0;
    std::vector<bool> seen(RealizationCategoryCount, false);
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        const Game game = testing::random_game(seed, 60);
        const Position& pos = game.position();
        if (game.over()) continue;
        MoveList moves;
        generate_moves(pos, moves);
        for (const Move m : moves) {
            if (m.is_pass()) continue;
            const int c = realization_category(pos, m);
            ASSERT_GE(c, 0);
            ASSERT_LT(c, RealizationCategoryCount);
            seen[static_cast<std::size_t>(c)] = true;
            const bool capture = (pos.pieces(~pos.side_to_move()) & square_bb(m.to())) != 0;
            const int expected = (((capture ? 1 : 0) * 4 + ring_by_hand(file_of(m.from()), rank_of(m.from()))) * 4 +
                                  ring_by_hand(file_of(m.to()), rank_of(m.to()))) * 12 +
                                 std::min(3, own_neighbours_by_hand(pos, m.to(), m.from())) * 3 +
                                 std::min(2, own_neighbours_by_hand(pos, m.from(), m.from()));
            EXPECT_EQ(c, expected) << pos.to_text() << " " << move_to_text(m);
            ++checked;
            captures += capture;
        }
    }
    EXPECT_GT(checked, 500);
    EXPECT_GT(captures, 20);
    EXPECT_GT(std::count(seen.begin(), seen.end(), true), 60);
}

TEST(Realization, JsonRoundTripAndBadFilesRejected) {
    RealizationProbabilities p;
    p.available.assign(RealizationCategoryCount, 0);
    p.played.assign(RealizationCategoryCount, 0);
    p.available[5] = 40;
    p.played[5] = 10;
    p.available[200] = 60;
    p.played[200] = 0;
    p.games = 3;
    p.positions = 10;
    p.compute();
    // Mean 10 / 100; category 5: (10 + 10 * 0.1) / (40 + 10); unseen categories: the mean.
    EXPECT_DOUBLE_EQ(p.probability[5], 11.0 / 50.0);
    EXPECT_DOUBLE_EQ(p.probability[200], 1.0 / 70.0);
    EXPECT_DOUBLE_EQ(p.probability[7], 0.1);
    const RealizationProbabilities back = parse_realization_json(realization_to_json(p));
    EXPECT_EQ(back.available, p.available);
    EXPECT_EQ(back.played, p.played);
    EXPECT_EQ(back.probability, p.probability);
    EXPECT_EQ(back.games, 3u);

    auto broken = [&](auto change) {
        RealizationProbabilities q = p;
        change(q);
        return realization_to_json(q);
    };
    EXPECT_THROW(parse_realization_json(broken([](auto& q) { q.probability.pop_back(); })), common::InputError);
    EXPECT_THROW(parse_realization_json(broken([](auto& q) { q.probability[3] = 0; })), common::InputError);
    EXPECT_THROW(parse_realization_json(broken([](auto& q) { q.probability[3] = 1.5; })), common::InputError);
    EXPECT_THROW(parse_realization_json(broken([](auto& q) { q.played[5] = 41; })), common::InputError);
    EXPECT_THROW(parse_realization_json("{\"format\": \"something else\"}"), common::InputError);
    EXPECT_THROW(parse_realization_json("not json"), common::InputError);
    EXPECT_THROW(load_realization_file("/nonexistent/rps.json"), common::InputError);
}

TEST(Realization, DepthCostsAreLogProbabilityInBaseUnitsWithinTheirBounds) {
    RealizationProbabilities p;
    p.probability.assign(RealizationCategoryCount, 0.25);
    p.probability[1] = 0.5;
    p.probability[2] = 1.0 / 64;
    p.probability[3] = 1e-9;
    p.probability[4] = 1.0;
    search::SearchConfig c;
    c.erps_base = 25;
    c.erps_min = 25;
    c.erps_max = 250;
    const auto costs = search::realization_depth_costs(p.probability, c);
    static_assert(search::OnePly == 16);
    EXPECT_EQ(costs[0], 16);  // P = base: one ply
    EXPECT_EQ(costs[1], 8);   // half a ply
    EXPECT_EQ(costs[2], 40);  // three plies, capped at 2.5
    EXPECT_EQ(costs[3], 40);
    EXPECT_EQ(costs[4], 4);   // certain: the floor, a quarter ply
}

}  // namespace
}  // namespace loa
