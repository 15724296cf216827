// AVX-512 kernels (F and BW; x86-64-v4): 64-byte registers with masked loads for the tails,
// called only on a CPU that has them. A second kernel set, avx512vnni, computes the hidden layer
// with VNNI's vpdpbusd (u8 x s8 dot products of four into int32, no intermediate int16) where
// the CPU has it; it equals maddubs + madd because maddubs never saturates here. The VNNI code is compiled in a target
// region of its own: with VNNI enabled the compiler may fuse madd + add into vpdpwssd, which
// a CPU with AVX-512 BW but no VNNI (Skylake-X) could not run.
#include <cstddef>
#include <cstdint>

#include "loa/nnue/kernels/instruction_sets.hpp"

#if defined(__x86_64__)
#include <immintrin.h>

LOA_TARGET_BEGIN("avx512f,avx512bw")

namespace loa::nnue::kernels {
namespace {
namespace avx512_kernels {

// The first `count` (0..64) bytes set.
__mmask64 first_bytes(std::size_t count) { return count >= 64 ? ~__mmask64{0} : (__mmask64{1} << count) - 1; }

// 32 values a register; H is a multiple of 16, the last step of an odd count masked.
void update(const std::int16_t* in, std::int16_t* out, int size, const std::int16_t* const* added, std::size_t adds,
            const std::int16_t* const* removed, std::size_t removes) {
    for (int i = 0; i < size; i += 32) {
        const __mmask32 lanes = size - i >= 32 ? ~__mmask32{0} : (__mmask32{1} << (size - i)) - 1;
        __m512i v = _mm512_maskz_loadu_epi16(lanes, in + i);
        for (std::size_t c = 0; c < adds; ++c) v = _mm512_add_epi16(v, _mm512_maskz_loadu_epi16(lanes, added[c] + i));
        for (std::size_t c = 0; c < removes; ++c) v = _mm512_sub_epi16(v, _mm512_maskz_loadu_epi16(lanes, removed[c] + i));
        _mm512_mask_storeu_epi16(out + i, lanes, v);
    }
}

// The layer's input bytes: the two halves' clipped ReLU (packus saturates to 0..255, the min to
// 0..127; 16 values a step, a small share of the layer's work) and the extras. Returns the
// row size 2H + E.
std::size_t layer_input(const HiddenLayerInput& in, std::uint8_t* x) {
    const __m128i top = _mm_set1_epi8(WeightScale);
    const int h = in.accumulator_size;
    const std::int16_t* const halves[2] = {in.stm, in.other};
    for (const std::int16_t* acc : halves) {
        for (int i = 0; i < h; i += 16) {
            const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + i));
            const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + i + 8));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(x + i), _mm_min_epu8(_mm_packus_epi16(low, high), top));
        }
        x += h;
    }
    for (int i = 0; i < in.extra_count; ++i) x[i] = in.extras[i];
    return static_cast<std::size_t>(2 * h + in.extra_count);
}

