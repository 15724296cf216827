// Move generation: perft against the known counts, hand-counted positions, and a cross-check
// against a deliberately naive reference generator on thousands of reached positions.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "loa/notation.hpp"
#include "loa/perft.hpp"
#include "support/test_positions.hpp"

namespace loa {
namespace {

// Walks squares one by one: obviously right and slow, unlike the table-driven generator.
std::set<std::uint16_t> reference_moves(const Position& pos) {
    const Colour us = pos.side_to_move();
    auto colour_at = [&](int f, int r) -> int {
        const Bitboard bb = square_bb(make_square(f, r));
        if (pos.pieces(us) & bb) return 1;
        if (pos.pieces(~us) & bb) return 2;
        return 0;
    };
    std::set<std::uint16_t> out;
    for (Square from = 0; from < 64; ++from) {
        if (!(pos.pieces(us) & square_bb(from))) continue;
        for (int d = 0; d < 8; ++d) {
            const int df = DirectionFileStep[d], dr = DirectionRankStep[d];
            int count = 1;
            for (int sign : {1, -1})
                for (int f = file_of(from) + sign * df, r = rank_of(from) + sign * dr; on_board(f, r);
                     f += sign * df, r += sign * dr)
                    count += colour_at(f, r) != 0;
            int f = file_of(from), r = rank_of(from);
            bool blocked = false;
            for (int step = 1; step <= count && !blocked; ++step) {
                f += df;
                r += dr;
                if (!on_board(f, r)) blocked = true;
                else if (step < count && colour_at(f, r) == 2) blocked = true;
                else if (step == count && colour_at(f, r) == 1) blocked = true;
            }
            if (!blocked) out.insert(Move(from, make_square(f, r), colour_at(f, r) == 2).raw());
        }
    }
    if (out.empty()) out.insert(Move::pass().raw());
    return out;
}

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

TEST(MoveGeneration, AgreesWithNaiveReferenceOnReachedPositions) {
    int checked = 0;
    for (const Position& pos : testing::random_positions(11, 60, 150)) {
        const MoveList moves = legal_moves(pos);
        std::set<std::uint16_t> ours;
        for (const Move m : moves) ours.insert(m.raw());
        ASSERT_EQ(ours.size(), moves.size()) << "duplicate move in " << pos.to_text();
        ASSERT_EQ(ours, reference_moves(pos)) << pos.to_text();
        EXPECT_EQ(has_real_move(pos), !moves[0].is_pass());
        ++checked;
    }
    EXPECT_GT(checked, 2000);
}

TEST(MoveGeneration, AgreesWithReferenceOnScrambledEggsGames) {
    for (int g = 0; g < 20; ++g) {
        const Game game = testing::random_game(500 + g, 100, Position::scrambled_eggs());
        Position pos = game.start_position();
        for (const Move m : game.moves()) {
            std::set<std::uint16_t> ours;
            for (const Move legal : legal_moves(pos)) ours.insert(legal.raw());
            ASSERT_EQ(ours, reference_moves(pos)) << pos.to_text();
            pos.make(m);
        }
    }
}

}  // namespace
}  // namespace loa
