// The NNUE's input buckets (docs/nnue.md): the engine's integer bucket against its definition
// (the centre of mass in floating point), the same for a board's 8 images.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "loa/nnue/features.hpp"
#include "loa/symmetry.hpp"

namespace loa::nnue {
namespace {

// The definition: the mean file and rank of the pieces, their Chebyshev distance d from the
// board's centre (3.5, 3.5); bucket 0 if d < 1, 1 if d < 2, else 2; no pieces: 0.
int bucket_by_definition(Bitboard own) {
    double files = 0, ranks = 0;
    int n = 0;
    for (int s = 0; s < 64; ++s)
        if (own >> s & 1) {
            files += s % 8;
            ranks += s / 8;
            ++n;
        }
    if (n == 0) return 0;
    const double d = std::max(std::abs(files / n - 3.5), std::abs(ranks / n - 3.5));
    return d < 1 ? 0 : d < 2 ? 1 : 2;
}

Bitboard random_board(std::mt19937_64& rng, int pieces) {
    Bitboard b = 0;
    while (popcount(b) < pieces) b |= Bitboard{1} << (rng() % 64);
    return b;
}

TEST(NnueBuckets, TheEnginesBucketIsTheDefinitions) {
    std::mt19937_64 rng(85);
    int seen[3] = {0, 0, 0};
    for (int trial = 0; trial < 20000; ++trial) {
        const Bitboard own = random_board(rng, 1 + static_cast<int>(rng() % 12));
        const int bucket = input_bucket(CentreOfMassBucketsSet, own);
        ASSERT_EQ(bucket, bucket_by_definition(own)) << std::hex << own;
        ++seen[bucket];
        EXPECT_EQ(input_bucket(0, own), 0);  // set 0: one bucket
    }
    for (const int count : seen) EXPECT_GT(count, 1000);
    EXPECT_EQ(input_bucket(CentreOfMassBucketsSet, 0), 0);
}

TEST(NnueBuckets, ABoardsEightImagesShareItsBucket) {
    std::mt19937_64 rng(86);
    for (int trial = 0; trial < 2000; ++trial) {
        const Bitboard own = random_board(rng, 1 + static_cast<int>(rng() % 12));
        for (int symmetry = 0; symmetry < 8; ++symmetry)
            ASSERT_EQ(input_bucket(CentreOfMassBucketsSet, transform(own, symmetry)), input_bucket(CentreOfMassBucketsSet, own))
                << symmetry;
    }
}

}  // namespace
}  // namespace loa::nnue
