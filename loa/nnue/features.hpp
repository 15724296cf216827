// The network's inputs (docs/nnue.md): for each perspective, one feature per piece. Black's
// perspective reads the board as it is; White's reflects it in the a1-h8 diagonal, which with
// the colours swapped maps the start position onto itself, so that the evaluation is exactly
// the same for a position and its colour-swapped, reflected image.
#pragma once

#include "loa/bitboard.hpp"
#include "loa/colour.hpp"
#include "loa/nnue/network.hpp"

namespace loa::nnue {

constexpr Square diagonal_reflection(Square s) { return make_square(rank_of(s), file_of(s)); }

// The input feature of a `piece`-coloured piece on `s`, seen from `perspective`.
constexpr int feature_index(Colour perspective, Colour piece, Square s) {
    const Square seen = perspective == Colour::Black ? s : diagonal_reflection(s);
    return (piece == perspective ? 0 : 64) + seen;
}

static_assert(feature_index(Colour::White, Colour::White, make_square(0, 1)) ==
              feature_index(Colour::Black, Colour::Black, make_square(1, 0)));  // a2 seen as b1
static_assert(InputCount == 128);

}  // namespace loa::nnue
