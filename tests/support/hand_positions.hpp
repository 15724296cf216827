// Helpers for tests on hand-made positions: squares by name, the legal move between two
// squares (a test failure when there is none), the only legal move, a position after a move,
// and the flood-fill connection test of the rules oracle.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string_view>

#include "loa/bitboard.hpp"
#include "loa/colour.hpp"
#include "loa/move.hpp"
#include "loa/movegen.hpp"
#include "loa/position.hpp"
#include "support/rules_minimax.hpp"

namespace loa::testing {

inline Square square(std::string_view name) { return make_square(name[0] - 'a', name[1] - '1'); }

inline Bitboard squares(std::initializer_list<std::string_view> names) {
    Bitboard b = 0;
    for (const auto name : names) b |= square_bb(square(name));
    return b;
}

// The legal move from `from` to `to`; fails the test when there is none.
inline Move legal_move(const Position& pos, std::string_view from, std::string_view to) {
    for (const Move m : legal_moves(pos))
        if (!m.is_pass() && m.from() == square(from) && m.to() == square(to)) return m;
    ADD_FAILURE() << "no legal move " << from << "-" << to << " in " << pos.to_text();
    return Move::none();
}

// The one legal move of `pos`; fails the test when there are several.
inline Move only_move(const Position& pos) {
    const auto moves = legal_moves(pos);
    EXPECT_EQ(moves.size(), 1u) << pos.to_text();
    return moves.front();
}

inline Position after(Position pos, Move m) {
    pos.make(m);
    return pos;
}

inline bool is_connected(const Position& pos, Colour c) { return oracle::connected(pos.pieces(c)); }

}  // namespace loa::testing
