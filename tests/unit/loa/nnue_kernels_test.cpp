// The NNUE's kernels (SSE4.1, AVX2, AVX-512, AVX-512 VNNI: each this CPU runs) against the
// scalar reference: the same integers on every input, at every size the file format allows.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <random>
#include <tuple>

#include "loa/error.hpp"
#include "loa/rules.hpp"
#include "loa/movegen.hpp"
#include "loa/nnue/accumulator.hpp"
#include "loa/nnue/kernels.hpp"
#include "loa/nnue/layers.hpp"
#include "loa/nnue/network.hpp"
#include "support/nnue_nets.hpp"

namespace loa::nnue {
namespace {

using loa::testing::random_network;

std::vector<std::int16_t> random_accumulator(std::mt19937_64& rng, int size, int spread) {
    std::vector<std::int16_t> acc(static_cast<std::size_t>(size));
    for (auto& v : acc) v = static_cast<std::int16_t>(std::uniform_int_distribution<int>(-spread, spread)(rng));
    return acc;
}

// A random net whose hidden units mostly land inside the clipped ReLU's window (weights -4..4,
// biases about 64 x 64): with a trained net's ranges most random sums clip to 0 or 127, where a
// wrong sum would not show.
Network window_network(std::uint64_t seed, int h, int l, int extras = 0, int l2 = 0) {
    Network net = random_network(seed, h, l, extras, l2);
    std::mt19937_64 rng(seed);
    for (auto* weights : {&net.l1_weight, &net.l2_weight})
        for (auto& w : *weights) w = static_cast<std::int8_t>(std::uniform_int_distribution<int>(-4, 4)(rng));
    for (auto* biases : {&net.l1_bias, &net.l2_bias})
        for (auto& b : *biases) b = std::uniform_int_distribution<int>(2000, 6000)(rng);
    return net;
}

// Every kernel on one input: the first hidden layer's units compared one by one, then the
// evaluation as propagate computes it (the second hidden layer included). Returns the share of
// units strictly inside 0..127, so that a test can require that the sums were seen.
double expect_kernels_agree(const Network& net, std::mt19937_64& rng, int trials, const std::string& what) {
    const KernelSet& reference = scalar_kernels();
    std::vector<std::uint8_t> extras(static_cast<std::size_t>(net.extra_inputs()));
    long inside = 0, units = 0;
    for (int trial = 0; trial < trials; ++trial) {
        // Values across and beyond the clipped ReLU's 0..127, both signs.
        const auto stm = random_accumulator(rng, net.accumulator_size, 400);
        const auto other = random_accumulator(rng, net.accumulator_size, 400);
        for (auto& e : extras) e = static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, 127)(rng));
        const HiddenLayerInput input{stm.data(),          other.data(),       net.accumulator_size, extras.data(),
                                     net.extra_inputs(),  net.l1_weight.data(), net.l1_bias.data(),  net.hidden_size};
        std::vector<std::int32_t> want_hidden(static_cast<std::size_t>(net.hidden_size));
        reference.hidden(input, want_hidden.data());
        for (const std::int32_t v : want_hidden) inside += v > 0 && v < 127;
        units += net.hidden_size;
        const int want = propagate(net, stm.data(), other.data(), extras, reference);
        for (const KernelSet* kernels : kernel_sets(true)) {
            std::vector<std::int32_t> hidden(want_hidden.size(), -1);
            kernels->hidden(input, hidden.data());
            EXPECT_EQ(hidden, want_hidden) << kernels->name << ", " << what << ", trial " << trial;
            EXPECT_EQ(propagate(net, stm.data(), other.data(), extras, *kernels), want)
                << kernels->name << ", " << what << ", trial " << trial;
            if (::testing::Test::HasFailure()) return 0;  // one report, not one a trial
        }
    }
    return static_cast<double>(inside) / static_cast<double>(std::max(units, 1L));
}