// The four units' sums (one register each) plus their biases, shifted and clipped. The four
// are summed together (unpacks leave each 128-bit lane holding partial sums of units 0..3 in
// order, two shuffles add the lanes), cheaper than _mm512_reduce_add_epi32 a unit at a time.
// The masked forms with every lane set: GCC 12's unmasked ones fill an "undefined" register
// that -Wmaybe-uninitialized reports (GCC bug 105593).
void finish_four(const __m512i* sums, const std::int32_t* bias, std::int32_t* hidden) {
    constexpr __mmask16 all32 = 0xffff;
    constexpr __mmask8 all64 = 0xff;
    const __m512i s01 = _mm512_add_epi32(_mm512_maskz_unpacklo_epi32(all32, sums[0], sums[1]),
                                         _mm512_maskz_unpackhi_epi32(all32, sums[0], sums[1]));
    const __m512i s23 = _mm512_add_epi32(_mm512_maskz_unpacklo_epi32(all32, sums[2], sums[3]),
                                         _mm512_maskz_unpackhi_epi32(all32, sums[2], sums[3]));
    __m512i lanes = _mm512_add_epi32(_mm512_maskz_unpacklo_epi64(all64, s01, s23), _mm512_maskz_unpackhi_epi64(all64, s01, s23));
    lanes = _mm512_add_epi32(lanes, _mm512_maskz_shuffle_i32x4(all32, lanes, lanes, _MM_SHUFFLE(1, 0, 3, 2)));
    lanes = _mm512_add_epi32(lanes, _mm512_maskz_shuffle_i32x4(all32, lanes, lanes, _MM_SHUFFLE(2, 3, 0, 1)));
    __m128i total = _mm512_maskz_extracti32x4_epi32(0xf, lanes, 0);
    total = _mm_add_epi32(total, _mm_loadu_si128(reinterpret_cast<const __m128i*>(bias)));
    total = _mm_srai_epi32(total, HiddenWeightShift);
    total = _mm_max_epi32(_mm_min_epi32(total, _mm_set1_epi32(WeightScale)), _mm_setzero_si128());
    _mm_storeu_si128(reinterpret_cast<__m128i*>(hidden), total);
}

// Four hidden units at once, 64 inputs a step (the last step masked): maddubs (u8 x s8 pairs;
// 2 * 127 * 128 fits int16) and madd into int32 lanes.
void hidden(const HiddenLayerInput& in, std::int32_t* hidden) {
    alignas(64) std::uint8_t x[2 * MaxAccumulatorSize + MaxExtraInputs];
    const std::size_t row_size = layer_input(in, x);
    const __m512i ones = _mm512_set1_epi16(1);
    for (int j = 0; j < in.hidden_size; j += 4) {
        const std::int8_t* rows = in.weights + static_cast<std::size_t>(j) * row_size;
        __m512i sums[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
        for (std::size_t i = 0; i < row_size; i += 64) {
            const __mmask64 bytes = first_bytes(row_size - i);
            const __m512i xs = _mm512_maskz_loadu_epi8(bytes, x + i);
            for (std::size_t r = 0; r < 4; ++r) {
                const __m512i w = _mm512_maskz_loadu_epi8(bytes, rows + r * row_size + i);
                sums[r] = _mm512_add_epi32(sums[r], _mm512_madd_epi16(_mm512_maddubs_epi16(xs, w), ones));
            }
        }
        finish_four(sums, in.bias + j, hidden + j);
    }
}

constexpr KernelSet Set{"avx512", update, hidden};

}  // namespace avx512_kernels
}  // namespace
}  // namespace loa::nnue::kernels

LOA_TARGET_END()
LOA_TARGET_BEGIN("avx512f,avx512bw,avx512vnni")

