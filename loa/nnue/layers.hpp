// The network's arithmetic after docs/nnue.md: the accumulator's column updates and the layers
// above it, on the kernels of kernels.hpp (by default the fastest this CPU runs; every kernel
// gives the same integers, the scalar one being the reference).
#pragma once

#include <cstdint>
#include <span>

#include "loa/nnue/kernels.hpp"
#include "loa/nnue/network.hpp"

namespace loa::nnue {

// out = in + sum of the `added` columns - sum of the `removed` ones (H int16 each, wrapping
// never happens for a network that passed the load checks). `out` may be `in`.
void update_accumulator(const std::int16_t* in, std::int16_t* out, int size, std::span<const std::int16_t* const> added,
                        std::span<const std::int16_t* const> removed, const KernelSet& kernels = active_kernels());

// The evaluation (centi-units, side to move's view, clamped to +-20000) from the two
// perspectives' accumulators and the net's extra inputs (exactly net.extra_inputs() values, each
// in 0..127, read after the two halves; none for a net without them; std::logic_error otherwise).
int propagate(const Network& net, const std::int16_t* stm, const std::int16_t* other,
              std::span<const std::uint8_t> extras = {}, const KernelSet& kernels = active_kernels());

}  // namespace loa::nnue
