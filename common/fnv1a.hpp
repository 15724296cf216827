// FNV-1a (64 bits): a fingerprint of text that is the same on every machine and build
// (std::hash is neither), for digests that files record and later runs compare.
#pragma once

#include <cstdint>
#include <string_view>

namespace common {

inline constexpr std::uint64_t Fnv1aStart = 0xcbf29ce484222325ULL;

// The hash of `text`, going on from `hash` (Fnv1aStart for a new one).
constexpr std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = Fnv1aStart) {
    for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    return hash;
}

}  // namespace common
