// Move generation: a cross-check against a deliberately naive reference generator on thousands
// of reached positions.
#include <gtest/gtest.h>

#include <set>
#include <vector>

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

// Quiescence search generates captures alone and must see the same moves in the same order as
// when it filtered the full list: the reference's captures as a set, the full list's as a sequence.
TEST(MoveGeneration, CapturesAreTheCapturesOfTheFullListInItsOrder) {
    int with_captures = 0, without = 0;
    for (const Position& pos : testing::random_positions(12, 60, 150)) {
        MoveList captures;
        generate_captures(pos, captures);
        std::vector<std::uint16_t> expected_order, got_order;
        for (const Move m : legal_moves(pos))
            if (m.is_capture()) expected_order.push_back(m.raw());
        std::set<std::uint16_t> reference;
        for (const std::uint16_t raw : reference_moves(pos))
            if (Move::from_raw(raw).is_capture()) reference.insert(raw);
        for (const Move m : captures) {
            ASSERT_TRUE(m.is_capture()) << pos.to_text();
            got_order.push_back(m.raw());
        }
        ASSERT_EQ(got_order, expected_order) << pos.to_text();
        ASSERT_EQ(std::set<std::uint16_t>(got_order.begin(), got_order.end()), reference) << pos.to_text();
        if (pos.key() != Position::start().key()) ++(captures.empty() ? without : with_captures);
    }
    // Both kinds of reached position occur (the start, which has no capture, not counted).
    EXPECT_GT(with_captures, 1000);
    EXPECT_GT(without, 10);
}

// Captures are appended to what the list holds, and a side that must pass has none: no pass.
TEST(MoveGeneration, CapturesAppendAndASideThatMustPassHasNone) {
    MoveList list{Move::pass()};
    generate_captures(Position::from_text(testing::WhiteMustPass), list);
    ASSERT_EQ(list.size(), 1u);
    int checked = 0;
    for (const Position& pos : testing::random_positions(13, 10, 40)) {
        std::vector<std::uint16_t> expected{Move::pass().raw()};
        for (const Move m : legal_moves(pos))
            if (m.is_capture()) expected.push_back(m.raw());
        if (expected.size() == 1) continue;
        MoveList prefilled{Move::pass()};
        generate_captures(pos, prefilled);
        std::vector<std::uint16_t> got;
        for (const Move m : prefilled) got.push_back(m.raw());
        EXPECT_EQ(got, expected) << pos.to_text();
        ++checked;
    }
    EXPECT_GT(checked, 50);
}

}  // namespace
}  // namespace loa