namespace loa::nnue::kernels {
namespace {
namespace avx512_kernels {

// Rows (4 or 8) hidden units from the input held in Chunks registers: Rows independent sums,
// each weight row read once, with no mask.
template <int Rows, int Chunks>
void resident_rows(const __m512i* x, const std::int8_t* rows, const std::int32_t* bias, std::int32_t* hidden) {
    constexpr std::size_t RowSize = 64 * Chunks;
    __m512i sums[Rows];
    for (auto& sum : sums) sum = _mm512_setzero_si512();
    for (int c = 0; c < Chunks; ++c)
        for (std::size_t r = 0; r < Rows; ++r)
            sums[r] = _mm512_dpbusd_epi32(sums[r], x[c], _mm512_loadu_si512(rows + r * RowSize + 64 * c));
    for (int k = 0; k < Rows; k += 4) finish_four(sums + k, bias + k, hidden + k);
}

// hidden_vnni for a layer without extra inputs over H 64, 128 or 256 (the shipped net's first
// hidden layer, the larger nets of issue 85, a second hidden layer of L 128 or 256, whose input
// comes as two halves of L / 2): the whole input, 2H bytes, stays in 2H / 64 registers,
// clipped there from the accumulators, and the units are computed eight at a time (eight
// independent sums keep the dot-product unit busy). The general kernel below reloads the input
// for each four units and masks every step: on the shipped net's size BM_NetLayers takes 45 ns
// with this one against 85 ns (Zen 4), and `loa bench` runs 17% more nodes a second.
template <int H>
void hidden_vnni_resident(const HiddenLayerInput& in, std::int32_t* hidden) {
    constexpr int PerHalf = H / 64;  // registers of input bytes a half fills
    constexpr std::size_t RowSize = 2 * H;
    // packus works within 128-bit lanes: lane k of pack(a, b) holds a's 8 values of lane k,
    // then b's. This puts the qwords back in order: a's four lanes, then b's (the masked form
    // for GCC bug 105593, as in finish_four).
    const __m512i lane_order = _mm512_set_epi64(7, 5, 3, 1, 6, 4, 2, 0);
    const __m512i top = _mm512_set1_epi8(WeightScale);
    __m512i x[2 * PerHalf];
    const std::int16_t* const halves[2] = {in.stm, in.other};
    for (int half = 0; half < 2; ++half) {
        for (int c = 0; c < PerHalf; ++c) {
            const std::int16_t* values = halves[half] + 64 * c;
            const __m512i packed = _mm512_packus_epi16(_mm512_loadu_si512(values), _mm512_loadu_si512(values + 32));
            x[half * PerHalf + c] = _mm512_min_epu8(_mm512_maskz_permutexvar_epi64(0xff, lane_order, packed), top);
        }
    }
    int j = 0;
    for (; j + 8 <= in.hidden_size; j += 8)
        resident_rows<8, 2 * PerHalf>(x, in.weights + static_cast<std::size_t>(j) * RowSize, in.bias + j, hidden + j);
    if (j < in.hidden_size)  // L is a multiple of 4: four units are left
        resident_rows<4, 2 * PerHalf>(x, in.weights + static_cast<std::size_t>(j) * RowSize, in.bias + j, hidden + j);
}

// As hidden() above, the products summed in fours by vpdpbusd.
void hidden_vnni(const HiddenLayerInput& in, std::int32_t* hidden) {
    if (in.extra_count == 0) {
        switch (in.accumulator_size) {
            case 64: return hidden_vnni_resident<64>(in, hidden);
            case 128: return hidden_vnni_resident<128>(in, hidden);
            case 256: return hidden_vnni_resident<256>(in, hidden);
            default: break;
        }
    }
    alignas(64) std::uint8_t x[2 * MaxAccumulatorSize + MaxExtraInputs];
    const std::size_t row_size = layer_input(in, x);
    for (int j = 0; j < in.hidden_size; j += 4) {
        const std::int8_t* rows = in.weights + static_cast<std::size_t>(j) * row_size;
        __m512i sums[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
        for (std::size_t i = 0; i < row_size; i += 64) {
            const __mmask64 bytes = first_bytes(row_size - i);
            const __m512i xs = _mm512_maskz_loadu_epi8(bytes, x + i);
            for (std::size_t r = 0; r < 4; ++r)
                sums[r] = _mm512_dpbusd_epi32(sums[r], xs, _mm512_maskz_loadu_epi8(bytes, rows + r * row_size + i));
        }
        finish_four(sums, in.bias + j, hidden + j);
    }
}

constexpr KernelSet VnniSet{"avx512vnni", update, hidden_vnni};

}  // namespace avx512_kernels
}  // namespace
}  // namespace loa::nnue::kernels

LOA_TARGET_END()

namespace loa::nnue::kernels {
const KernelSet* avx512() { return &avx512_kernels::Set; }
const KernelSet* avx512_vnni() { return &avx512_kernels::VnniSet; }
}  // namespace loa::nnue::kernels

#else

namespace loa::nnue::kernels {
const KernelSet* avx512() { return nullptr; }
const KernelSet* avx512_vnni() { return nullptr; }
}  // namespace loa::nnue::kernels

#endif
