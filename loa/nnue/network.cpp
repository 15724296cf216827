#include "loa/nnue/network.hpp"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <functional>
#include <limits>
#include <cstring>
#include <stdexcept>

#include "common/fnv1a.hpp"
#include "loa/error.hpp"

namespace loa::nnue {
namespace {

static_assert(std::endian::native == std::endian::little, "the .nnue reader assumes a little-endian machine");

// Reads fixed-size little-endian fields off the front of the bytes, and says which field
// ran past the end.
class FieldReader {
public:
    FieldReader(std::string_view bytes, std::string_view what) : bytes_(bytes), what_(what) {}

    template <class T>
    T value(std::string_view field) {
        T v;
        std::memcpy(&v, take(sizeof(T), field), sizeof(T));
        return v;
    }
    template <class T>
    std::vector<T> array(std::size_t count, std::string_view field) {
        std::vector<T> v(count);
        if (count) std::memcpy(v.data(), take(count * sizeof(T), field), count * sizeof(T));
        return v;
    }
    std::string text(std::size_t count, std::string_view field) { return std::string(take(count, field), count); }
    std::size_t offset() const { return offset_; }

private:
    const char* take(std::size_t count, std::string_view field) {
        if (bytes_.size() - offset_ < count)
            throw InputError(std::string(what_) + ": the file is truncated (it ends inside " + std::string(field) + ")");
        const char* p = bytes_.data() + offset_;
        offset_ += count;
        return p;
    }
    std::string_view bytes_;
    std::string_view what_;
    std::size_t offset_ = 0;
};

void check_size(std::string_view what, std::string_view name, std::int64_t value, std::int64_t low, std::int64_t high,
                std::int64_t multiple) {
    if (value < low || value > high || value % multiple != 0)
        throw InputError(std::string(what) + ": " + std::string(name) + " is " + std::to_string(value) + ", outside " +
                         std::to_string(low) + ".." + std::to_string(high) +
                         (multiple > 1 ? " or not a multiple of " + std::to_string(multiple) : std::string()));
}

// The integer kernels (layers.cpp) add in int16 (the accumulator) and int32 (the hidden layer)
// without saturation: a net whose sums could leave those ranges is refused, so that the
// kernels need no checks and the SIMD and scalar versions agree exactly.
void check_no_overflow(const Network& net, std::string_view what) {
    constexpr int MaxActiveFeatures = 2 * MaxPiecesPerSide;
    // With input buckets the active features are all in one bucket; taking the largest of all
    // of them is the simpler, safe bound (the trainer keeps any 26 columns within int16).
    const auto h = static_cast<std::size_t>(net.accumulator_size);
    std::vector<int> magnitudes(net.input_count());
    for (std::size_t i = 0; i < h; ++i) {
        for (std::size_t f = 0; f < magnitudes.size(); ++f) magnitudes[f] = std::abs(int{net.ft_weight[f * h + i]});
        std::partial_sort(magnitudes.begin(), magnitudes.begin() + MaxActiveFeatures, magnitudes.end(), std::greater<>());
        long worst = std::abs(long{net.ft_bias[i]});
        for (int k = 0; k < MaxActiveFeatures; ++k) worst += magnitudes[static_cast<std::size_t>(k)];
        if (worst > 32767)
            throw InputError(std::string(what) + ": first-layer weights so large that the accumulator could overflow (unit " +
                             std::to_string(i) + ")");
    }
    const std::int64_t products = static_cast<std::int64_t>(net.hidden_row_size()) * WeightScale * 128;
    for (const std::int32_t bias : net.l1_bias)
        if (std::abs(std::int64_t{bias}) + products > std::numeric_limits<std::int32_t>::max())
            throw InputError(std::string(what) + ": a hidden-layer bias so large that the layer could overflow");
    const std::int64_t second_products = std::int64_t{net.hidden_size} * WeightScale * 128;
    for (const std::int32_t bias : net.l2_bias)
        if (std::abs(std::int64_t{bias}) + second_products > std::numeric_limits<std::int32_t>::max())
            throw InputError(std::string(what) + ": a second hidden layer's bias so large that the layer could overflow");
}

}  // namespace

Network parse_network(std::string_view bytes, std::string_view what) {
    FieldReader in(bytes, what);
    if (bytes.substr(0, FileMagic.size()) != FileMagic)
        throw InputError(std::string(what) + ": not a LOA network file (it does not start with \"LOA-NNUE\")");
    (void)in.text(FileMagic.size(), "the magic");
    const auto version = in.value<std::uint32_t>("the version");
    if (version != FormatVersion && version != FormatVersionExtras && version != FormatVersionLayers)
        throw InputError(std::string(what) + ": network format version " + std::to_string(version) +
                         ", and this program reads versions " + std::to_string(FormatVersion) + " to " +
                         std::to_string(FormatVersionLayers));
    Network net;
    const auto input_count = in.value<std::uint32_t>("the input count");  // checked once the buckets are known
    const std::uint32_t accumulator_size = in.value<std::uint32_t>("the accumulator size");
    check_size(what, "the accumulator size", accumulator_size, 16, MaxAccumulatorSize, 16);
    net.accumulator_size = static_cast<int>(accumulator_size);
    const std::uint32_t hidden_size = in.value<std::uint32_t>("the hidden size");
    check_size(what, "the hidden size", hidden_size, 4, MaxHiddenSize, 4);
    net.hidden_size = static_cast<int>(hidden_size);
    net.output_scale = in.value<std::int32_t>("the output scale");
    check_size(what, "the output scale", net.output_scale, 1, MaxOutputScale, 1);
    if (version == FormatVersionExtras) {
        // Set 0 is written as version 1: a version-2 file names a set.
        const auto set = in.value<std::uint32_t>("the extra inputs' set");
        check_size(what, "the extra inputs' set", set, ConnectivityInputsSet, ConnectivityInputsSet, 1);
        net.extra_inputs_set = static_cast<int>(set);
    }
    if (version == FormatVersionLayers) {
        const auto set = in.value<std::uint32_t>("the extra inputs' set");
        check_size(what, "the extra inputs' set", set, 0, ConnectivityInputsSet, 1);
        net.extra_inputs_set = static_cast<int>(set);
        const auto buckets = in.value<std::uint32_t>("the input buckets' set");
        check_size(what, "the input buckets' set", buckets, 0, CentreOfMassBucketsSet, 1);
        net.input_buckets_set = static_cast<int>(buckets);
        const auto second = in.value<std::uint32_t>("the second hidden size");
        check_size(what, "the second hidden size", second, 0, MaxSecondHiddenSize, 4);
        if (second && hidden_size % SecondLayerInputMultiple != 0)
            throw InputError(std::string(what) + ": a second hidden layer needs a hidden size that is a multiple of " +
                             std::to_string(SecondLayerInputMultiple) + ", not " + std::to_string(hidden_size));
        net.second_hidden_size = static_cast<int>(second);
        // One file a net: a net without either part is a version-1 or 2 file.
        if (!second && !buckets)
            throw InputError(std::string(what) + ": a version-3 file with neither a second hidden layer nor input buckets "
                             "(such a net is written as version 1 or 2)");
    }
    const auto inputs = static_cast<std::int64_t>(net.input_count());
    check_size(what, "the input count", input_count, inputs, inputs, 1);
    const auto description_size = in.value<std::uint32_t>("the description's length");
    check_size(what, "the description's length", description_size, 0, MaxDescription, 1);
    net.description = in.text(description_size, "the description");
    if (std::any_of(net.description.begin(), net.description.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }))
        throw InputError(std::string(what) + ": the description holds control characters (a wrong or damaged file)");

