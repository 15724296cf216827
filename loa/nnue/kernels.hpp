// The network's two hot loops, one implementation per instruction set, chosen at run time from
// the CPU's flags: the accumulator's column update and the hidden layer (clipped ReLU of the
// accumulators, the int8 dot products, the hidden units' clipped ReLU). Every kernel computes
// the same integers (no kernel can saturate: network.cpp's load checks bound every sum), so
// the choice changes the speed and never a score; the scalar kernel is the reference the tests
// hold the others to.
//
// The build stays runnable on its -march (x86-64-v2 by default): the AVX2 and AVX-512 kernels
// are compiled for their instruction sets function by function (kernels/*.cpp) and called only
// when the CPU has them. LOA_NNUE_KERNEL=<name> in the environment picks a lower one (for
// measurements); an unknown or unsupported name is refused when the kernels are first used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace loa::nnue {

// What the hidden-layer kernel reads: plain pointers and sizes, so that the kernels' files need
// no header with inline code (see kernels/instruction_sets.hpp).
struct HiddenLayerInput {
    const std::int16_t* stm;    // the side to move's accumulator, H values
    const std::int16_t* other;  // the other side's
    int accumulator_size;       // H, a multiple of 16
    const std::uint8_t* extras;  // E extra inputs in 0..127 (none: E = 0)
    int extra_count;             // E, 0 or a multiple of 8
    const std::int8_t* weights;  // [L][2H + E]
    const std::int32_t* bias;    // [L]
    int hidden_size;             // L, a multiple of 4
};

struct KernelSet {
    const char* name;
    // out = in + the `added` columns - the `removed` ones, `size` int16 each (a multiple of 16;
    // `out` may be `in`).
    void (*update)(const std::int16_t* in, std::int16_t* out, int size, const std::int16_t* const* added,
                   std::size_t adds, const std::int16_t* const* removed, std::size_t removes);
    // hidden[j] = clamp((bias[j] + sum_i x[i] * w[j][i]) >> 6, 0, 127), x = the clipped halves
    // (stm first) and the extras: docs/nnue.md's quantisation.
    void (*hidden)(const HiddenLayerInput& input, std::int32_t* hidden);
};

// Every kernel built into this program, the reference (scalar) first, the fastest last; only
// those the CPU can run when `runnable_only`.
std::vector<const KernelSet*> kernel_sets(bool runnable_only);
// The kernel of that name if built in and runnable here; otherwise InputError naming the
// kernels this CPU can run.
const KernelSet& kernel_set(std::string_view name);
const KernelSet& scalar_kernels();
// The kernels the engine uses: the fastest runnable one, or LOA_NNUE_KERNEL's. Chosen once.
const KernelSet& active_kernels();
// The kernels' names, e.g. "scalar, sse4.1, avx2" (runnable ones only when asked).
std::string kernel_names(bool runnable_only);

}  // namespace loa::nnue
