// Evaluation cache: static evaluations by position key, so that a position evaluated again
// (the same quiescence leaf reached by another move order, the next iteration's stand pat, the
// null-move test) costs one probe instead of the game's evaluation.
//
// It can only save time, never change a value: an entry keeps the whole 64-bit key and the
// exact value, and is replaced by whatever is stored next in its slot. A search's values and
// node counts are the same with or without it (tests check it).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "common/page_array.hpp"
#include "common/search/score.hpp"

namespace search {

class EvalCache {
public:
    // `megabytes` rounded down to a power-of-two number of entries (at least one).
    explicit EvalCache(std::size_t megabytes) {
        std::size_t entries = 1;
        while (2 * entries * sizeof(Entry) <= megabytes * 1024 * 1024) entries *= 2;
        entries_ = common::PageArray<Entry>(entries);  // given back to the system when freed
        mask_ = entries - 1;
    }

    // The cached value of `key`, or else evaluate() stored for next time. Key 0 (the empty
    // slot's mark) is never cached.
    template <class Evaluate>
    Score get(std::uint64_t key, Evaluate&& evaluate) {
        Entry& e = entries_[static_cast<std::size_t>(key) & mask_];
        if (e.key == key && key != 0) {
            ++hits_;
            return e.value;
        }
        const Score value = evaluate();
        e = {key, value};
        return value;
    }

    void clear() { std::fill(entries_.begin(), entries_.end(), Entry{}); }
    std::uint64_t hits() const { return hits_; }

private:
    struct Entry {
        std::uint64_t key = 0;
        Score value = 0;
    };
    common::PageArray<Entry> entries_;
    std::size_t mask_ = 0;
    std::uint64_t hits_ = 0;
};

}  // namespace search
