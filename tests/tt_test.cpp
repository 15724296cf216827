// Transposition table: packing, bounds and scores, aging, and each replacement scheme.
#include <gtest/gtest.h>

#include "common/search/tt.hpp"

namespace {

using namespace search;

// Two keys with the same slot (low bits) and different verification bits (high 16).
constexpr std::uint64_t KeyA = 0x1111000000000040ULL;
constexpr std::uint64_t KeyB = 0x2222000000000040ULL;
constexpr std::uint64_t KeyC = 0x3333000000000041ULL;  // same pair as A and B under twodeep

TEST(TranspositionTable, EntriesArePackedAndTheTableIsPowerOfTwo) {
    EXPECT_EQ(sizeof(TTEntry), 8u);
    TranspositionTable tt(1, TTReplace::Always);
    EXPECT_EQ(tt.size(), 131072u);  // 1 MB / 8 bytes
    EXPECT_EQ(tt.size() & (tt.size() - 1), 0u);
    EXPECT_EQ(tt.bytes(), 1u << 20);
}

TEST(TranspositionTable, StoresAndProbesEveryField) {
    TranspositionTable tt(1, TTReplace::Depth);
    EXPECT_FALSE(tt.probe(KeyA, 0).found);
    tt.store(KeyA, 0, 7, -123, Bound::Lower, 0x1234);
    const TTHit hit = tt.probe(KeyA, 0);
    ASSERT_TRUE(hit.found);
    EXPECT_EQ(hit.depth, 7);
    EXPECT_EQ(hit.score, -123);
    EXPECT_EQ(hit.bound, Bound::Lower);
    EXPECT_EQ(hit.move, 0x1234);
    EXPECT_FALSE(tt.probe(KeyB, 0).found);  // same slot, other verification bits
}

TEST(TranspositionTable, WinScoresAreStoredRelativeToTheNode) {
    TranspositionTable tt(1, TTReplace::Always);
    tt.store(KeyA, 5, 3, win_in(9), Bound::Exact, 1);  // win 4 plies below the node at ply 5
    EXPECT_EQ(tt.probe(KeyA, 2).score, win_in(6));     // seen from ply 2: still 4 plies below
    tt.store(KeyA, 3, 3, loss_in(10), Bound::Exact, 1);
    EXPECT_EQ(tt.probe(KeyA, 7).score, loss_in(14));
}

TEST(TranspositionTable, AlwaysReplaceOverwrites) {
    TranspositionTable tt(1, TTReplace::Always);
    tt.store(KeyA, 0, 9, 10, Bound::Exact, 1);
    tt.store(KeyB, 0, 1, 20, Bound::Exact, 2);
    EXPECT_FALSE(tt.probe(KeyA, 0).found);
    EXPECT_TRUE(tt.probe(KeyB, 0).found);
}

TEST(TranspositionTable, DepthPreferredKeepsTheDeeperEntryUntilItAges) {
    TranspositionTable tt(1, TTReplace::Depth);
    tt.store(KeyA, 0, 9, 10, Bound::Exact, 1);
    tt.store(KeyB, 0, 3, 20, Bound::Exact, 2);
    EXPECT_TRUE(tt.probe(KeyA, 0).found);
    EXPECT_FALSE(tt.probe(KeyB, 0).found);
    tt.store(KeyB, 0, 9, 20, Bound::Exact, 2);  // as deep: replaces
    EXPECT_TRUE(tt.probe(KeyB, 0).found);
    tt.new_search();  // the deep entry is now from an earlier search
    tt.store(KeyA, 0, 1, 10, Bound::Exact, 1);
    EXPECT_TRUE(tt.probe(KeyA, 0).found);
    EXPECT_FALSE(tt.probe(KeyB, 0).found);
}

TEST(TranspositionTable, TwoDeepKeepsTheDeepestAndTheMostRecent) {
    TranspositionTable tt(1, TTReplace::TwoDeep);
    tt.store(KeyA, 0, 9, 10, Bound::Exact, 1);  // deep level
    tt.store(KeyB, 0, 3, 20, Bound::Exact, 2);  // shallower: second level
    EXPECT_TRUE(tt.probe(KeyA, 0).found);
    EXPECT_TRUE(tt.probe(KeyB, 0).found);
    tt.store(KeyC, 0, 2, 30, Bound::Exact, 3);  // shallower again: replaces B at the second level
    EXPECT_TRUE(tt.probe(KeyA, 0).found);
    EXPECT_FALSE(tt.probe(KeyB, 0).found);
    EXPECT_TRUE(tt.probe(KeyC, 0).found);
    tt.store(KeyB, 0, 12, 40, Bound::Exact, 2);  // deeper than A: A moves down, C is dropped
    EXPECT_EQ(tt.probe(KeyB, 0).depth, 12);
    EXPECT_EQ(tt.probe(KeyA, 0).depth, 9);
    EXPECT_FALSE(tt.probe(KeyC, 0).found);
}

TEST(TranspositionTable, AFailLowKeepsTheMoveKnownForThePosition) {
    TranspositionTable tt(1, TTReplace::Always);
    tt.store(KeyA, 0, 4, 10, Bound::Exact, 77);
    tt.store(KeyA, 0, 5, -10, Bound::Upper, 0);
    EXPECT_EQ(tt.probe(KeyA, 0).move, 77);
    EXPECT_EQ(tt.probe(KeyA, 0).bound, Bound::Upper);
}

TEST(TranspositionTable, HashfullCountsTheCurrentGenerationOnly) {
    TranspositionTable tt(1, TTReplace::Always);
    EXPECT_EQ(tt.hashfull(), 0);
    for (std::uint64_t i = 0; i < 1000; ++i) tt.store(i, 0, 1, 0, Bound::Exact, 1);
    EXPECT_EQ(tt.hashfull(), 1000);
    tt.new_search();
    EXPECT_EQ(tt.hashfull(), 0);
    tt.clear();
    EXPECT_FALSE(tt.probe(5, 0).found);
}

}  // namespace
