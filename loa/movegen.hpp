// Legal move generation. Per piece and line: the distance is the popcount of the line mask,
// the destination and the path come from precomputed tables, so there is no walk along rays.
#pragma once

#include <boost/container/static_vector.hpp>

#include "loa/lines.hpp"
#include "loa/position.hpp"

namespace loa {

// 12 pieces x 8 directions bounds the number of moves of one side.
inline constexpr int MaxMoves = 96;
using MoveList = boost::container::static_vector<Move, MaxMoves>;

// Destination squares of the piece on `from` for the side owning `own` (no pass handling);
// with CapturesOnly, only the landings on an enemy piece.
template <bool CapturesOnly = false>
inline Bitboard piece_destinations(Square from, Bitboard own, Bitboard enemy) {
    const Bitboard occupied = own | enemy;
    const Bitboard landing = CapturesOnly ? enemy : ~own;  // squares a move may end on
    Bitboard targets = 0;
    for (int line = 0; line < LineCount; ++line) {
        const int distance = popcount(occupied & Lines.line[line][from]);
        for (const int dir : {line, line + 4}) {
            const int to = Lines.destination[dir][from][distance];
            if (to == NoSquare) continue;
            if (!(landing & square_bb(to)) || (enemy & Lines.between[from][to])) continue;
            targets |= square_bb(to);
        }
    }
    return targets;
}

// Appends the side to move's legal moves; a side without a move gets exactly one: pass.
inline void generate_moves(const Position& pos, MoveList& moves) {
    const Colour us = pos.side_to_move();
    const Bitboard own = pos.pieces(us), enemy = pos.pieces(~us);
    for (Bitboard pieces = own; pieces;) {
        const Square from = pop_lsb(pieces);
        for (Bitboard targets = piece_destinations(from, own, enemy); targets;) {
            const Square to = pop_lsb(targets);
            moves.push_back(Move(from, to, (enemy & square_bb(to)) != 0));
        }
    }
    if (moves.empty()) moves.push_back(Move::pass());
}

// Appends the side to move's captures alone (no pass), in generate_moves' order: quiescence
// search follows only captures. The lines are read as for every move; what it saves is adding
// the quiet moves (most of a list) and filtering them out again.
inline void generate_captures(const Position& pos, MoveList& moves) {
    const Colour us = pos.side_to_move();
    const Bitboard own = pos.pieces(us), enemy = pos.pieces(~us);
    for (Bitboard pieces = own; pieces;) {
        const Square from = pop_lsb(pieces);
        for (Bitboard targets = piece_destinations<true>(from, own, enemy); targets;)
            moves.push_back(Move(from, pop_lsb(targets), true));
    }
}

inline MoveList legal_moves(const Position& pos) {
    MoveList moves;
    generate_moves(pos, moves);
    return moves;
}

// True when the side to move has a move other than pass.
inline bool has_real_move(const Position& pos) {
    const Colour us = pos.side_to_move();
    const Bitboard own = pos.pieces(us), enemy = pos.pieces(~us);
    for (Bitboard pieces = own; pieces;)
        if (piece_destinations(pop_lsb(pieces), own, enemy)) return true;
    return false;
}

inline bool is_legal(const Position& pos, Move m) {
    for (const Move legal : legal_moves(pos))
        if (legal == m) return true;
    return false;
}

}  // namespace loa
