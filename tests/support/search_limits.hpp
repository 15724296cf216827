// Helpers the search tests share (pv_test.cpp, pv_store_test.cpp, solving_searcher_test.cpp).
#pragma once

#include "common/search/limits.hpp"

namespace loa::testing {

// The limits of a search to a fixed depth.
inline ::search::SearchLimits depth(int d) {
    ::search::SearchLimits l;
    l.depth = d;
    return l;
}

}  // namespace loa::testing
