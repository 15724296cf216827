#include "loa/position.hpp"

#include "loa/error.hpp"

namespace loa {

Position Position::from_bitboards(Bitboard black, Bitboard white, Colour side_to_move) {
    if (black & white) throw InputError("a square holds both a black and a white piece");
    if (!black) throw InputError("black has no pieces");
    if (!white) throw InputError("white has no pieces");
    Position p;
    p.pieces_ = {black, white};
    p.side_ = side_to_move;
    p.key_ = p.compute_key();
    p.euler_ = {loa::euler_numerator(black), loa::euler_numerator(white)};
    return p;
}

Position Position::start() {
    constexpr Bitboard black = 0x7EULL | (0x7EULL << 56);
    constexpr Bitboard white = (FileA | FileH) & ~Rank1 & ~Rank8;
    return from_bitboards(black, white, Colour::Black);
}

Key Position::compute_key() const {
    Key k = side_ == Colour::White ? Zobrist.white_to_move : 0;
    for (Colour c : {Colour::Black, Colour::White})
        for (Bitboard b = pieces(c); b;) k ^= piece_key(c, pop_lsb(b));
    return k;
}

}  // namespace loa
