// The transposition table of depth-first proof-number search: the proof and disproof numbers
// last computed for a position and goal (the caller folds the goal into the key), solved or
// not. Depth-first search forgets a subtree when it leaves it; this table is what it finds
// when it comes back. One entry per slot, always replaced, the full key verified. As in the
// solved table (solved_table.hpp), a proof is trusted only by the solve that found it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "common/solver/proof_numbers.hpp"
#include "common/solver/solved_table.hpp"

namespace solver {

class NumbersTable {
public:
    struct Numbers {
        ProofNumber pn = 1, dn = 1;
    };

    // At least 1,024 entries, also for 0 MB: the search cannot do without its table.
    explicit NumbersTable(std::size_t megabytes) {
        std::size_t slots = 1024;
        while (slots * 2 * sizeof(Entry) <= megabytes * 1024 * 1024) slots *= 2;
        entries_.assign(slots, Entry{});
        mask_ = slots - 1;
    }

    std::optional<Numbers> probe(std::uint64_t key) const {
        const Entry& e = entries_[key & mask_];
        if (e.key != (e.pn == 0 ? proof_key(key, solve_) : key) || (e.pn == 0 && e.dn == 0)) return std::nullopt;
        return Numbers{e.pn, e.dn};
    }
    void store(std::uint64_t key, ProofNumber pn, ProofNumber dn) {
        entries_[key & mask_] = {pn == 0 ? proof_key(key, solve_) : key, pn, dn};
    }
    // The next solve: the proofs stored so far are no longer trusted.
    void new_solve() { ++solve_; }
    void clear() { entries_.assign(entries_.size(), Entry{}); }

private:
    struct Entry {  // 16 bytes; pn = dn = 0, which no position has, marks an empty slot
        std::uint64_t key = 0;
        ProofNumber pn = 0, dn = 0;
    };
    std::vector<Entry> entries_;
    std::size_t mask_ = 0;
    std::uint32_t solve_ = 0;
};

}  // namespace solver
