// The reference kernels: plain C++, what every other kernel must equal exactly, and what a
// build for another CPU family runs.
#include <cstddef>
#include <cstdint>

#include "loa/nnue/kernels/instruction_sets.hpp"

namespace loa::nnue::kernels {
namespace {
namespace scalar_kernels {  // a name of its own: a unity batch may hold another kernel file

std::int32_t clip(std::int32_t v) { return v < 0 ? 0 : v > WeightScale ? WeightScale : v; }

void update(const std::int16_t* in, std::int16_t* out, int size, const std::int16_t* const* added, std::size_t adds,
            const std::int16_t* const* removed, std::size_t removes) {
    for (int i = 0; i < size; ++i) {
        int v = in[i];
        for (std::size_t c = 0; c < adds; ++c) v += added[c][i];
        for (std::size_t c = 0; c < removes; ++c) v -= removed[c][i];
        out[i] = static_cast<std::int16_t>(v);
    }
}

void hidden(const HiddenLayerInput& in, std::int32_t* hidden) {
    const int h = in.accumulator_size;
    const std::size_t row_size = static_cast<std::size_t>(2 * h + in.extra_count);
    for (int j = 0; j < in.hidden_size; ++j) {
        const std::int8_t* row = in.weights + static_cast<std::size_t>(j) * row_size;
        std::int32_t sum = in.bias[j];
        for (int i = 0; i < h; ++i) sum += clip(in.stm[i]) * row[i];
        for (int i = 0; i < h; ++i) sum += clip(in.other[i]) * row[h + i];
        for (int i = 0; i < in.extra_count; ++i) sum += in.extras[i] * row[2 * h + i];
        hidden[j] = clip(sum >> HiddenWeightShift);  // arithmetic shift, as the quantisation specifies
    }
}

constexpr KernelSet Set{"scalar", update, hidden};

}  // namespace scalar_kernels
}  // namespace

const KernelSet* scalar() { return &scalar_kernels::Set; }

}  // namespace loa::nnue::kernels