TEST(NnueKernels, EveryKernelEqualsTheScalarOneAtEverySize) {
    std::mt19937_64 rng(5);
    // H: multiples of 16 that are and are not multiples of 32 and 64 (the wider kernels' masked
    // or narrower tails), up to the format's largest; L: multiples of 4 up to 256, multiples of
    // 8 and not (avx512vnni computes H 64, 128 and 256 eight units at a time, then four).
    for (const auto& [h, l] : {std::pair{16, 4}, std::pair{32, 8}, std::pair{48, 12}, std::pair{80, 4}, std::pair{128, 32},
                               std::pair{256, 16}, std::pair{512, 32}, std::pair{1024, 8}, std::pair{64, 256}, std::pair{128, 12},
                               std::pair{64, 4}, std::pair{256, 20}}) {
        const std::string what = "H " + std::to_string(h) + " L " + std::to_string(l);
        expect_kernels_agree(random_network(static_cast<std::uint64_t>(h * l), h, l), rng, 50, what);
        EXPECT_GT(expect_kernels_agree(window_network(static_cast<std::uint64_t>(h * l), h, l), rng, 50, what), 0.3) << what;
    }
}

TEST(NnueKernels, EveryKernelEqualsTheScalarOneWithTheConnectivityInputs) {
    std::mt19937_64 rng(15);
    for (const auto& [h, l] : {std::pair{16, 4}, std::pair{48, 8}, std::pair{128, 32}, std::pair{256, 32}}) {
        const std::string what = "connectivity, H " + std::to_string(h);
        expect_kernels_agree(random_network(static_cast<std::uint64_t>(h + l), h, l, ConnectivityInputsSet), rng, 50, what);
        EXPECT_GT(expect_kernels_agree(window_network(static_cast<std::uint64_t>(h + l), h, l, ConnectivityInputsSet), rng, 50, what), 0.3)
            << what;
    }
}

// A second hidden layer runs on the same kernels (its units handed over as two int16 halves).
TEST(NnueKernels, EveryKernelEqualsTheScalarOneWithASecondHiddenLayer) {
    std::mt19937_64 rng(17);
    for (const auto& [h, l, l2] : {std::tuple{16, 32, 4}, std::tuple{128, 32, 32}, std::tuple{256, 64, 16}, std::tuple{128, 256, 64}}) {
        const std::string what = "H " + std::to_string(h) + " L " + std::to_string(l) + " L2 " + std::to_string(l2);
        expect_kernels_agree(random_network(static_cast<std::uint64_t>(h + l + l2), h, l, 0, l2), rng, 50, what);
        expect_kernels_agree(window_network(static_cast<std::uint64_t>(h + l + l2), h, l, 0, l2), rng, 50, what);
    }
    expect_kernels_agree(window_network(18, 128, 32, ConnectivityInputsSet, 8), rng, 100, "connectivity and L2");
}

// The extremes a kernel could saturate on: every activation at 127 and every weight at 127 or
// -128, so that maddubs's pair sums reach 32258 and -32512 (still within int16) and the hidden
// sums their largest magnitude (2056 * 127 * 128, within int32). The bias brings each sum back
// to 4000, so every hidden unit is 62 (inside the clipped ReLU's window, where a wrong sum shows).
// The same at H 256 and L 12 without extras: avx512vnni's path that keeps the input in registers.
TEST(NnueKernels, EveryKernelEqualsTheScalarOneAtTheExtremes) {
    for (const auto& [h, extra_count] : {std::pair{1024, 8}, std::pair{256, 0}}) {
        Network net = random_network(16, h, 12, extra_count ? ConnectivityInputsSet : 0);
        const std::vector<std::int16_t> top(static_cast<std::size_t>(h), 127);
        const std::vector<std::uint8_t> extras(8, 127);
        const int inputs = 2 * h + extra_count;
        for (const int weight : {127, -128}) {
            for (auto& w : net.l1_weight) w = static_cast<std::int8_t>(weight);
            for (auto& b : net.l1_bias) b = 4000 - inputs * 127 * weight;
            const HiddenLayerInput input{top.data(), top.data(), h, extras.data(), extra_count, net.l1_weight.data(), net.l1_bias.data(), 12};
            for (const KernelSet* kernels : kernel_sets(true)) {
                std::array<std::int32_t, 12> hidden{};
                kernels->hidden(input, hidden.data());
                for (const std::int32_t u : hidden)
                    EXPECT_EQ(u, 4000 >> HiddenWeightShift) << kernels->name << " H " << h << " weight " << weight;
            }
        }
    }
}

