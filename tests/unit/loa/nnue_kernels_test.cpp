// The NNUE's SIMD kernels against their scalar references.
#include <gtest/gtest.h>

#include <random>

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
#include "support/nnue_nets.hpp"

namespace loa::nnue {
namespace {

using loa::testing::random_network;

TEST(NnueKernels, SimdEqualsScalarOnEveryInput) {
    std::mt19937_64 rng(5);
    for (const auto& [h, l] : {std::pair{16, 4}, std::pair{32, 8}, std::pair{128, 32}, std::pair{256, 16}}) {
        const Network net = random_network(static_cast<std::uint64_t>(h * l), h, l);
        std::vector<std::int16_t> stm(static_cast<std::size_t>(h)), other(static_cast<std::size_t>(h));
        for (int trial = 0; trial < 200; ++trial) {
            // Values across and beyond the clipped ReLU's 0..127, both signs.
            for (auto* acc : {&stm, &other})
                for (auto& v : *acc) v = static_cast<std::int16_t>(std::uniform_int_distribution<int>(-400, 400)(rng));
            ASSERT_EQ(propagate(net, stm.data(), other.data()), propagate_scalar(net, stm.data(), other.data()))
                << "H " << h << " L " << l << " trial " << trial;
        }
    }
}

TEST(NnueKernels, SimdEqualsScalarWithTheConnectivityInputs) {
    std::mt19937_64 rng(15);
    for (const auto& [h, l] : {std::pair{16, 4}, std::pair{128, 32}}) {
        const Network net = random_network(static_cast<std::uint64_t>(h + l), h, l, ConnectivityInputsSet);
        std::vector<std::int16_t> stm(static_cast<std::size_t>(h)), other(static_cast<std::size_t>(h));
        std::array<std::uint8_t, 8> extras{};
        std::array<int, 8> read{};
        for (int trial = 0; trial < 200; ++trial) {
            for (auto* acc : {&stm, &other})
                for (auto& v : *acc) v = static_cast<std::int16_t>(std::uniform_int_distribution<int>(-400, 400)(rng));
            for (auto& e : extras) e = static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, 127)(rng));
            const int simd = propagate(net, stm.data(), other.data(), extras);
            ASSERT_EQ(simd, propagate_scalar(net, stm.data(), other.data(), extras)) << "H " << h << " trial " << trial;
            // Every input is read: moving it across its range changes the evaluation on some trial.
            for (std::size_t i = 0; i < extras.size(); ++i) {
                auto changed = extras;
                changed[i] = static_cast<std::uint8_t>(changed[i] > 63 ? 0 : 127);
                read[i] += propagate(net, stm.data(), other.data(), changed) != simd;
            }
        }
        for (std::size_t i = 0; i < read.size(); ++i) EXPECT_GT(read[i], 0) << "input " << i << " H " << h;
        EXPECT_THROW((void)propagate(net, stm.data(), other.data()), std::logic_error);
        extras[5] = 128;  // beyond the activations' range: the kernels' bounds assume 0..127
        EXPECT_THROW((void)propagate(net, stm.data(), other.data(), extras), std::logic_error);
    }
}

TEST(NnueKernels, UpdateAddsAndRemovesColumnsExactly) {
    std::mt19937_64 rng(6);
    constexpr int H = 48;
    std::vector<std::int16_t> base(H), a(H), b(H), c(H), out(H);
    for (auto* v : {&base, &a, &b, &c})
        for (auto& x : *v) x = static_cast<std::int16_t>(std::uniform_int_distribution<int>(-3000, 3000)(rng));
    const std::int16_t* added[] = {a.data(), b.data()};
    const std::int16_t* removed[] = {c.data()};
    update_accumulator(base.data(), out.data(), H, added, removed);
    for (std::size_t i = 0; i < H; ++i) EXPECT_EQ(out[i], base[i] + a[i] + b[i] - c[i]) << i;
}

}  // namespace
}  // namespace loa::nnue
