#include "loa/nnue/layers.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <stdexcept>
#include <string>

#if defined(__SSE4_1__)
#include <smmintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "loa/evaluation.hpp"

namespace loa::nnue {
namespace {

int final_score(const Network& net, std::int64_t output) {
    const std::int64_t score = output * net.output_scale / OutputDivisor;  // truncates toward zero, as specified
    return static_cast<int>(std::clamp<std::int64_t>(score, -EvalClamp, EvalClamp));
}

int output_layer(const Network& net, const std::int32_t* hidden) {
    std::int64_t output = net.out_bias;
    for (int j = 0; j < net.hidden_size; ++j) output += std::int64_t{hidden[j]} * net.out_weight[static_cast<std::size_t>(j)];
    return final_score(net, output);
}

std::int32_t clipped_hidden(std::int32_t sum) { return std::clamp(sum >> HiddenWeightShift, 0, WeightScale); }

// The callers hand exactly the net's extra inputs, each within the activations' 0..127 (what
// maddubs and the load check's bound on the hidden sums assume): anything else is a
// programming error, refused rather than computed wrongly.
void check_extras(const Network& net, std::span<const std::uint8_t> extras) {
    if (extras.size() != static_cast<std::size_t>(net.extra_inputs()))
        throw std::logic_error("nnue::propagate: " + std::to_string(extras.size()) + " extra inputs for a net that reads " +
                               std::to_string(net.extra_inputs()));
    if (std::any_of(extras.begin(), extras.end(), [](std::uint8_t v) { return v > WeightScale; }))
        throw std::logic_error("nnue::propagate: an extra input above 127");
}

}  // namespace

void update_accumulator(const std::int16_t* in, std::int16_t* out, int size, std::span<const std::int16_t* const> added,
                        std::span<const std::int16_t* const> removed) {
#if defined(__SSE2__)
    // 8 lanes a register, 16 values (two registers) a step: H is a multiple of 16.
    for (int i = 0; i < size; i += 16) {
        __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
        __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i + 8));
        for (const std::int16_t* column : added) {
            low = _mm_add_epi16(low, _mm_loadu_si128(reinterpret_cast<const __m128i*>(column + i)));
            high = _mm_add_epi16(high, _mm_loadu_si128(reinterpret_cast<const __m128i*>(column + i + 8)));
        }
        for (const std::int16_t* column : removed) {
            low = _mm_sub_epi16(low, _mm_loadu_si128(reinterpret_cast<const __m128i*>(column + i)));
            high = _mm_sub_epi16(high, _mm_loadu_si128(reinterpret_cast<const __m128i*>(column + i + 8)));
        }
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), low);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i + 8), high);
    }
#else
    for (int i = 0; i < size; ++i) {
        int v = in[i];
        for (const std::int16_t* column : added) v += column[i];
        for (const std::int16_t* column : removed) v -= column[i];
        out[i] = static_cast<std::int16_t>(v);
    }
#endif
}

int propagate_scalar(const Network& net, const std::int16_t* stm, const std::int16_t* other,
                     std::span<const std::uint8_t> extras) {
    const int h = net.accumulator_size;
    const std::size_t row_size = net.hidden_row_size();
    check_extras(net, extras);
    std::array<std::uint8_t, 2 * MaxAccumulatorSize + MaxExtraInputs> input{};
    for (int i = 0; i < h; ++i) {
        input[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(std::clamp<int>(stm[i], 0, WeightScale));
        input[static_cast<std::size_t>(h + i)] = static_cast<std::uint8_t>(std::clamp<int>(other[i], 0, WeightScale));
    }
    std::copy(extras.begin(), extras.end(), input.begin() + 2 * h);
    std::array<std::int32_t, MaxHiddenSize> hidden{};
    for (int j = 0; j < net.hidden_size; ++j) {
        const std::int8_t* row = net.l1_weight.data() + static_cast<std::size_t>(j) * row_size;
        std::int32_t sum = net.l1_bias[static_cast<std::size_t>(j)];
        for (std::size_t i = 0; i < row_size; ++i) sum += input[i] * row[i];
        hidden[static_cast<std::size_t>(j)] = clipped_hidden(sum);
    }
    return output_layer(net, hidden.data());
}

int propagate(const Network& net, const std::int16_t* stm, const std::int16_t* other,
              std::span<const std::uint8_t> extras) {
#if defined(__SSE4_1__)
    check_extras(net, extras);
    const int h = net.accumulator_size;
    alignas(16) std::array<std::uint8_t, 2 * MaxAccumulatorSize + MaxExtraInputs> input;
    // Clipped ReLU to bytes: packus saturates to 0..255, the min to 0..127.
    const __m128i top = _mm_set1_epi8(WeightScale);
    auto clip_half = [&](const std::int16_t* acc, std::uint8_t* to) {
        for (int i = 0; i < h; i += 16) {
            const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + i));
            const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + i + 8));
            _mm_store_si128(reinterpret_cast<__m128i*>(to + i), _mm_min_epu8(_mm_packus_epi16(low, high), top));
        }
    };
    clip_half(stm, input.data());
    clip_half(other, input.data() + h);
    std::copy(extras.begin(), extras.end(), input.begin() + 2 * h);

    // Four hidden units at once: u8 x s8 products summed in pairs (maddubs; 2 * 127 * 128 fits
    // int16, so it never saturates), then in fours (madd), then across registers (hadd).
    alignas(16) std::array<std::int32_t, MaxHiddenSize> hidden;
    const __m128i ones = _mm_set1_epi16(1);
    const std::size_t halves = static_cast<std::size_t>(2 * h), row_size = net.hidden_row_size();
    for (int j = 0; j < net.hidden_size; j += 4) {
        const std::int8_t* rows = net.l1_weight.data() + static_cast<std::size_t>(j) * row_size;
        __m128i sums[4] = {_mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128(), _mm_setzero_si128()};
        for (std::size_t i = 0; i < halves; i += 16) {
            const __m128i x = _mm_load_si128(reinterpret_cast<const __m128i*>(input.data() + i));
            for (std::size_t r = 0; r < 4; ++r) {
                const __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows + r * row_size + i));
                sums[r] = _mm_add_epi32(sums[r], _mm_madd_epi16(_mm_maddubs_epi16(x, w), ones));
            }
        }
        // The extra inputs, 8 a step (a set's size is a multiple of 8): the loads fill the low
        // half and zero the high one, which then adds nothing.
        for (std::size_t i = halves; i < row_size; i += 8) {
            const __m128i x = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(input.data() + i));
            for (std::size_t r = 0; r < 4; ++r) {
                const __m128i w = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(rows + r * row_size + i));
                sums[r] = _mm_add_epi32(sums[r], _mm_madd_epi16(_mm_maddubs_epi16(x, w), ones));
            }
        }
        __m128i total = _mm_hadd_epi32(_mm_hadd_epi32(sums[0], sums[1]), _mm_hadd_epi32(sums[2], sums[3]));
        total = _mm_add_epi32(total, _mm_loadu_si128(reinterpret_cast<const __m128i*>(net.l1_bias.data() + j)));
        total = _mm_srai_epi32(total, HiddenWeightShift);
        total = _mm_max_epi32(_mm_min_epi32(total, _mm_set1_epi32(WeightScale)), _mm_setzero_si128());
        _mm_store_si128(reinterpret_cast<__m128i*>(hidden.data() + j), total);
    }
    return output_layer(net, hidden.data());
#else
    return propagate_scalar(net, stm, other, extras);
#endif
}

}  // namespace loa::nnue
