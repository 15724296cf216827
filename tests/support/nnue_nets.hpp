// Helpers the NNUE tests share (tests/unit/loa/nnue_*_test.cpp): small random networks and the
// evaluation recomputed from scratch.
#pragma once

#include <cstdint>
#include <memory>

#include "loa/nnue/accumulator.hpp"
#include "loa/nnue/network.hpp"
#include "loa/position.hpp"

namespace loa::testing {

inline nnue::Network random_network(std::uint64_t seed, int accumulator_size = 32, int hidden_size = 8,
                                    int extra_inputs_set = 0, int second_hidden_size = 0, int input_buckets_set = 0) {
    return nnue::random_network(seed, accumulator_size, hidden_size, extra_inputs_set, second_hidden_size,
                                input_buckets_set);
}

inline std::shared_ptr<const nnue::Network> shared(nnue::Network net) {
    // Through the file format, so that the checksum the reader fills in is set.
    return std::make_shared<const nnue::Network>(nnue::parse_network(nnue::serialize_network(net), "test"));
}

// The evaluation recomputed from scratch: a fresh stack, which refreshes.
inline int refreshed_evaluation(const std::shared_ptr<const nnue::Network>& net, const Position& pos) {
    nnue::AccumulatorStack fresh(net);
    return fresh.evaluate(pos);
}

}  // namespace loa::testing
