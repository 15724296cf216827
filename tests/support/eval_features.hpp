// Helpers the evaluation's tests share (evaluation_test.cpp, eval_weights_test.cpp).
#pragma once

#include <cstddef>

#include "loa/evaluation.hpp"
#include "loa/position.hpp"

namespace loa::testing {

// One feature's value for a side under the full weights.
inline int feature(const Position& pos, Colour c, Feature f) {
    return side_features(pos, c, EvalWeights::full())[static_cast<std::size_t>(f)];
}

}  // namespace loa::testing
