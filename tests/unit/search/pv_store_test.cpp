// The record of the lines (common/search/pv_store.hpp) gives back only the line of its result.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "loa/searchers.hpp"
#include "common/search/multipv.hpp"
#include "common/search/pv_store.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/search_game.hpp"
#include "support/search_limits.hpp"

namespace loa {
namespace {

using loa::testing::depth;

// A record answers only the result it was stored with: same key, depth and score.
TEST(PvStore, GivesBackOnlyTheLineOfTheSameResult) {
    search::PvStore store(64);
    std::array<std::uint16_t, search::PvStore::MaxLine> out{};
    const std::vector<std::uint16_t> line{11, 22, 33, 44, 55};
    store.store(0x1234'5678'9abc'def0, 7, -35, line);
    ASSERT_EQ(store.probe(0x1234'5678'9abc'def0, 7, -35, out), line.size());
    EXPECT_TRUE(std::equal(line.begin(), line.end(), out.begin()));
    EXPECT_EQ(store.probe(0x1234'5678'9abc'def0, 6, -35, out), 0u);   // another depth
    EXPECT_EQ(store.probe(0x1234'5678'9abc'def0, 7, -34, out), 0u);   // another score
    EXPECT_EQ(store.probe(0x1234'5678'9abc'def0 + 64, 7, -35, out), 0u);  // another key, same slot
    // A longer line is kept to MaxLine moves; a later result of the slot replaces the first.
    std::vector<std::uint16_t> long_line(100);
    for (std::size_t i = 0; i < long_line.size(); ++i) long_line[i] = static_cast<std::uint16_t>(i + 1);
    store.store(0x130, 3, 12, long_line);  // the first key's slot
    ASSERT_EQ(store.probe(0x130, 3, 12, out), search::PvStore::MaxLine);
    EXPECT_TRUE(std::equal(out.begin(), out.end(), long_line.begin()));
    EXPECT_EQ(store.probe(0x1234'5678'9abc'def0, 7, -35, out), 0u);
    store.clear();
    EXPECT_EQ(store.probe(0x130, 3, 12, out), 0u);
}

}  // namespace
}  // namespace loa
