// The NNUE against the trainer's own vectors: its integer evaluations exactly (docs/nnue.md).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstring>
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
#include "loa/nnue/kernels.hpp"
#include "loa/nnue/layers.hpp"
#include "loa/nnue/network.hpp"
#include "loa/nnue/shipped.hpp"
#include "loa/search_game.hpp"
#include "loa/symmetry.hpp"
#include "support/nnue_nets.hpp"

namespace loa::nnue {
namespace {

using loa::testing::refreshed_evaluation;

// The trainer's own vectors (scripts/nnue/train.py, written from docs/nnue.md, not from this
// code): a small net trained on self-play data, and for 318 positions (validation positions
// with either side to move, colour-swapped images, odd piece mixes, the start) the PyTorch
// model's float evaluation and the quantised network's, computed in numpy integers
// (scripts/nnue/net_format.py: integer_eval).
// The vectors' error against the float model: the largest and the mean.
struct VectorErrors {
    double worst = 0, mean = 0;
};

VectorErrors check_vectors(const std::shared_ptr<const Network>& net, const std::string& vectors_path, int want_count = 318) {
    const SearchGame game(RuleSet{}, net);
    std::ifstream in(vectors_path);
    std::string line;
    int count = 0, white_to_move = 0;
    double total_error = 0, worst_error = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto fields = common::split(line, '|');
        EXPECT_EQ(fields.size(), 3u) << line;
        if (fields.size() != 3) return {};
        const Position pos = parse_position(common::trim(fields[0]));
        const double float_eval = std::stod(std::string(common::trim(fields[1])));
        const int integer_eval = std::stoi(std::string(common::trim(fields[2])));
        EXPECT_EQ(game.evaluate(pos), integer_eval) << line;
        EXPECT_EQ(refreshed_evaluation(net, pos), integer_eval) << line;
        for (const KernelSet* kernels : kernel_sets(true)) {  // every kernel this CPU runs, not just the engine's
            AccumulatorStack stack(net, *kernels);
            EXPECT_EQ(stack.evaluate(pos), integer_eval) << kernels->name << ": " << line;
        }
        const double error = std::abs(game.evaluate(pos) - float_eval);
        total_error += error;
        worst_error = std::max(worst_error, error);
        white_to_move += pos.side_to_move() == Colour::White;
        ++count;
    }
    EXPECT_EQ(count, want_count);
    EXPECT_GT(white_to_move, want_count / 3);
    return {worst_error, total_error / std::max(count, 1)};
}

TEST(NnueVectors, TheEngineComputesTheTrainersIntegerEvaluationExactly) {
    const VectorErrors errors = check_vectors(load_network_file(LOA_TEST_DATA_DIR "/nnue/test-h32.nnue"),
                                              LOA_TEST_DATA_DIR "/nnue/test-h32.vectors.txt");
    // The quantisation error the trainer reported for this net: max 5.9, mean 2.3 centi-units.
    EXPECT_LT(errors.worst, 6.0);
    EXPECT_LT(errors.mean, 2.4);
}

// The same for a small net with the connectivity inputs (trained on 20,000 positions): the
// trainer computes them from their definitions in Python, so its integer evaluations hold the
// engine's connectivity_inputs to them too.
TEST(NnueVectors, TheConnectivityInputsAreTheTrainersExactly) {
    const auto net = load_network_file(LOA_TEST_DATA_DIR "/nnue/test-h32-conn.nnue");
    ASSERT_EQ(net->extra_inputs_set, ConnectivityInputsSet);
    const VectorErrors errors = check_vectors(net, LOA_TEST_DATA_DIR "/nnue/test-h32-conn.vectors.txt", 118);
    // The trainer's report for this net: see tests/data/nnue/README.md.
    EXPECT_LT(errors.worst, 8.0);
    EXPECT_LT(errors.mean, 3.0);
}

// A net of data/nets/ against the vectors beside it (STEM.vectors.txt): its trainer's integer
// evaluations exactly, the float ones within the error the trainer reported in its summary
// (STEM.json).
void expect_matches_its_vectors(const std::shared_ptr<const Network>& net, const std::filesystem::path& net_path) {
    std::filesystem::path stem = net_path;
    stem.replace_extension();
    const std::string vectors = stem.string() + ".vectors.txt";
    ASSERT_TRUE(std::filesystem::exists(vectors)) << vectors;
    std::ifstream summary_file(stem.string() + ".json");
    const nlohmann::json summary = nlohmann::json::parse(summary_file, nullptr, false);
    ASSERT_FALSE(summary.is_discarded()) << stem.string() << ".json";
    const VectorErrors errors = check_vectors(net, vectors);
    EXPECT_LE(errors.worst, summary.at("float_vs_integer").at("max_abs").get<double>() + 1e-3);
    EXPECT_LE(errors.mean, summary.at("float_vs_integer").at("mean_abs").get<double>() + 1e-3);
}

// The shipped net (H 128, L 32: the SIMD kernels at a real size) is the file of data/nets/ that
// loa/CMakeLists.txt names (LOA_SHIPPED_NET), and it matches its vectors.
TEST(NnueVectors, TheShippedNetIsDataNetsAndMatchesItsVectors) {
    const std::filesystem::path net_path = std::filesystem::path(LOA_DATA_DIR "/nets") / std::string(shipped_network_name());
    ASSERT_EQ(net_path.extension(), ".nnue");
    const auto file = load_network_file(net_path.string());
    EXPECT_EQ(shipped_network()->checksum, file->checksum);
    EXPECT_EQ(serialize_network(*shipped_network()), serialize_network(*file));
    EXPECT_EQ(shipped_network()->accumulator_size, 128);
    expect_matches_its_vectors(shipped_network(), net_path);
    const SearchGame game = SearchGame::from_spec(RuleSet{}, "nnue");
    ASSERT_NE(game.network(), nullptr);
    EXPECT_EQ(&game.network()->network(), shipped_network().get());
}

// Every net shipped in data/nets/ (the compiled-in one and those chosen by file, eval=FILE.nnue)
// is read and matches its vectors.
TEST(NnueVectors, EveryNetInDataNetsMatchesItsVectors) {
    int nets = 0;
    for (const auto& entry : std::filesystem::directory_iterator(LOA_DATA_DIR "/nets")) {
        if (entry.path().extension() != ".nnue") continue;
        SCOPED_TRACE(entry.path().string());
        expect_matches_its_vectors(load_network_file(entry.path().string()), entry.path());
        ++nets;
    }
    EXPECT_GE(nets, 1);
}

}  // namespace
}  // namespace loa::nnue
