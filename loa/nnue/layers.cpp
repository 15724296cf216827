#include "loa/nnue/layers.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "loa/evaluation.hpp"

namespace loa::nnue {
namespace {

int final_score(const Network& net, std::int64_t output) {
    const std::int64_t score = output * net.output_scale / OutputDivisor;  // truncates toward zero, as specified
    return static_cast<int>(std::clamp<std::int64_t>(score, -EvalClamp, EvalClamp));
}

int output_layer(const Network& net, const std::int32_t* hidden) {
    std::int64_t output = net.out_bias;
    for (int j = 0; j < net.output_inputs(); ++j) output += std::int64_t{hidden[j]} * net.out_weight[static_cast<std::size_t>(j)];
    return final_score(net, output);
}

// The second hidden layer runs on the first's kernel: its L inputs (each already 0..127, which
// the kernel's clipped ReLU leaves as they are) are handed over as two "halves" of L / 2 int16
// values, a multiple of 16 since L is a multiple of 32 (the reader checks it); the weights' rows
// [L2][L] are the layout the kernel reads.
void second_hidden_layer(const Network& net, const std::int32_t* hidden, std::int32_t* out, const KernelSet& kernels) {
    alignas(32) std::array<std::int16_t, MaxHiddenSize> values;
    for (int j = 0; j < net.hidden_size; ++j) values[static_cast<std::size_t>(j)] = static_cast<std::int16_t>(hidden[j]);
    const int half = net.hidden_size / 2;
    kernels.hidden({values.data(), values.data() + half, half, nullptr, 0, net.l2_weight.data(), net.l2_bias.data(),
                    net.second_hidden_size},
                   out);
}

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
                        std::span<const std::int16_t* const> removed, const KernelSet& kernels) {
    kernels.update(in, out, size, added.data(), added.size(), removed.data(), removed.size());
}

int propagate(const Network& net, const std::int16_t* stm, const std::int16_t* other, std::span<const std::uint8_t> extras,
              const KernelSet& kernels) {
    check_extras(net, extras);
    alignas(16) std::array<std::int32_t, MaxHiddenSize> hidden;
    kernels.hidden({stm, other, net.accumulator_size, extras.data(), static_cast<int>(extras.size()), net.l1_weight.data(),
                    net.l1_bias.data(), net.hidden_size},
                   hidden.data());
    if (net.second_hidden_size) {
        alignas(16) std::array<std::int32_t, MaxSecondHiddenSize> second;
        second_hidden_layer(net, hidden.data(), second.data(), kernels);
        return output_layer(net, second.data());
    }
    return output_layer(net, hidden.data());
}

}  // namespace loa::nnue
