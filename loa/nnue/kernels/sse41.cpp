// SSE4.1 kernels (x86-64-v2, the build's default -march): 16-byte registers.
#include <cstddef>
#include <cstdint>

#include "loa/nnue/kernels/instruction_sets.hpp"

#if defined(__x86_64__)
#include <immintrin.h>

LOA_TARGET_BEGIN("sse4.1")

namespace loa::nnue::kernels {
namespace {
namespace sse41_kernels {

// 8 values a register, 16 (two registers) a step: H is a multiple of 16.
void update(const std::int16_t* in, std::int16_t* out, int size, const std::int16_t* const* added, std::size_t adds,
            const std::int16_t* const* removed, std::size_t removes) {
    for (int i = 0; i < size; i += 16) {
        __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
        __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i + 8));
        for (std::size_t c = 0; c < adds; ++c) {
            low = _mm_add_epi16(low, _mm_loadu_si128(reinterpret_cast<const __m128i*>(added[c] + i)));
            high = _mm_add_epi16(high, _mm_loadu_si128(reinterpret_cast<const __m128i*>(added[c] + i + 8)));
        }
        for (std::size_t c = 0; c < removes; ++c) {
            low = _mm_sub_epi16(low, _mm_loadu_si128(reinterpret_cast<const __m128i*>(removed[c] + i)));
            high = _mm_sub_epi16(high, _mm_loadu_si128(reinterpret_cast<const __m128i*>(removed[c] + i + 8)));
        }
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), low);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i + 8), high);
    }
}

// Clipped ReLU to bytes, 16 values a step: packus saturates to 0..255, the min to 0..127.
void clip_half(const std::int16_t* acc, int size, std::uint8_t* to) {
    const __m128i top = _mm_set1_epi8(WeightScale);
    for (int i = 0; i < size; i += 16) {
        const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + i));
        const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + i + 8));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i), _mm_min_epu8(_mm_packus_epi16(low, high), top));
    }
}

// Four hidden units at once: u8 x s8 products summed in pairs (maddubs; 2 * 127 * 128 fits
// int16, so it never saturates), then in fours (madd), then across registers (hadd).
void hidden(const HiddenLayerInput& in, std::int32_t* hidden) {
    alignas(16) std::uint8_t x[2 * MaxAccumulatorSize + MaxExtraInputs];
    const int h = in.accumulator_size;
    clip_half(in.stm, h, x);
    clip_half(in.other, h, x + h);
    const std::size_t halves = static_cast<std::size_t>(2 * h);
    const std::size_t row_size = halves + static_cast<std::size_t>(in.extra_count);
    for (int i = 0; i < in.extra_count; ++i) x[halves + static_cast<std::size_t>(i)] = in.extras[i];
    const __m128i ones = _mm_set1_epi16(1);
    for (int j = 0; j < in.hidden_size; j += 4) {
        const std::int8_t* rows = in.weights + static_cast<std::size_t>(j) * row_size;
        __m128i sums[4] = {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()};
        for (std::size_t i = 0; i < halves; i += 16) {
            const __m128i xs = _mm_load_si128(reinterpret_cast<const __m128i*>(x + i));
            for (std::size_t r = 0; r < 4; ++r) {
                const __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows + r * row_size + i));
                sums[r] = _mm_add_epi32(sums[r], _mm_madd_epi16(_mm_maddubs_epi16(xs, w), ones));
            }
        }
        // The extra inputs, 8 a step: the loads fill the low half and zero the high one.
        for (std::size_t i = halves; i < row_size; i += 8) {
            const __m128i xs = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(x + i));
            for (std::size_t r = 0; r < 4; ++r) {
                const __m128i w = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(rows + r * row_size + i));
                sums[r] = _mm_add_epi32(sums[r], _mm_madd_epi16(_mm_maddubs_epi16(xs, w), ones));
            }
        }
        __m128i total = _mm_hadd_epi32(_mm_hadd_epi32(sums[0], sums[1]), _mm_hadd_epi32(sums[2], sums[3]));
        total = _mm_add_epi32(total, _mm_loadu_si128(reinterpret_cast<const __m128i*>(in.bias + j)));
        total = _mm_srai_epi32(total, HiddenWeightShift);
        total = _mm_max_epi32(_mm_min_epi32(total, _mm_set1_epi32(WeightScale)), _mm_setzero_si128());
        _mm_storeu_si128(reinterpret_cast<__m128i*>(hidden + j), total);
    }
}

constexpr KernelSet Set{"sse4.1", update, hidden};

}  // namespace sse41_kernels
}  // namespace
}  // namespace loa::nnue::kernels

LOA_TARGET_END()

namespace loa::nnue::kernels {
const KernelSet* sse41() { return &sse41_kernels::Set; }
}  // namespace loa::nnue::kernels

#else

namespace loa::nnue::kernels {
const KernelSet* sse41() { return nullptr; }
}  // namespace loa::nnue::kernels

#endif
