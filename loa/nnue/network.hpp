// The learned evaluation's network (issue #57): its sizes, its integer weights, and the reader
// of its `.nnue` file. docs/nnue.md is the specification (layers, quantisation, file layout);
// scripts/nnue/train.py writes the files this reads, and scripts/nnue/net_format.py reads them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "loa/position.hpp"

namespace loa::nnue {

using loa::MaxPiecesPerSide;  // the net's domain: what a game can reach
inline constexpr int InputCount = 128;  // per perspective and bucket: 64 squares of own pieces, 64 of the opponent's
inline constexpr int WeightScale = 127;  // the first layer's and the activations' fixed point (1.0)
inline constexpr int HiddenWeightShift = 6;  // the hidden and output layers' weights: 1.0 = 64
inline constexpr int OutputDivisor = WeightScale << HiddenWeightShift;  // 127 * 64
inline constexpr int MaxAccumulatorSize = 1024;
inline constexpr int MaxHiddenSize = 256;
inline constexpr int MaxOutputScale = 100000;
inline constexpr std::size_t MaxDescription = 4096;
inline constexpr std::string_view FileMagic = "LOA-NNUE";  // a network file's first bytes
inline constexpr std::uint32_t FormatVersion = 1;  // a net without extra inputs
inline constexpr std::uint32_t FormatVersionExtras = 2;  // the header names a set of extra inputs
// Version 3 adds, after the extra inputs' set, the input buckets' set (features.hpp: each
// perspective's 128 inputs once per bucket of its own pieces) and a second hidden layer's size
// L2 (0: none).
inline constexpr std::uint32_t FormatVersionLayers = 3;
inline constexpr int MaxSecondHiddenSize = 64;
inline constexpr int CentreOfMassBucketsSet = 1;  // 3 buckets: features.hpp
inline constexpr int MaxInputBuckets = 3;
constexpr int input_bucket_count(int set) { return set == CentreOfMassBucketsSet ? 3 : 1; }
// A second hidden layer runs on the first's kernel (kernels.hpp), which reads its L inputs as
// two halves of a multiple of 16: L is then a multiple of 32.
inline constexpr int SecondLayerInputMultiple = 32;
// Extra inputs of the hidden layer, after the two accumulator halves: set 0 none, set 1 the
// eight connectivity inputs (connectivity_inputs.hpp). Each set's size is a multiple of 8.
inline constexpr int ConnectivityInputsSet = 1;
inline constexpr int MaxExtraInputs = 8;
constexpr int extra_input_count(int set) { return set == ConnectivityInputsSet ? 8 : 0; }

struct Network {
    int accumulator_size = 0;  // H: per perspective, a multiple of 16
    int hidden_size = 0;       // L: a multiple of 4
    int output_scale = 0;      // S: centi-units per unit of the float network's output
    int extra_inputs_set = 0;  // 0, or ConnectivityInputsSet (a version-2 or 3 file)
    int second_hidden_size = 0;  // L2: 0 (none), or a multiple of 4 up to MaxSecondHiddenSize (a version-3 file)
    int input_buckets_set = 0;   // 0 (one bucket), or CentreOfMassBucketsSet (a version-3 file)
    std::string description;   // how the net was made (the trainer's command, data, seed)
    std::uint64_t checksum = 0;  // the file's own (FNV-1a of its bytes before the checksum)

    std::vector<std::int16_t> ft_bias;    // [H]
    std::vector<std::int16_t> ft_weight;  // [buckets * InputCount][H], feature-major
    std::vector<std::int32_t> l1_bias;    // [L]
    std::vector<std::int8_t> l1_weight;   // [L][2H + E], side to move's half first, then the E extra inputs
    std::vector<std::int32_t> l2_bias;   // [L2]
    std::vector<std::int8_t> l2_weight;  // [L2][L]
    std::int32_t out_bias = 0;
    std::vector<std::int16_t> out_weight;  // [L2] if there is a second hidden layer, else [L]

    int extra_inputs() const { return extra_input_count(extra_inputs_set); }  // E
    int input_buckets() const { return input_bucket_count(input_buckets_set); }
    std::size_t input_count() const { return static_cast<std::size_t>(InputCount * input_buckets()); }
    std::size_t hidden_row_size() const { return static_cast<std::size_t>(2 * accumulator_size + extra_inputs()); }
    int output_inputs() const { return second_hidden_size ? second_hidden_size : hidden_size; }

    const std::int16_t* feature_column(int feature) const {
        return ft_weight.data() + static_cast<std::size_t>(feature) * static_cast<std::size_t>(accumulator_size);
    }
};

// Parses a network file's bytes; throws InputError naming the fault (`what` names the source in
// messages): wrong magic, unknown version, sizes out of bounds, short file, trailing bytes,
// wrong checksum.
Network parse_network(std::string_view bytes, std::string_view what);
// The file's bytes for a network (its checksum recomputed): for tools and tests; the trainer
// writes the shipped nets.
std::string serialize_network(const Network& net);
// A network of seeded random weights within a trained one's ranges (and the reader's bounds),
// for tests and benchmarks: its values mean nothing, its cost and arithmetic are a real net's.
Network random_network(std::uint64_t seed, int accumulator_size, int hidden_size, int extra_inputs_set = 0,
                       int second_hidden_size = 0, int input_buckets_set = 0);
// Reads and parses a file (at most the largest valid size).
std::shared_ptr<const Network> load_network_file(const std::string& path);

}  // namespace loa::nnue
