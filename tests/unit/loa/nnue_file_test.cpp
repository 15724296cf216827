// The NNUE network file's reader and writer: round trips, and every fault refused by name.
#include <gtest/gtest.h>

#include <cstring>
#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "common/fnv1a.hpp"
#include "common/text.hpp"
#include "loa/engine/session.hpp"
#include "loa/movegen.hpp"
#include "loa/position_text.hpp"
#include "loa/nnue/accumulator.hpp"
#include "loa/nnue/connectivity_inputs.hpp"
#include "loa/nnue/features.hpp"
#include "loa/nnue/layers.hpp"
#include "loa/nnue/network.hpp"
#include "loa/nnue/shipped.hpp"
#include "loa/search_game.hpp"
#include "loa/symmetry.hpp"
#include "support/test_positions.hpp"
#include "support/nnue_nets.hpp"

namespace loa::nnue {
namespace {

using loa::testing::random_network;

TEST(NnueFile, RoundTripKeepsEveryField) {
    const Network net = random_network(1, 48, 12);
    const std::string bytes = serialize_network(net);
    const Network back = parse_network(bytes, "test");
    EXPECT_EQ(back.accumulator_size, 48);
    EXPECT_EQ(back.hidden_size, 12);
    EXPECT_EQ(back.output_scale, 400);
    EXPECT_EQ(back.description, net.description);
    EXPECT_EQ(back.checksum, common::fnv1a(std::string_view(bytes).substr(0, bytes.size() - 8)));
    EXPECT_EQ(back.ft_bias, net.ft_bias);
    EXPECT_EQ(back.ft_weight, net.ft_weight);
    EXPECT_EQ(back.l1_bias, net.l1_bias);
    EXPECT_EQ(back.l1_weight, net.l1_weight);
    EXPECT_EQ(back.out_bias, net.out_bias);
    EXPECT_EQ(back.out_weight, net.out_weight);
    EXPECT_EQ(serialize_network(back), bytes);
}

void expect_refused(const std::string& bytes, const std::string& fault) {
    try {
        (void)parse_network(bytes, "net.nnue");
        ADD_FAILURE() << "accepted a file that should fail with: " << fault;
    } catch (const common::InputError& e) {
        EXPECT_NE(std::string(e.what()).find(fault), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).rfind("net.nnue", 0), 0u) << e.what();
    }
}

// Rewrites a header field and the checksum after it, so that only the field is wrong.
std::string with_field(std::string bytes, std::size_t offset, std::uint32_t value) {
    std::memcpy(bytes.data() + offset, &value, sizeof value);
    const std::uint64_t sum = common::fnv1a(std::string_view(bytes).substr(0, bytes.size() - 8));
    std::memcpy(bytes.data() + bytes.size() - 8, &sum, sizeof sum);
    return bytes;
}

TEST(NnueFile, EveryFaultIsRefusedByName) {
    const std::string good = serialize_network(random_network(2, 16, 4));
    expect_refused("", "not a LOA network file");
    expect_refused("LOA-NNUX" + good.substr(8), "not a LOA network file");
    expect_refused(with_field(good, 8, 4), "version 4");
    // A version-1 file relabelled 2 reads its description's length as the extra inputs' set.
    expect_refused(with_field(good, 8, 2), "the extra inputs' set is 22");
    expect_refused(with_field(good, 12, 64), "the input count is 64");
    expect_refused(with_field(good, 16, 24), "the accumulator size is 24");
    expect_refused(with_field(good, 16, 2048), "the accumulator size is 2048");
    expect_refused(with_field(good, 20, 6), "the hidden size is 6");
    expect_refused(with_field(good, 24, 0), "the output scale is 0");
    expect_refused(with_field(good, 28, 5000), "the description's length is 5000");
    // Every truncation (the magic's first bytes excepted) names the field it ends in.
    for (std::size_t size = 8; size < good.size(); ++size) expect_refused(good.substr(0, size), "truncated");
    expect_refused(good + "x", "1 unexpected bytes after the checksum");
    for (const std::size_t offset : {std::size_t{40}, good.size() / 2, good.size() - 9}) {
        std::string damaged = good;
        damaged[offset] = static_cast<char>(damaged[offset] ^ 0x10);
        expect_refused(damaged, "wrong checksum");
    }
}

// A net with the connectivity inputs is a version-2 file: the set named after S, the hidden
// layer's rows 8 values longer. Set 0 is written as version 1, so older nets stay as they were.
TEST(NnueFile, ConnectivityInputsMakeAVersionTwoFile) {
    const Network net = random_network(41, 32, 8, ConnectivityInputsSet);
    EXPECT_EQ(net.hidden_row_size(), 2u * 32 + 8);
    EXPECT_EQ(net.l1_weight.size(), (2u * 32 + 8) * 8);
    const std::string bytes = serialize_network(net);
    std::uint32_t version = 0, set = 0;
    std::memcpy(&version, bytes.data() + 8, 4);
    std::memcpy(&set, bytes.data() + 28, 4);
    EXPECT_EQ(version, 2u);
    EXPECT_EQ(set, 1u);
    const Network back = parse_network(bytes, "test");
    EXPECT_EQ(back.extra_inputs_set, ConnectivityInputsSet);
    EXPECT_EQ(back.l1_weight, net.l1_weight);
    EXPECT_EQ(serialize_network(back), bytes);
    expect_refused(with_field(bytes, 28, 0), "the extra inputs' set is 0");
    expect_refused(with_field(bytes, 28, 2), "the extra inputs' set is 2");
    for (std::size_t size = 8; size < bytes.size(); size += 7) expect_refused(bytes.substr(0, size), "truncated");
    std::uint32_t plain_version = 0;
    const std::string plain = serialize_network(random_network(41, 32, 8));
    std::memcpy(&plain_version, plain.data() + 8, 4);
    EXPECT_EQ(plain_version, 1u);
}

// A net with a second hidden layer is a version-3 file: after S the extra inputs' set, the input
// buckets' set (0) and L2; the layer's biases and rows [L2][L] after the first hidden layer's,
// the output weights L2 long. Nets without one keep their version 1 or 2 bytes.
TEST(NnueFile, ASecondHiddenLayerMakesAVersionThreeFile) {
    for (const int extras : {0, ConnectivityInputsSet}) {
        const Network net = random_network(42, 32, 32, extras, 8);
        const std::string bytes = serialize_network(net);
        std::uint32_t header[4] = {};
        std::memcpy(&header[0], bytes.data() + 8, 4);    // version
        std::memcpy(&header[1], bytes.data() + 28, 4);   // extra inputs' set
        std::memcpy(&header[2], bytes.data() + 32, 4);   // input buckets' set
        std::memcpy(&header[3], bytes.data() + 36, 4);   // L2
        EXPECT_EQ(header[0], 3u);
        EXPECT_EQ(header[1], static_cast<std::uint32_t>(extras));
        EXPECT_EQ(header[2], 0u);
        EXPECT_EQ(header[3], 8u);
        const Network back = parse_network(bytes, "test");
        EXPECT_EQ(back.second_hidden_size, 8);
        EXPECT_EQ(back.extra_inputs_set, extras);
        EXPECT_EQ(back.l2_bias, net.l2_bias);
        EXPECT_EQ(back.l2_weight, net.l2_weight);
        EXPECT_EQ(back.out_weight.size(), 8u);
        EXPECT_EQ(serialize_network(back), bytes);
        expect_refused(with_field(bytes, 28, 2), "the extra inputs' set is 2");
        expect_refused(with_field(bytes, 32, 1), "the input count is 128, outside 384..384");  // 1 is 3 buckets
        expect_refused(with_field(bytes, 36, 6), "the second hidden size is 6");
        expect_refused(with_field(bytes, 36, 0), "neither a second hidden layer nor input buckets");
        expect_refused(with_field(bytes, 36, 68), "the second hidden size is 68");
        for (std::size_t size = 8; size < bytes.size(); size += 5) expect_refused(bytes.substr(0, size), "truncated");
    }
    // Input buckets: the input count is 128 a bucket, the first layer's weights 128 rows a bucket.
    const Network bucketed = random_network(45, 16, 8, 0, 0, CentreOfMassBucketsSet);
    EXPECT_EQ(bucketed.ft_weight.size(), 3u * 128 * 16);
    const std::string bytes = serialize_network(bucketed);
    std::uint32_t version = 0, inputs = 0, set = 0;
    std::memcpy(&version, bytes.data() + 8, 4);
    std::memcpy(&inputs, bytes.data() + 12, 4);
    std::memcpy(&set, bytes.data() + 32, 4);
    EXPECT_EQ(version, 3u);
    EXPECT_EQ(inputs, 384u);
    EXPECT_EQ(set, 1u);
    const Network back = parse_network(bytes, "test");
    EXPECT_EQ(back.input_buckets_set, CentreOfMassBucketsSet);
    EXPECT_EQ(back.ft_weight, bucketed.ft_weight);
    EXPECT_EQ(serialize_network(back), bytes);
    expect_refused(with_field(bytes, 12, 128), "the input count is 128, outside 384..384");
    expect_refused(with_field(bytes, 32, 2), "the input buckets' set is 2");
    // The layer reads the first's L units as two halves of a multiple of 16.
    const std::string odd = serialize_network(random_network(43, 32, 16, 0, 8));
    expect_refused(odd, "a second hidden layer needs a hidden size that is a multiple of 32, not 16");
    Network biased = random_network(44, 32, 32, 0, 8);
    biased.l2_bias[3] = std::numeric_limits<std::int32_t>::max() - 32 * 127 * 128 + 1;
    expect_refused(serialize_network(biased), "second hidden layer's bias");
    biased.l2_bias[3] = -biased.l2_bias[3];
    expect_refused(serialize_network(biased), "second hidden layer's bias");
    biased.l2_bias[3] = std::numeric_limits<std::int32_t>::max() - 32 * 127 * 128;  // the bound itself is kept
    EXPECT_EQ(parse_network(serialize_network(biased), "test").l2_bias[3], biased.l2_bias[3]);
}

TEST(NnueFile, WeightsThatCouldOverflowTheKernelsAreRefused) {
    Network wide = random_network(3, 16, 4);
    for (std::size_t f = 0; f < 24; ++f) wide.ft_weight[f * 16 + 5] = 1400;  // 24 x 1400 > 32767
    expect_refused(serialize_network(wide), "accumulator could overflow (unit 5)");
    Network biased = random_network(3, 16, 4);
    biased.l1_bias[2] = std::numeric_limits<std::int32_t>::max() - 10;
    expect_refused(serialize_network(biased), "hidden-layer bias");
    // The bound counts the extra inputs' columns: a bias safe for 2H products but not for 2H + 8.
    Network connected = random_network(3, 16, 4, ConnectivityInputsSet);
    connected.l1_bias[1] = std::numeric_limits<std::int32_t>::max() - 2 * 16 * 127 * 128;
    expect_refused(serialize_network(connected), "hidden-layer bias");
    Network unknown_set = random_network(3, 16, 4);
    unknown_set.extra_inputs_set = 2;
    EXPECT_THROW((void)serialize_network(unknown_set), std::logic_error);
}

TEST(NnueFile, MissingAndSpecialFilesAreRefused) {
    EXPECT_THROW((void)load_network_file("/nonexistent/net.nnue"), common::InputError);
    EXPECT_THROW((void)load_network_file("/dev/zero"), common::InputError);
    EXPECT_THROW((void)SearchGame::from_spec(RuleSet{}, "/nonexistent/net.nnue"), common::InputError);
    const auto path = std::filesystem::temp_directory_path() / ("loa-nnue-test-" + std::to_string(::getpid()) + ".nnue");
    {
        std::ofstream out(path, std::ios::binary);
        out << serialize_network(random_network(4));
    }
    const SearchGame game = SearchGame::from_spec(RuleSet{}, path.string());
    ASSERT_NE(game.network(), nullptr);
    EXPECT_EQ(game.network()->network().accumulator_size, 32);
    std::filesystem::remove(path);
}

TEST(NnueFile, HceIsTheHandWrittenEvaluation) {
    const SearchGame hce = SearchGame::from_spec(RuleSet{}, "hce");
    EXPECT_EQ(hce.network(), nullptr);
    for (const Position& pos : testing::random_positions(29, 3, 40)) EXPECT_EQ(hce.evaluate(pos), Evaluator().evaluate(pos));
}

}  // namespace
}  // namespace loa::nnue
