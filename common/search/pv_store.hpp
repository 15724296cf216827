// The principal variations behind the transposition table's exact entries. A PV node that
// takes an exact score from the table ends its line there: without a record of the line that
// produced the score, a second search of a position prints a one-move PV (the table answers the
// root's first child at once). The search records here, beside each exact entry it stores at a
// PV node, that node's line, and a PV node cut off by an exact entry takes the line back from
// here (search.hpp, complete_line). Nothing here changes which nodes the search visits: a line
// is read only where the search has already returned.
//
// A small direct-mapped table (a slot per key, the latest line replacing; the table gives it a
// slot for every 256 of its entries): exact entries are stored at PV nodes only, a few thousand
// per search, and the lines wanted are those of the last iterations. A record answers only a probe with the same key, depth and score, so that a line
// comes from the very search whose result the table gave. Shared by lazy SMP threads as the
// table is (it belongs to the table), so every word is a relaxed atomic and a record carries a
// check word over its key and contents: one torn by two threads writing at once reads as a miss
// (the caller replays every move on the board anyway).
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <tuple>

#include "common/page_array.hpp"
#include "common/splitmix64.hpp"

namespace search {

class PvStore {
public:
    static constexpr std::size_t MaxLine = 64;  // moves kept of a line; deeper ones are cut

    // `slots`: a power of two; SlotBytes each, in pages of their own given back to the system
    // with the table (page_array.hpp), and counted with it (config.cpp, table_memory_mb).
    explicit PvStore(std::size_t slots) : slots_(slots), count_(slots) {}

    void clear() {
        for (std::size_t i = 0; i < count_; ++i) slots_[i].check.store(0, std::memory_order_relaxed);
    }

    // Records `line` (raw moves, the first the node's best) for the exact entry of `key` with
    // `depth` and `score` (as the table stores them).
    void store(std::uint64_t key, int depth, int score, std::span<const std::uint16_t> line) {
        Slot& slot = slots_[key & (count_ - 1)];
        const std::size_t length = line.size() < MaxLine ? line.size() : MaxLine;
        Words words{};
        words[0] = meta(depth, score, length);
        for (std::size_t i = 0; i < length; ++i) words[1 + i / 4] |= std::uint64_t{line[i]} << (16 * (i % 4));
        for (std::size_t w = 0; w < words.size(); ++w) slot.words[w].store(words[w], std::memory_order_relaxed);
        slot.check.store(key ^ digest(words), std::memory_order_relaxed);
    }

    // The line recorded for `key`'s entry with `depth` and `score` into `out`; its length (0:
    // none, or one recorded for another result).
    std::size_t probe(std::uint64_t key, int depth, int score, std::array<std::uint16_t, MaxLine>& out) const {
        const Slot& slot = slots_[key & (count_ - 1)];
        const std::uint64_t check = slot.check.load(std::memory_order_relaxed);
        Words words;
        for (std::size_t w = 0; w < words.size(); ++w) words[w] = slot.words[w].load(std::memory_order_relaxed);
        if (check == 0 || (check ^ digest(words)) != key) return 0;
        const std::size_t length = words[0] & 0xff;
        if ((words[0] & ~std::uint64_t{0xff}) != (meta(depth, score, 0) & ~std::uint64_t{0xff}) || length > MaxLine) return 0;
        for (std::size_t i = 0; i < length; ++i) out[i] = static_cast<std::uint16_t>(words[1 + i / 4] >> (16 * (i % 4)));
        return length;
    }

private:
    using Words = std::array<std::uint64_t, 1 + MaxLine / 4>;  // what the record says, then the moves, four a word
    struct Slot {
        std::atomic<std::uint64_t> check{0};  // key ^ digest(words); 0: empty
        std::array<std::atomic<std::uint64_t>, std::tuple_size_v<Words>> words{};
    };

    static std::uint64_t meta(int depth, int score, std::size_t length) {
        return static_cast<std::uint64_t>(static_cast<std::uint8_t>(depth)) << 24 |
               static_cast<std::uint64_t>(static_cast<std::uint16_t>(score)) << 8 | length;
    }
    // Mixes every word with its place, so that words of two records mixed by a torn write give
    // another digest.
    static std::uint64_t digest(const Words& words) {
        std::uint64_t h = 0;
        for (std::size_t i = 0; i < words.size(); ++i) h = common::splitmix64(h ^ words[i] ^ (i << 56));
        return h;
    }

    common::PageArray<Slot> slots_;
    std::size_t count_;  // a power of two

public:
    static constexpr std::size_t SlotBytes = sizeof(Slot);
};

}  // namespace search
