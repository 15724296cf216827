// Proof and disproof numbers (Allis, 1994): the least number of leaves that must still be
// proven (disproven) to prove (disprove) a node. Sums saturate below Infinite, so that a
// large sum can never read as a proof by overflow.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

namespace solver {

using ProofNumber = std::uint32_t;
inline constexpr ProofNumber Infinite = std::numeric_limits<ProofNumber>::max();
inline constexpr ProofNumber MaxFinite = Infinite - 1;

constexpr ProofNumber saturating_add(ProofNumber a, ProofNumber b) {
    if (a == Infinite || b == Infinite) return Infinite;
    const std::uint64_t sum = std::uint64_t{a} + b;
    return sum >= MaxFinite ? MaxFinite : static_cast<ProofNumber>(sum);
}

inline std::string format_proof_number(ProofNumber n) { return n == Infinite ? "inf" : std::to_string(n); }

}  // namespace solver
