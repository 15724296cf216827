// Positions a proof-number search has solved, by key: the transposition table of the solver.
//
// A subtree whose (dis)proof rests on a repetition draw or on the game-length rule depends on
// the path to it (the graph-history interaction problem) and is never stored, and under a
// game-length rule no proof is stored or used (it may need more plies than another path
// leaves). Known gap (docs/solver.md): a stored proof assumes the defender cannot repeat a
// position of the line that reaches it later. The goal (which
// side is trying to win) is folded into the key by the caller. One entry per slot, always
// replaced, the full key verified.
//
// A table may outlive a solve (the engine keeps it over a game), but a proof holds only under
// the game history of the solve that found it: a later root may lie inside that proof, and
// the defender could then walk the proof's line back to the root until its third occurrence
// draws. So each solve trusts only its own proofs (new_solve()); disproofs and unsolved
// numbers last, since a repetition only helps the defender and numbers are only estimates.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace solver {

enum class Verdict : std::uint8_t { Unknown, Proven, Disproven };

// The key a proof is stored under in solve number `solve`: no other solve's probe matches it,
// while the entry keeps its slot (a table's size, and so its node counts, are unchanged).
inline std::uint64_t proof_key(std::uint64_t key, std::uint32_t solve) {
    return key ^ ((std::uint64_t{solve} + 1) * 0xD6E8FEB86659FD93ULL);
}

// The goal-specific key for a solver's table: the same position has different verdicts for
// the two goals, and the side to move alone does not tell which goal a search has.
inline std::uint64_t goal_key(std::uint64_t position_key, bool attacker_to_move) {
    return attacker_to_move ? position_key : position_key ^ 0x9E3779B97F4A7C15ULL;
}

class SolvedTable {
public:
    explicit SolvedTable(std::size_t megabytes) {
        std::size_t slots = 1024;
        while (slots * 2 * sizeof(Entry) <= megabytes * 1024 * 1024) slots *= 2;
        entries_.assign(slots, Entry{});
        mask_ = slots - 1;
    }

    Verdict probe(std::uint64_t key) const {
        const Entry& e = entries_[key & mask_];
        if (e.verdict == Verdict::Proven) return e.key == proof_key(key, solve_) ? Verdict::Proven : Verdict::Unknown;
        return e.key == key ? e.verdict : Verdict::Unknown;
    }
    void store(std::uint64_t key, bool proven) {
        entries_[key & mask_] = {proven ? proof_key(key, solve_) : key, proven ? Verdict::Proven : Verdict::Disproven};
        ++stores_;
    }
    // The next solve: the proofs stored so far are no longer trusted.
    void new_solve() { ++solve_; }
    void clear() {
        entries_.assign(entries_.size(), Entry{});
        stores_ = 0;
    }
    std::uint64_t stores() const { return stores_; }

private:
    struct Entry {
        std::uint64_t key = 0;
        Verdict verdict = Verdict::Unknown;
    };
    std::vector<Entry> entries_;
    std::size_t mask_ = 0;
    std::uint64_t stores_ = 0;
    std::uint32_t solve_ = 0;
};

}  // namespace solver
