// Networks other than from bytes (network.cpp parses those): written out, read from a file,
// made up at random for tests.
#include <random>
#include <stdexcept>
#include <string>

#include "common/files.hpp"
#include "common/fnv1a.hpp"
#include "loa/nnue/network.hpp"

namespace loa::nnue {

namespace {

std::size_t largest_file() {
    const std::size_t h = MaxAccumulatorSize, l = MaxHiddenSize, l2 = MaxSecondHiddenSize;
    return 8 + 9 * 4 + MaxDescription + 2 * h + 2 * InputCount * MaxInputBuckets * h + 4 * l + (2 * h + MaxExtraInputs) * l + 4 * l2 + l * l2 +
           4 + 2 * l + 8;
}


template <class T>
void append(std::string& out, const T& value) {
    out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}
template <class T>
void append(std::string& out, const std::vector<T>& values) {
    out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

}  // namespace

std::string serialize_network(const Network& net) {
    if (net.extra_inputs_set != 0 && net.extra_inputs_set != ConnectivityInputsSet)
        throw std::logic_error("serialize_network: unknown extra inputs set " + std::to_string(net.extra_inputs_set));
    // The oldest version that can hold the net, so that nets without the newer parts keep the
    // bytes (and checksums) they always had.
    if (net.input_buckets_set != 0 && net.input_buckets_set != CentreOfMassBucketsSet)
        throw std::logic_error("serialize_network: unknown input buckets set " + std::to_string(net.input_buckets_set));
    const std::uint32_t version = net.second_hidden_size || net.input_buckets_set ? FormatVersionLayers
                                  : net.extra_inputs_set ? FormatVersionExtras
                                                         : FormatVersion;
    std::string out(FileMagic);
    append(out, version);
    append(out, static_cast<std::uint32_t>(net.input_count()));
    append(out, static_cast<std::uint32_t>(net.accumulator_size));
    append(out, static_cast<std::uint32_t>(net.hidden_size));
    append(out, static_cast<std::int32_t>(net.output_scale));
    if (version >= FormatVersionExtras) append(out, static_cast<std::uint32_t>(net.extra_inputs_set));
    if (version >= FormatVersionLayers) {
        append(out, static_cast<std::uint32_t>(net.input_buckets_set));
        append(out, static_cast<std::uint32_t>(net.second_hidden_size));
    }
    append(out, static_cast<std::uint32_t>(net.description.size()));
    out += net.description;
    append(out, net.ft_bias);
    append(out, net.ft_weight);
    append(out, net.l1_bias);
    append(out, net.l1_weight);
    append(out, net.l2_bias);
    append(out, net.l2_weight);
    append(out, net.out_bias);
    append(out, net.out_weight);
    append(out, common::fnv1a(out));
    return out;
}

Network random_network(std::uint64_t seed, int accumulator_size, int hidden_size, int extra_inputs_set,
                       int second_hidden_size, int input_buckets_set) {
    if (extra_inputs_set != 0 && extra_inputs_set != ConnectivityInputsSet)
        throw std::logic_error("random_network: unknown extra inputs set " + std::to_string(extra_inputs_set));
    std::mt19937_64 rng(seed);
    auto uniform = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng); };
    Network net;
    net.accumulator_size = accumulator_size;
    net.hidden_size = hidden_size;
    net.output_scale = 400;
    net.extra_inputs_set = extra_inputs_set;
    net.second_hidden_size = second_hidden_size;
    net.input_buckets_set = input_buckets_set;
    net.description = "random network, seed " + std::to_string(seed);
    const auto h = static_cast<std::size_t>(accumulator_size), l = static_cast<std::size_t>(hidden_size);
    for (std::size_t i = 0; i < h; ++i) net.ft_bias.push_back(static_cast<std::int16_t>(uniform(-200, 300)));
    for (std::size_t i = 0; i < net.input_count() * h; ++i) net.ft_weight.push_back(static_cast<std::int16_t>(uniform(-120, 120)));
    for (std::size_t j = 0; j < l; ++j) net.l1_bias.push_back(uniform(-20000, 20000));
    for (std::size_t i = 0; i < net.hidden_row_size() * l; ++i) net.l1_weight.push_back(static_cast<std::int8_t>(uniform(-127, 127)));
    const auto l2 = static_cast<std::size_t>(second_hidden_size);
    // Biases that keep the second layer's units inside the clipped ReLU's window about as often
    // as the first's (its inputs are 0..127, about half of them above 0).
    for (std::size_t k = 0; k < l2; ++k) net.l2_bias.push_back(uniform(-20000, 20000));
    for (std::size_t i = 0; i < l * l2; ++i) net.l2_weight.push_back(static_cast<std::int8_t>(uniform(-127, 127)));
    net.out_bias = uniform(-5000, 5000);
    for (int j = 0; j < net.output_inputs(); ++j) net.out_weight.push_back(static_cast<std::int16_t>(uniform(-2000, 2000)));
    return net;
}

std::shared_ptr<const Network> load_network_file(const std::string& path) {
    const std::string bytes = common::read_file(path, largest_file(), "network file");
    return std::make_shared<const Network>(parse_network(bytes, "network file " + path));
}

}  // namespace loa::nnue
