// Zobrist keys: distinct keys, incremental keys equal to keys from scratch, make/unmake.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "loa/error.hpp"
#include "loa/movegen.hpp"
#include "loa/position_text.hpp"

namespace loa {
namespace {

TEST(Zobrist, KeysAreDistinctAndNonZero) {
    std::set<Key> keys{Zobrist.white_to_move};
    for (const auto& colour : Zobrist.piece) keys.insert(colour.begin(), colour.end());
    EXPECT_EQ(keys.size(), 129u);
    EXPECT_FALSE(keys.contains(0));
}

TEST(Zobrist, IncrementalKeyEqualsKeyFromScratchAndUnmakeRestoresExactly) {
    std::mt19937_64 rng(2024);
    for (int game = 0; game < 200; ++game) {
        Position pos = Position::start();
        std::vector<Position> before;
        std::vector<Move> played;
        for (int ply = 0; ply < 120; ++ply) {
            const MoveList moves = legal_moves(pos);
            const Move m = moves[rng() % moves.size()];
            before.push_back(pos);
            played.push_back(m);
            pos.make(m);
            ASSERT_EQ(pos.key(), pos.compute_key()) << "game " << game << " ply " << ply;
            for (const Colour c : {Colour::Black, Colour::White})
                ASSERT_EQ(pos.euler_numerator(c), euler_numerator(pos.pieces(c))) << pos.to_text();
            ASSERT_GE(pos.count(Colour::Black), 1);
            ASSERT_GE(pos.count(Colour::White), 1);
            ASSERT_EQ(pos.pieces(Colour::Black) & pos.pieces(Colour::White), 0u);
        }
        while (!played.empty()) {
            pos.unmake(played.back());
            played.pop_back();
            ASSERT_EQ(pos, before.back());
            before.pop_back();
        }
        ASSERT_EQ(pos, Position::start());
    }
}

TEST(Zobrist, SideToMoveChangesTheKey) {
    const Position black = Position::from_text("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b");
    const Position white = Position::from_text("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 w");
    EXPECT_EQ(black.key() ^ white.key(), Zobrist.white_to_move);
}

TEST(Zobrist, PassFlipsOnlyTheSideToMove) {
    Position pos = Position::from_text("w7/1bb5/1bb5/8/8/8/8/7w w");
    const Position before = pos;
    pos.make(Move::pass());
    EXPECT_EQ(pos.occupied(), before.occupied());
    EXPECT_EQ(pos.side_to_move(), Colour::Black);
    EXPECT_EQ(pos.key(), pos.compute_key());
    pos.unmake(Move::pass());
    EXPECT_EQ(pos, before);
}

}  // namespace
}  // namespace loa
