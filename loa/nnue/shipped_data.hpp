// The shipped network's bytes, defined in the source loa/CMakeLists.txt generates from
// data/nets/ (which includes this header, so that declarations and definitions agree).
#pragma once

#include <cstddef>

namespace loa::nnue {

extern const char ShippedNetName[];
extern const unsigned char ShippedNetBytes[];
extern const std::size_t ShippedNetSize;

}  // namespace loa::nnue
