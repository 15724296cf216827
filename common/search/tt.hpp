// Transposition table (Zobrist-keyed, Hsu's slides; replacement schemes after Breuker,
// Uiterwijk and van den Herik, "Replacement Schemes for Transposition Tables", 1994).
//
// An entry is 16 bytes, four to a 64-byte cache line, so a probe touches one line. It keeps
// the whole 64-bit key, so a hit is the position that was stored (up to a Zobrist collision
// of two positions, about one in 2^64 per probe), not merely one that shares some key bits:
// with 16 verification bits an 18-million-node search took 77 cutoffs from other positions,
// 14 of them decisive, and a false decisive bound can travel to the root as a claimed win.
//   always:  one entry per slot, a new result always replaces it ("New").
//   depth:   one entry per slot, replaced by a result searched at least as deep, or when the
//            entry is from an earlier search ("Deep", with aging).
//   twodeep: slots are pairs; the first entry keeps the deepest result, the second takes
//            everything else ("TwoDeep"); a deeper result pushes the first down.
//
// A result that holds only in the context it was searched in (a decisive result: a side forces
// the end, where the other could not draw by repeating the positions of its game and path;
// search.hpp) is stored keyed by position and context together: its check word also takes a
// 64-bit hash of the context, so that it answers only a probe made in the same context, and
// reads as a miss in any other.
#pragma once

#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include "common/page_array.hpp"
#include "common/search/config.hpp"
#include "common/search/pv_store.hpp"
#include "common/search/score.hpp"

namespace search {

enum class Bound : std::uint8_t { None = 0, Upper = 1, Lower = 2, Exact = 3 };

// What an entry holds besides its key: 8 bytes.
struct TTEntry {
    std::uint16_t move = 0;
    std::int16_t score = 0;
    std::int8_t depth = 0;
    std::uint8_t generation_bound = 0;  // generation << 2 | bound
    std::uint16_t in_context = 0;       // 1: keyed by position and context (see above)

    Bound bound() const { return static_cast<Bound>(generation_bound & 3); }
    std::uint8_t generation() const { return generation_bound >> 2; }
    bool empty() const { return bound() == Bound::None; }
};
static_assert(sizeof(TTEntry) == 8, "an entry's data is one 64-bit word");

struct TTHit {
    bool found = false;
    std::uint16_t move = 0;
    Score score = 0;  // already adjusted to the probing ply
    int depth = 0;
    Bound bound = Bound::None;
    bool in_context = false;  // a result of this context only
};

class TranspositionTable {
public:
    static constexpr std::size_t CacheLine = 64;
    static constexpr std::size_t EntryBytes = 16;
    static constexpr std::size_t EntriesPerLine = CacheLine / EntryBytes;
    static constexpr int GenerationCycle = 64;

    TranspositionTable(std::size_t megabytes, TTReplace scheme) : scheme_(scheme) { resize(megabytes); }

    // The memory of the PV lines beside a table of `megabytes` (what the budget counts too).
    static double line_megabytes(std::size_t megabytes) {
        return static_cast<double>(line_slots(entries_for(megabytes)) * PvStore::SlotBytes) / (1024 * 1024);
    }

    void resize(std::size_t megabytes) {
        const std::size_t entries = entries_for(megabytes);
        // Empty slots in pages of their own (cache-line aligned), given back to the system when
        // the table is freed (page_array.hpp): an idle server holds no table.
        entries_ = common::PageArray<Slot>(entries);
        size_ = entries;
        generation_ = 0;
        lines_ = PvStore(line_slots(entries));
    }

    void clear() {
        for (std::size_t i = 0; i < size_; ++i) write_raw(i, Stored{});
        lines_.clear();
        generation_ = 0;
    }

    // Called once per search, before any thread searches: entries of earlier searches
    // become replaceable.
    void new_search() { generation_ = static_cast<std::uint8_t>((generation_ + 1) % GenerationCycle); }

    std::size_t size() const { return size_; }
    // The lines behind the exact entries stored at PV nodes (pv_store.hpp).
    PvStore& lines() { return lines_; }
    const PvStore& lines() const { return lines_; }
    std::size_t bytes() const { return size_ * EntryBytes; }
    TTReplace scheme() const { return scheme_; }

    // Starts loading `key`'s cache line while the caller does other work before it probes (a
    // child's rules and repetition scan): in a table of megabytes a probe is mostly a miss.
    void prefetch(std::uint64_t key) const { __builtin_prefetch(&entries_[slot_of(key)]); }

    // The entry of `key`: one stored without a context, or one stored in `context` (the
    // probing node's). An entry of the position stored in another context is not found.
    TTHit probe(std::uint64_t key, int ply, std::uint64_t context = 0) const {
        const std::size_t slot = slot_of(key);
        const std::size_t ways = scheme_ == TTReplace::TwoDeep ? 2 : 1;
        for (std::size_t w = 0; w < ways; ++w) {
            const Stored s = read(slot + w);
            if (!s.entry.empty() && s.key(context) == key)
                return {true, s.entry.move, score_from_tt(s.entry.score, ply), s.entry.depth, s.entry.bound(), s.entry.in_context != 0};
        }
        return {};
    }

