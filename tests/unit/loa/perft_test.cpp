// Perft: the known counts from the start, divide, and hand-counted positions.
#include <gtest/gtest.h>

#include <algorithm>

#include "loa/notation.hpp"
#include "loa/perft.hpp"
#include "support/test_positions.hpp"

namespace loa {
namespace {

TEST(Perft, StartPositionKnownCounts) {
    Position pos = Position::start();
    const std::uint64_t expected[] = {36, 1244, 44952, 1563208};
    for (int d = 1; d <= 4; ++d) EXPECT_EQ(perft(pos, d), expected[d - 1]) << "depth " << d;
    EXPECT_EQ(pos, Position::start());
}

TEST(Perft, SlowDepthFiveFromStart) {
    Position pos = Position::start();
    EXPECT_EQ(perft(pos, 5), 55963132u);
}

TEST(Perft, DivideSumsToPerft) {
    Position pos = Position::start();
    std::uint64_t total = 0;
    for (const auto& [move, count] : perft_divide(pos, 3)) total += count;
    EXPECT_EQ(total, 44952u);
}

// Black: b1, b2, c4; White: c2, g7, h8. Counted by hand: b1 has b3, c1, a1, a2 (d3 is
// blocked by c2); b2 has b4, e5, a3, c1 (d2 blocked by c2); c4 has c6, c2 (capture), d4, b4,
// d5, b3, b5, d3. c4xc2 connects both sides at once.
using testing::DoubleConnection;

TEST(Perft, HandCountedPositionWithACaptureThatConnectsBothSides) {
    Position pos = Position::from_text(DoubleConnection);
    EXPECT_EQ(perft(pos, 1), 16u);
    const MoveList moves = legal_moves(pos);
    EXPECT_EQ(std::count_if(moves.begin(), moves.end(), [](Move m) { return m.is_capture(); }), 1);
    EXPECT_TRUE(is_legal(pos, parse_move(pos, "c4xc2")));
}

// White a1 is boxed in by a2, b1, b2 and h8 by h7, g8, g7: White must pass. Black's moves,
// counted by hand and symmetric under the half-turn: a2: a4 c2 c4; b1: b3 d1 d3;
// b2: b4 d2 f6 a3 c1 -- 11 per corner, 22 in all.
using testing::WhiteMustPass;

TEST(Perft, HandCountedPositionWhereASideMustPass) {
    Position pos = Position::from_text(WhiteMustPass);
    const MoveList moves = legal_moves(pos);
    ASSERT_EQ(moves.size(), 1u);
    EXPECT_TRUE(moves[0].is_pass());
    EXPECT_FALSE(has_real_move(pos));
    EXPECT_EQ(perft(pos, 1), 1u);
    EXPECT_EQ(perft(pos, 2), 22u);
}

}  // namespace
}  // namespace loa