    const auto h = static_cast<std::size_t>(net.accumulator_size), l = static_cast<std::size_t>(net.hidden_size);
    net.ft_bias = in.array<std::int16_t>(h, "the first layer's biases");
    net.ft_weight = in.array<std::int16_t>(net.input_count() * h, "the first layer's weights");
    net.l1_bias = in.array<std::int32_t>(l, "the hidden layer's biases");
    net.l1_weight = in.array<std::int8_t>(net.hidden_row_size() * l, "the hidden layer's weights");
    const auto l2 = static_cast<std::size_t>(net.second_hidden_size);
    net.l2_bias = in.array<std::int32_t>(l2, "the second hidden layer's biases");
    net.l2_weight = in.array<std::int8_t>(l2 * l, "the second hidden layer's weights");
    net.out_bias = in.value<std::int32_t>("the output bias");
    net.out_weight = in.array<std::int16_t>(static_cast<std::size_t>(net.output_inputs()), "the output weights");

    const std::size_t body = in.offset();
    net.checksum = in.value<std::uint64_t>("the checksum");
    if (in.offset() != bytes.size())
        throw InputError(std::string(what) + ": " + std::to_string(bytes.size() - in.offset()) +
                         " unexpected bytes after the checksum (a wrong or damaged file)");
    if (common::fnv1a(bytes.substr(0, body)) != net.checksum)
        throw InputError(std::string(what) + ": wrong checksum (the file is damaged)");
    check_no_overflow(net, what);
    return net;
}

}  // namespace loa::nnue
