// The LOA position: one bitboard per colour, the side to move and the Zobrist key, which is
// kept up to date incrementally by make/unmake. Game history (repetitions, results) lives in
// Game; a Position is only what the next move depends on.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "loa/bitboard.hpp"
#include "loa/colour.hpp"
#include "loa/move.hpp"
#include "loa/quads.hpp"
#include "loa/zobrist.hpp"

namespace loa {

// Each side starts with 12 pieces and never gains one: no game has more.
inline constexpr int MaxPiecesPerSide = 12;

class Position {
public:
    // An empty board: a placeholder to assign to, not a position to play from.
    Position() = default;
    static Position start();          // Black b1-g1, b8-g8; White a2-a7, h2-h7; Black to move
    static Position scrambled_eggs();  // colours alternate around the edge, White on a2
    // One-line position text (see position_text.hpp); throws InputError on malformed input.
    static Position from_text(std::string_view text);
    static Position from_bitboards(Bitboard black, Bitboard white, Colour side_to_move);

    std::string to_text() const;

    Bitboard pieces(Colour c) const { return pieces_[index(c)]; }
    Bitboard occupied() const { return pieces_[0] | pieces_[1]; }
    Colour side_to_move() const { return side_; }
    int count(Colour c) const { return popcount(pieces(c)); }
    Key key() const { return key_; }
    Key compute_key() const;  // from scratch, for verification
    // Four times the Euler number of a side's pieces (see quads.hpp), kept incrementally.
    int euler_numerator(Colour c) const { return euler_[index(c)]; }
    // A cheap proof that a side is split: Euler number above 1.
    bool surely_split(Colour c) const { return euler_[index(c)] > 4; }

    // Plays a move that is legal in this position (not checked here: see Game and parse_move).
    void make(Move m) {
        if (!m.is_pass()) move_pieces(side_, m);
        side_ = ~side_;
        key_ ^= Zobrist.white_to_move;
    }

    // Takes back m, which must be the last move made on this position.
    void unmake(Move m) {
        side_ = ~side_;
        key_ ^= Zobrist.white_to_move;
        if (!m.is_pass()) unmove_pieces(side_, m);
    }

    friend bool operator==(const Position& a, const Position& b) {
        return a.pieces_ == b.pieces_ && a.side_ == b.side_ && a.key_ == b.key_ && a.euler_ == b.euler_;
    }

private:
    // Each update keeps the Euler numerators in step: a piece leaving a square subtracts the
    // gain it brought, computed on the bitboard without it.
    void remove_piece(int side, Square s) {
        pieces_[side] ^= square_bb(s);
        euler_[side] -= euler_gain(pieces_[side], s);
    }
    void add_piece(int side, Square s) {
        euler_[side] += euler_gain(pieces_[side], s);
        pieces_[side] ^= square_bb(s);
    }
    void move_pieces(Colour mover, Move m) {
        const int us = index(mover);
        remove_piece(us, m.from());
        if (m.is_capture()) remove_piece(us ^ 1, m.to());
        add_piece(us, m.to());
        key_ ^= piece_key(mover, m.from()) ^ piece_key(mover, m.to());
        if (m.is_capture()) key_ ^= piece_key(~mover, m.to());
    }
    void unmove_pieces(Colour mover, Move m) {
        const int us = index(mover);
        remove_piece(us, m.to());
        if (m.is_capture()) add_piece(us ^ 1, m.to());
        add_piece(us, m.from());
        key_ ^= piece_key(mover, m.from()) ^ piece_key(mover, m.to());
        if (m.is_capture()) key_ ^= piece_key(~mover, m.to());
    }

    std::array<Bitboard, 2> pieces_{};
    std::array<int, 2> euler_{};
    Colour side_ = Colour::Black;
    Key key_ = 0;
};

}  // namespace loa
