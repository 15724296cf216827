// SplitMix64's finaliser: independent random streams from one seed and a counter (a game's
// number, an iteration's), the same on every machine and build, so that seeded runs resume.
#pragma once

#include <cstdint>

namespace common {

constexpr std::uint64_t splitmix64(std::uint64_t x) {
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

}  // namespace common
