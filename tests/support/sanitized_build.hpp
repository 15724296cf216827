// Sanitizer builds (ASan/UBSan, TSan) run a search ten to forty times slower than Release. A
// few tests that repeat one check over many positions take every n-th of them there; the
// Release stage of the test command runs them all (scripts/test.sh).
#pragma once

#include <cstddef>
#include <vector>

namespace loa::testing {

#ifdef LOA_SANITIZED_BUILD
inline constexpr bool sanitized_build = true;
#else
inline constexpr bool sanitized_build = false;
#endif

// Every `step`-th item (the first included) in a sanitizer build, all of them otherwise.
template <class T>
std::vector<T> sample_when_sanitized(const std::vector<T>& all, std::size_t step) {
    if (!sanitized_build || step <= 1) return all;
    std::vector<T> out;
    for (std::size_t i = 0; i < all.size(); i += step) out.push_back(all[i]);
    return out;
}

}  // namespace loa::testing
