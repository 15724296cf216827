// Transposition table (Zobrist-keyed, Hsu's slides; replacement schemes after Breuker,
// Uiterwijk and van den Herik, "Replacement Schemes for Transposition Tables", 1994).
//
// Entries are packed in 8 bytes and the table is a power-of-two array aligned to 64-byte
// cache lines, so a probe touches one line. The low key bits pick the slot; 16 high bits are
// kept to verify. A wrong-key hit can only offer a move that is then not among the legal
// moves (the move picker ignores it) and a bound on one node.
//   always:  one entry per slot, a new result always replaces it ("New").
//   depth:   one entry per slot, replaced by a result searched at least as deep, or when the
//            entry is from an earlier search ("Deep", with aging).
//   twodeep: slots are pairs; the first entry keeps the deepest result, the second takes
//            everything else ("TwoDeep"); a deeper result pushes the first down.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include "common/search/config.hpp"
#include "common/search/score.hpp"

namespace search {

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

struct TTEntry {
    std::uint16_t key16 = 0;
    std::uint16_t move = 0;
    std::int16_t score = 0;
    std::int8_t depth = 0;
    std::uint8_t generation_bound = 0;  // generation << 2 | bound

    Bound bound() const { return static_cast<Bound>(generation_bound & 3); }
    std::uint8_t generation() const { return generation_bound >> 2; }
    bool empty() const { return bound() == Bound::None; }
};
static_assert(sizeof(TTEntry) == 8, "TT entries are packed in 8 bytes");

struct TTHit {
    bool found = false;
    std::uint16_t move = 0;
    Score score = 0;  // already adjusted to the probing ply
    int depth = 0;
    Bound bound = Bound::None;
};

class TranspositionTable {
public:
    static constexpr std::size_t CacheLine = 64;
    static constexpr std::size_t EntriesPerLine = CacheLine / sizeof(TTEntry);
    static constexpr int GenerationCycle = 64;

    TranspositionTable(std::size_t megabytes, TTReplace scheme) : scheme_(scheme) { resize(megabytes); }

    void resize(std::size_t megabytes) {
        std::size_t entries = EntriesPerLine;
        while (entries * 2 * sizeof(TTEntry) <= megabytes * 1024 * 1024) entries *= 2;
        entries_.reset(static_cast<Slot*>(::operator new[](entries * sizeof(Slot), std::align_val_t{CacheLine})));
        for (std::size_t i = 0; i < entries; ++i) new (&entries_[i]) Slot(0);
        size_ = entries;
        generation_ = 0;
    }

    void clear() {
        for (std::size_t i = 0; i < size_; ++i) write(i, TTEntry{});
        generation_ = 0;
    }

    // Called once per search, before any thread searches: entries of earlier searches
    // become replaceable.
    void new_search() { generation_ = static_cast<std::uint8_t>((generation_ + 1) % GenerationCycle); }

    std::size_t size() const { return size_; }
    std::size_t bytes() const { return size_ * sizeof(TTEntry); }
    TTReplace scheme() const { return scheme_; }

    TTHit probe(std::uint64_t key, int ply) const {
        const std::uint16_t k16 = key16(key);
        const std::size_t slot = slot_of(key);
        const std::size_t ways = scheme_ == TTReplace::TwoDeep ? 2 : 1;
        for (std::size_t w = 0; w < ways; ++w) {
            const TTEntry e = read(slot + w);
            if (!e.empty() && e.key16 == k16)
                return {true, e.move, score_from_tt(e.score, ply), e.depth, e.bound()};
        }
        return {};
    }

    void store(std::uint64_t key, int ply, int depth, Score score, Bound bound, std::uint16_t move) {
        TTEntry fresh;
        fresh.key16 = key16(key);
        fresh.move = move;
        fresh.score = static_cast<std::int16_t>(score_to_tt(score, ply));
        fresh.depth = static_cast<std::int8_t>(depth < 0 ? 0 : depth > 127 ? 127 : depth);
        fresh.generation_bound = static_cast<std::uint8_t>(generation_ << 2 | static_cast<std::uint8_t>(bound));
        const std::size_t at = slot_of(key);
        switch (scheme_) {
            case TTReplace::Always: {
                keep_move(read(at), fresh);
                write(at, fresh);
                break;
            }
            case TTReplace::Depth: {
                const TTEntry old = read(at);
                if (old.empty() || old.key16 == fresh.key16 || old.generation() != generation_ || fresh.depth >= old.depth) {
                    keep_move(old, fresh);
                    write(at, fresh);
                }
                break;
            }
            case TTReplace::TwoDeep: {
                const TTEntry deep = read(at);
                const TTEntry recent = read(at + 1);
                const bool deep_stale = deep.empty() || deep.generation() != generation_;
                if (deep.key16 == fresh.key16 && !deep.empty()) {
                    // Same position as the deep entry: keep the deeper of the two results there.
                    if (fresh.depth >= deep.depth || deep_stale) {
                        keep_move(deep, fresh);
                        write(at, fresh);
                    } else {
                        write(at + 1, fresh);
                    }
                } else if (deep_stale || fresh.depth >= deep.depth) {
                    if (recent.key16 == fresh.key16) keep_move(recent, fresh);
                    if (!deep.empty()) write(at + 1, deep);  // the old deep result moves down a level
                    write(at, fresh);
                } else {
                    if (recent.key16 == fresh.key16) keep_move(recent, fresh);
                    write(at + 1, fresh);
                }
                break;
            }
        }
    }

    // Permille of sampled entries written by the current search (UCI "hashfull").
    int hashfull() const {
        const std::size_t sample = size_ < 1000 ? size_ : 1000;
        std::size_t used = 0;
        for (std::size_t i = 0; i < sample; ++i) {
            const TTEntry e = read(i);
            used += !e.empty() && e.generation() == generation_;
        }
        return static_cast<int>(used * 1000 / sample);
    }

private:
    // Each entry is one 64-bit atomic word, so that threads sharing the table (lazy SMP) never
    // see half of one entry and half of another. Relaxed order: an entry is a self-contained
    // hint checked by its key bits, and a lost update between threads only costs a re-search.
    // On x86-64 these loads and stores are plain moves, so one thread pays nothing for it.
    using Slot = std::atomic<std::uint64_t>;
    static_assert(sizeof(Slot) == sizeof(TTEntry) && Slot::is_always_lock_free);

    TTEntry read(std::size_t i) const { return std::bit_cast<TTEntry>(entries_[i].load(std::memory_order_relaxed)); }
    void write(std::size_t i, const TTEntry& e) { entries_[i].store(std::bit_cast<std::uint64_t>(e), std::memory_order_relaxed); }

    struct AlignedDelete {
        void operator()(Slot* p) const { ::operator delete[](p, std::align_val_t{CacheLine}); }
    };

    static std::uint16_t key16(std::uint64_t key) { return static_cast<std::uint16_t>(key >> 48); }
    std::size_t slot_of(std::uint64_t key) const {
        std::size_t slot = static_cast<std::size_t>(key) & (size_ - 1);
        if (scheme_ == TTReplace::TwoDeep) slot &= ~std::size_t{1};
        return slot;
    }
    // A bound without a move (fail low) keeps the move an earlier search found for the position.
    static void keep_move(const TTEntry& old, TTEntry& fresh) {
        if (fresh.move == 0 && !old.empty() && old.key16 == fresh.key16) fresh.move = old.move;
    }

    std::unique_ptr<Slot[], AlignedDelete> entries_;
    std::size_t size_ = 0;
    TTReplace scheme_;
    std::uint8_t generation_ = 0;
};

}  // namespace search