TEST(NnueKernels, EveryKernelUpdatesTheAccumulatorExactly) {
    std::mt19937_64 rng(6);
    for (const int h : {16, 48, 96, 128, 1024}) {
        const auto base = random_accumulator(rng, h, 3000);
        std::vector<std::vector<std::int16_t>> columns;
        for (int c = 0; c < 5; ++c) columns.push_back(random_accumulator(rng, h, 3000));
        // The shapes of a move (one added, one removed), a capture (one, two), a refresh (24, none).
        for (const auto& [adds, removes] : {std::pair{1, 1}, std::pair{1, 2}, std::pair{5, 0}, std::pair{0, 0}}) {
            std::vector<const std::int16_t*> added, removed;
            for (int c = 0; c < adds; ++c) added.push_back(columns[static_cast<std::size_t>(c)].data());
            for (int c = 0; c < removes; ++c) removed.push_back(columns[static_cast<std::size_t>(4 - c)].data());
            for (const KernelSet* kernels : kernel_sets(true)) {
                std::vector<std::int16_t> out(static_cast<std::size_t>(h) + 16, 4242);  // beyond H: must stay untouched
                update_accumulator(base.data(), out.data(), h, added, removed, *kernels);
                for (std::size_t i = 0; i < static_cast<std::size_t>(h); ++i) {
                    int want = base[i];
                    for (const auto* a : added) want += a[i];
                    for (const auto* r : removed) want -= r[i];
                    ASSERT_EQ(out[i], static_cast<std::int16_t>(want)) << kernels->name << " H " << h << " at " << i;
                }
                for (std::size_t i = static_cast<std::size_t>(h); i < out.size(); ++i)
                    ASSERT_EQ(out[i], 4242) << kernels->name << " wrote past H " << h;
                // In place, as the stack's refresh of an entry does.
                std::vector<std::int16_t> in_place = base;
                update_accumulator(in_place.data(), in_place.data(), h, added, removed, *kernels);
                ASSERT_TRUE(std::equal(in_place.begin(), in_place.end(), out.begin())) << kernels->name << " in place";
            }
        }
    }
}

// Whole games: the incremental stack of every kernel gives the scalar kernel's evaluations.
TEST(NnueKernels, EveryKernelsStackFollowsRandomGamesLikeTheScalarOne) {
    std::mt19937_64 rng(22);
    // The shipped net's shape, and one with every optional part at an H whose tail is masked.
    for (int g = 0; g < 6; ++g) {
        const auto net = loa::testing::shared(g % 2 ? random_network(21, 128, 32)
                                                    : random_network(23, 48, 32, ConnectivityInputsSet, 8, CentreOfMassBucketsSet));
        std::vector<AccumulatorStack> stacks;
        const auto runnable = kernel_sets(true);
        for (const KernelSet* kernels : runnable) stacks.emplace_back(net, *kernels);
        Position pos = Position::start();
        for (int ply = 0; ply < 80; ++ply) {
            MoveList moves;
            generate_moves(pos, moves);
            if (moves.empty()) break;
            const Move m = moves[rng() % moves.size()];
            for (auto& s : stacks) s.moving_from(pos);
            pos.make(m);
            for (auto& s : stacks) s.moved_to(pos);
            const int want = stacks[0].evaluate(pos);
            for (std::size_t k = 1; k < stacks.size(); ++k)
                ASSERT_EQ(stacks[k].evaluate(pos), want) << runnable[k]->name << " game " << g << " ply " << ply;
            if (connection_result(pos, RuleSet{}).over()) break;
        }
    }
}

TEST(NnueKernels, TheEngineUsesTheFastestKernelAndNamesAreChecked) {
    const auto runnable = kernel_sets(true);
    ASSERT_FALSE(runnable.empty());
    EXPECT_STREQ(runnable.front()->name, "scalar");
    if (!std::getenv("LOA_NNUE_KERNEL")) {
        EXPECT_EQ(&active_kernels(), runnable.back());
    }
    for (const KernelSet* kernels : runnable) EXPECT_EQ(&kernel_set(kernels->name), kernels);
    EXPECT_THROW((void)kernel_set("avx9000"), InputError);
    // A kernel built in but beyond this CPU is refused by name, not run.
    for (const KernelSet* kernels : kernel_sets(false)) {
        if (std::find(runnable.begin(), runnable.end(), kernels) == runnable.end()) {
            EXPECT_THROW((void)kernel_set(kernels->name), InputError) << kernels->name;
        }
    }
}

}  // namespace
}  // namespace loa::nnue