    // `context` != 0: the result holds only in that context (keyed by it); 0: in any.
    void store(std::uint64_t key, int ply, int depth, Score score, Bound bound, std::uint16_t move,
               std::uint64_t context = 0) {
        TTEntry fresh;
        fresh.move = move;
        fresh.score = static_cast<std::int16_t>(score_to_tt(score, ply));
        fresh.depth = static_cast<std::int8_t>(depth < 0 ? 0 : depth > 127 ? 127 : depth);
        fresh.generation_bound = static_cast<std::uint8_t>(generation_ << 2 | static_cast<std::uint8_t>(bound));
        fresh.in_context = context != 0;
        // Old entries are compared with this position as a probe from the same node would.
        const std::size_t at = slot_of(key);
        switch (scheme_) {
            case TTReplace::Always: {
                keep_move(read(at), key, context, fresh);
                write(at, key, context, fresh);
                break;
            }
            case TTReplace::Depth: {
                const Stored old = read(at);
                if (old.entry.empty() || old.key(context) == key || old.entry.generation() != generation_ ||
                    fresh.depth >= old.entry.depth) {
                    keep_move(old, key, context, fresh);
                    write(at, key, context, fresh);
                }
                break;
            }
            case TTReplace::TwoDeep: {
                const Stored deep = read(at);
                const Stored recent = read(at + 1);
                const bool deep_stale = deep.entry.empty() || deep.entry.generation() != generation_;
                if (deep.key(context) == key && !deep.entry.empty()) {
                    // Same position as the deep entry: keep the deeper of the two results there.
                    if (fresh.depth >= deep.entry.depth || deep_stale) {
                        keep_move(deep, key, context, fresh);
                        write(at, key, context, fresh);
                    } else {
                        write(at + 1, key, context, fresh);
                    }
                } else if (deep_stale || fresh.depth >= deep.entry.depth) {
                    keep_move(recent, key, context, fresh);
                    if (!deep.entry.empty()) write_raw(at + 1, deep);  // the old deep result moves down a level
                    write(at, key, context, fresh);
                } else {
                    keep_move(recent, key, context, fresh);
                    write(at + 1, key, context, fresh);
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
            const TTEntry e = read(i).entry;
            used += !e.empty() && e.generation() == generation_;
        }
        return static_cast<int>(used * 1000 / sample);
    }

private:
    // An entry is two 64-bit atomic words: its data, and its key XOR its data (Hyatt and
    // Mann's lockless hashing). Threads sharing the table (lazy SMP) may interleave their
    // writes of one entry; a reader then sees one thread's check word with another's data,
    // which no longer give the key back, so a torn entry reads as a miss. Relaxed order: a
    // lost update between threads only costs a re-search. On x86-64 these are plain moves.
    struct Slot {
        std::atomic<std::uint64_t> check{0};
        std::atomic<std::uint64_t> data{0};
    };
    static_assert(sizeof(Slot) == EntryBytes && std::atomic<std::uint64_t>::is_always_lock_free);

    // An entry as read: its two words, and its data unpacked.
    struct Stored {
        std::uint64_t check = 0, data = 0;
        TTEntry entry;
        // The key it gives back to a probe made in `context` (an entry keyed by another
        // context gives another key).
        std::uint64_t key(std::uint64_t context) const { return check ^ data ^ (entry.in_context ? context : 0); }
    };

    Stored read(std::size_t i) const {
        const std::uint64_t data = entries_[i].data.load(std::memory_order_relaxed);
        const std::uint64_t check = entries_[i].check.load(std::memory_order_relaxed);
        return {check, data, std::bit_cast<TTEntry>(data)};
    }
    void write(std::size_t i, std::uint64_t key, std::uint64_t context, const TTEntry& e) {
        const auto data = std::bit_cast<std::uint64_t>(e);
        write_raw(i, {key ^ data ^ (e.in_context ? context : 0), data, e});
    }
    void write_raw(std::size_t i, const Stored& s) {
        entries_[i].check.store(s.check, std::memory_order_relaxed);
        entries_[i].data.store(s.data, std::memory_order_relaxed);
    }

    std::size_t slot_of(std::uint64_t key) const {
        std::size_t slot = static_cast<std::size_t>(key) & (size_ - 1);
        if (scheme_ == TTReplace::TwoDeep) slot &= ~std::size_t{1};
        return slot;
    }
    // A bound without a move (fail low) keeps the move an earlier search found for the position.
    static void keep_move(const Stored& old, std::uint64_t key, std::uint64_t context, TTEntry& fresh) {
        if (fresh.move == 0 && !old.entry.empty() && old.key(context) == key) fresh.move = old.entry.move;
    }

    // A line slot for every 256 entries (a 3.5% of the table's bytes), between 64 and 16384.
    static std::size_t line_slots(std::size_t entries) {
        const std::size_t slots = entries / 256;
        return slots < 64 ? 64 : slots > 16384 ? 16384 : slots;
    }
    static std::size_t entries_for(std::size_t megabytes) {
        std::size_t entries = EntriesPerLine;
        while (entries * 2 * EntryBytes <= megabytes * 1024 * 1024) entries *= 2;
        return entries;
    }

    common::PageArray<Slot> entries_;
    std::size_t size_ = 0;
    PvStore lines_{64};
    TTReplace scheme_;
    std::uint8_t generation_ = 0;
};

}  // namespace search
