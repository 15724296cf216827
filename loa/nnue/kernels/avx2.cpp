// AVX2 kernels (x86-64-v3): 32-byte registers, called only on a CPU that has AVX2.
#include <cstddef>
#include <cstdint>

#include "loa/nnue/kernels/instruction_sets.hpp"

#if defined(__x86_64__)
#include <immintrin.h>

LOA_TARGET_BEGIN("avx2")

namespace loa::nnue::kernels {
namespace {
namespace avx2_kernels {

// 16 values a register (H is a multiple of 16); each column is read once.
void update(const std::int16_t* in, std::int16_t* out, int size, const std::int16_t* const* added, std::size_t adds,
            const std::int16_t* const* removed, std::size_t removes) {
    for (int i = 0; i < size; i += 16) {
        __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
        for (std::size_t c = 0; c < adds; ++c)
            v = _mm256_add_epi16(v, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(added[c] + i)));
        for (std::size_t c = 0; c < removes; ++c)
            v = _mm256_sub_epi16(v, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(removed[c] + i)));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), v);
    }
}

// Clipped ReLU to bytes, 16 values a step (packus saturates to 0..255, the min to 0..127); a
// small share of the layer's work, so 16 bytes wide.
void clip_half(const std::int16_t* acc, int size, std::uint8_t* to) {
    const __m128i top = _mm_set1_epi8(WeightScale);
    for (int i = 0; i < size; i += 16) {
        const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + i));
        const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + i + 8));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(to + i), _mm_min_epu8(_mm_packus_epi16(low, high), top));
    }
}

// Four hidden units at once, 32 inputs a step: maddubs (u8 x s8 pairs; 2 * 127 * 128 fits
// int16, so it never saturates), madd into int32 lanes, and the four units' lanes summed by
// hadd at the end.
void hidden(const HiddenLayerInput& in, std::int32_t* hidden) {
    alignas(32) std::uint8_t x[2 * MaxAccumulatorSize + MaxExtraInputs];
    const int h = in.accumulator_size;
    clip_half(in.stm, h, x);
    clip_half(in.other, h, x + h);
    const std::size_t halves = static_cast<std::size_t>(2 * h);  // a multiple of 32
    const std::size_t row_size = halves + static_cast<std::size_t>(in.extra_count);
    for (int i = 0; i < in.extra_count; ++i) x[halves + static_cast<std::size_t>(i)] = in.extras[i];
    const __m256i ones = _mm256_set1_epi16(1);
    for (int j = 0; j < in.hidden_size; j += 4) {
        const std::int8_t* rows = in.weights + static_cast<std::size_t>(j) * row_size;
        __m256i sums[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
        for (std::size_t i = 0; i < halves; i += 32) {
            const __m256i xs = _mm256_load_si256(reinterpret_cast<const __m256i*>(x + i));
            for (std::size_t r = 0; r < 4; ++r) {
                const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows + r * row_size + i));
                sums[r] = _mm256_add_epi32(sums[r], _mm256_madd_epi16(_mm256_maddubs_epi16(xs, w), ones));
            }
        }
        // The extra inputs, 8 a step, in the low half of a register whose high half is zero.
        for (std::size_t i = halves; i < row_size; i += 8) {
            const __m256i xs = _mm256_set_m128i(_mm_setzero_si128(), _mm_loadl_epi64(reinterpret_cast<const __m128i*>(x + i)));
            for (std::size_t r = 0; r < 4; ++r) {
                const __m256i w = _mm256_set_m128i(_mm_setzero_si128(),
                                                   _mm_loadl_epi64(reinterpret_cast<const __m128i*>(rows + r * row_size + i)));
                sums[r] = _mm256_add_epi32(sums[r], _mm256_madd_epi16(_mm256_maddubs_epi16(xs, w), ones));
            }
        }
        // hadd works within each 128-bit half: the halves then hold partial sums of units
        // j..j+3 in order, and adding them gives the four totals.
        const __m256i pairs = _mm256_hadd_epi32(_mm256_hadd_epi32(sums[0], sums[1]), _mm256_hadd_epi32(sums[2], sums[3]));
        __m128i total = _mm_add_epi32(_mm256_castsi256_si128(pairs), _mm256_extracti128_si256(pairs, 1));
        total = _mm_add_epi32(total, _mm_loadu_si128(reinterpret_cast<const __m128i*>(in.bias + j)));
        total = _mm_srai_epi32(total, HiddenWeightShift);
        total = _mm_max_epi32(_mm_min_epi32(total, _mm_set1_epi32(WeightScale)), _mm_setzero_si128());
        _mm_storeu_si128(reinterpret_cast<__m128i*>(hidden + j), total);
    }
}

constexpr KernelSet Set{"avx2", update, hidden};

}  // namespace avx2_kernels
}  // namespace
}  // namespace loa::nnue::kernels

LOA_TARGET_END()

namespace loa::nnue::kernels {
const KernelSet* avx2() { return &avx2_kernels::Set; }
}  // namespace loa::nnue::kernels

#else

namespace loa::nnue::kernels {
const KernelSet* avx2() { return nullptr; }
}  // namespace loa::nnue::kernels

#endif
