// Transposition table: packing, bounds and scores, aging, and each replacement scheme.
#include <array>
#include <atomic>
#include <functional>
#include <thread>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "common/search/tt.hpp"

namespace {

using namespace search;

// Two keys with the same slot (low bits) and different high bits.
constexpr std::uint64_t KeyA = 0x1111000000000040ULL;
constexpr std::uint64_t KeyB = 0x2222000000000040ULL;
constexpr std::uint64_t KeyC = 0x3333000000000041ULL;  // same pair as A and B under twodeep

TEST(TranspositionTable, EntriesArePackedAndTheTableIsPowerOfTwo) {
    EXPECT_EQ(sizeof(TTEntry), 8u);
    EXPECT_EQ(TranspositionTable::EntriesPerLine, 4u);
    TranspositionTable tt(1, TTReplace::Always);
    EXPECT_EQ(tt.size(), 65536u);  // 1 MB / 16 bytes
    EXPECT_EQ(tt.size() & (tt.size() - 1), 0u);
    EXPECT_EQ(tt.bytes(), 1u << 20);
}

// A hit is the position stored, not one that shares its slot and some key bits: keys that
// differ in a single bit anywhere above the slot index never answer for each other (16-bit
// verification let an 18M-node search take 77 cutoffs from other positions, some decisive).
TEST(TranspositionTable, EveryKeyBitIsVerified) {
    for (const TTReplace scheme : {TTReplace::Always, TTReplace::Depth, TTReplace::TwoDeep}) {
        TranspositionTable tt(1, scheme);
        const std::uint64_t stored = 0x0123456789ABCDEFULL;
        tt.store(stored, 0, 5, 77, Bound::Exact, 9);
        ASSERT_TRUE(tt.probe(stored, 0).found);
        for (int bit = 0; bit < 64; ++bit)
            EXPECT_FALSE(tt.probe(stored ^ (std::uint64_t{1} << bit), 0).found) << "bit " << bit;
    }
}

// A result stored with a context answers a probe from that context only; one stored without
// answers every probe.
TEST(TranspositionTable, AContextBoundEntryAnswersItsOwnContextOnly) {
    for (const TTReplace scheme : {TTReplace::Always, TTReplace::Depth, TTReplace::TwoDeep}) {
        TranspositionTable tt(1, scheme);
        const std::uint64_t context = 0x5555AAAA12345678ULL;
        tt.store(KeyA, 0, 5, win_in(3), Bound::Exact, 9, context);
        const TTHit hit = tt.probe(KeyA, 0, context);
        ASSERT_TRUE(hit.found);
        EXPECT_TRUE(hit.in_context);
        EXPECT_EQ(hit.score, win_in(3));
        EXPECT_FALSE(tt.probe(KeyA, 0).found);
        for (int bit = 0; bit < 64; ++bit)
            EXPECT_FALSE(tt.probe(KeyA, 0, context ^ (std::uint64_t{1} << bit)).found) << "context bit " << bit;
        tt.store(KeyB, 0, 5, 30, Bound::Exact, 4);  // bound to no context: found from any
        EXPECT_TRUE(tt.probe(KeyB, 0, context).found);
        EXPECT_FALSE(tt.probe(KeyB, 0, context).in_context);
        EXPECT_TRUE(tt.probe(KeyB, 0).found);
    }
}

// Lazy SMP threads may interleave their writes of one entry: a reader must see a whole entry
// or none. Two writers store different results of different keys in one slot while a reader
// checks that every hit carries the result stored with its key. (A table of two plain words,
// key and data, mixes entries here within a few million writes.)
TEST(TranspositionTable, InterleavedWritesNeverMixTwoEntries) {
    TranspositionTable tt(1, TTReplace::Always);
    std::atomic<bool> done{false}, reading{false};
    std::atomic<long> hits{0};
    std::thread reader([&] {
        reading = true;
        while (!done.load()) {
            for (const auto& [key, score, move] : {std::tuple{KeyA, 111, 1}, std::tuple{KeyB, -222, 2}}) {
                const TTHit hit = tt.probe(key, 0);
                if (!hit.found) continue;
                ++hits;
                ASSERT_EQ(hit.score, score);
                ASSERT_EQ(hit.move, move);
                ASSERT_EQ(hit.depth, move + 2);
            }
        }
    });
    while (!reading.load()) std::this_thread::yield();
    auto writer = [&](std::uint64_t key, Score score, std::uint16_t move) {
        for (long i = 0; i < 3'000'000 && hits.load() < 200'000; ++i) tt.store(key, 0, move + 2, score, Bound::Exact, move);
    };
    std::thread a(writer, KeyA, 111, 1), b(writer, KeyB, -222, 2);
    a.join();
    b.join();
    done = true;
    reader.join();
    EXPECT_GT(hits.load(), 1000);  // the reader saw entries while they were written
}

// Lazy SMP threads store PV lines of one key at once (pv_store.hpp): a reader gets one whole
// line or none, never a mix of two. Two writers store lines of different lengths and moves for
// the same key and result while a reader checks every line it gets back.
TEST(TranspositionTable, PvLinesTornByTwoWritersReadAsMisses) {
    PvStore lines(64);
    std::vector<std::uint16_t> one(20, 0x0101), other(7, 0x0202);
    std::atomic<bool> done{false};
    std::atomic<long> whole{0};
    std::thread reader([&] {
        std::array<std::uint16_t, PvStore::MaxLine> out{};
        while (!done.load()) {
            const std::size_t n = lines.probe(KeyA, 6, 42, out);
            if (n == 0) continue;
            const std::vector<std::uint16_t>& expected = n == one.size() ? one : other;
            ASSERT_EQ(n, expected.size());
            for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], expected[i]) << "move " << i << " of a line of " << n;
            ++whole;
        }
    });
    auto writer = [&](const std::vector<std::uint16_t>& line) {
        for (long i = 0; i < 300'000 && whole.load() < 100'000; ++i) lines.store(KeyA, 6, 42, line);
    };
    std::thread a(writer, std::cref(one)), b(writer, std::cref(other));
    a.join();
    b.join();
    done = true;
    reader.join();
    // The two last writes may have left a torn record (a miss); one writer alone leaves a line.
    lines.store(KeyA, 6, 42, one);
    std::array<std::uint16_t, PvStore::MaxLine> out{};
    EXPECT_EQ(lines.probe(KeyA, 6, 42, out), one.size());
    EXPECT_EQ(lines.probe(KeyA, 7, 42, out), 0u);  // another depth: another result's line
    EXPECT_EQ(lines.probe(KeyA, 6, 43, out), 0u);  // another score
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
