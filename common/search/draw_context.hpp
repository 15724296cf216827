// The draw context of a node: the positions that a repetition below it draws with (those on
// the search path since the last irreversible move, and those the game before the root has
// seen twice), as a 64-bit set hash. A decisive result depends on it: a side forces the end of
// the game only where the other cannot draw by repeating one of these positions, so the
// transposition table keys such a result by its context too (tt.hpp).
//
// The hash is the XOR of a non-linear mix of each position's key. A plain XOR of the keys would
// not do: Zobrist keys are themselves XORs of piece-square keys, and the XOR of the keys along
// a path then depends on its two ends only, not on the positions it went through.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "common/splitmix64.hpp"

namespace search {

// SplitMix64's finaliser (common/splitmix64.hpp): a bijection whose output bits each depend on
// every input bit.
constexpr std::uint64_t mix_key(std::uint64_t key) { return common::splitmix64(key); }

// The set hash with one more position in it.
constexpr std::uint64_t draw_context_with(std::uint64_t context, std::uint64_t key) { return context ^ mix_key(key); }

// The context at the root: the positions of the game before it (`history`, since the last
// irreversible move) seen twice already, whose next occurrence is the third.
inline std::uint64_t root_draw_context(std::span<const std::uint64_t> history) {
    std::vector<std::uint64_t> sorted(history.begin(), history.end());
    std::sort(sorted.begin(), sorted.end());
    std::uint64_t context = 0;
    for (std::size_t i = 0; i < sorted.size();) {
        std::size_t j = i;
        while (j < sorted.size() && sorted[j] == sorted[i]) ++j;
        if (j - i >= 2) context = draw_context_with(context, sorted[i]);
        i = j;
    }
    return context;
}

// What keys a context-bound table entry: the context hash, never 0 (0 means "no context" to
// the table), the empty context included.
constexpr std::uint64_t context_key(std::uint64_t context) { return context ^ 0x6A09E667F3BCC909ULL; }

}  // namespace search
