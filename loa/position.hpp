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
#include "loa/zobrist.hpp"

namespace loa {

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

    // Plays a move that is legal in this position (not checked here: see Game and parse_move).
    void make(Move m) {
        const int us = index(side_);
        if (!m.is_pass()) {
            const Bitboard from_to = square_bb(m.from()) | square_bb(m.to());
            pieces_[us] ^= from_to;
            key_ ^= piece_key(side_, m.from()) ^ piece_key(side_, m.to());
            if (m.is_capture()) {
                pieces_[us ^ 1] ^= square_bb(m.to());
                key_ ^= piece_key(~side_, m.to());
            }
        }
        side_ = ~side_;
        key_ ^= Zobrist.white_to_move;
    }

    // Takes back m, which must be the last move made on this position.
    void unmake(Move m) {
        side_ = ~side_;
        key_ ^= Zobrist.white_to_move;
        if (m.is_pass()) return;
        const int us = index(side_);
        pieces_[us] ^= square_bb(m.from()) | square_bb(m.to());
        key_ ^= piece_key(side_, m.from()) ^ piece_key(side_, m.to());
        if (m.is_capture()) {
            pieces_[us ^ 1] ^= square_bb(m.to());
            key_ ^= piece_key(~side_, m.to());
        }
    }

    friend bool operator==(const Position& a, const Position& b) {
        return a.pieces_ == b.pieces_ && a.side_ == b.side_ && a.key_ == b.key_;
    }

private:
    std::array<Bitboard, 2> pieces_{};
    Colour side_ = Colour::Black;
    Key key_ = 0;
};

}  // namespace loa
