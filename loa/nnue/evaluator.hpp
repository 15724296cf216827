// The engine's network evaluation (net_evaluator.hpp), the hand-written evaluation answering
// the boards the net is not sized for.
#pragma once

#include "loa/evaluation.hpp"
#include "loa/nnue/net_evaluator.hpp"

namespace loa::nnue {

struct HandWrittenFallback {
    int operator()(const Position& pos) const { return Evaluator().evaluate(pos); }
};
using NetEvaluator = BasicNetEvaluator<HandWrittenFallback>;

}  // namespace loa::nnue
