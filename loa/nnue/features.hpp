// The network's inputs (docs/nnue.md): for each perspective, one feature per piece. Black's
// perspective reads the board as it is; White's reflects it in the a1-h8 diagonal, which with
// the colours swapped maps the start position onto itself, so that the evaluation is exactly
// the same for a position and its colour-swapped, reflected image.
#pragma once

#include <algorithm>

#include "loa/bitboard.hpp"
#include "loa/colour.hpp"
#include "loa/nnue/network.hpp"

namespace loa::nnue {

constexpr Square diagonal_reflection(Square s) { return make_square(rank_of(s), file_of(s)); }

// The input feature of a `piece`-coloured piece on `s`, seen from `perspective` whose input
// bucket is `bucket`.
constexpr int feature_index(Colour perspective, Colour piece, Square s, int bucket = 0) {
    const Square seen = perspective == Colour::Black ? s : diagonal_reflection(s);
    return bucket * InputCount + (piece == perspective ? 0 : 64) + seen;
}

// A perspective's input bucket, from its own pieces `own` (docs/nnue.md). Set 1: the Chebyshev
// distance d of their centre of mass from the board's centre, bucket 0 if d < 1, 1 if d < 2,
// else 2. With n pieces whose files sum to sx and ranks to sy, 2n d = max(|2 sx - 7n|,
// |2 sy - 7n|): integers, six popcounts (the bits of a square's file and rank). The same for a
// board and its 8 images, so the diagonal reflection of White's inputs does not change it.
constexpr int input_bucket(int set, Bitboard own) {
    if (set != CentreOfMassBucketsSet || !own) return 0;
    const int n = popcount(own);
    const int sx = popcount(own & 0xAAAAAAAAAAAAAAAAull) + 2 * popcount(own & 0xCCCCCCCCCCCCCCCCull) +
                   4 * popcount(own & 0xF0F0F0F0F0F0F0F0ull);
    const int sy = popcount(own & 0xFF00FF00FF00FF00ull) + 2 * popcount(own & 0xFFFF0000FFFF0000ull) +
                   4 * popcount(own & 0xFFFFFFFF00000000ull);
    const int x = 2 * sx - 7 * n, y = 2 * sy - 7 * n;
    const int twice_n_d = std::max(x < 0 ? -x : x, y < 0 ? -y : y);
    return twice_n_d < 2 * n ? 0 : twice_n_d < 4 * n ? 1 : 2;
}
static_assert(input_bucket(CentreOfMassBucketsSet, square_bb(make_square(3, 3)) | square_bb(make_square(4, 4))) == 0);
static_assert(input_bucket(CentreOfMassBucketsSet, square_bb(make_square(2, 3)) | square_bb(make_square(2, 4))) == 1);
static_assert(input_bucket(CentreOfMassBucketsSet, square_bb(make_square(0, 0))) == 2);

static_assert(feature_index(Colour::White, Colour::White, make_square(0, 1)) ==
              feature_index(Colour::Black, Colour::Black, make_square(1, 0)));  // a2 seen as b1
static_assert(InputCount == 128);

}  // namespace loa::nnue
