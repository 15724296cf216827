// Helpers the MCTS tests share (mcts_test.cpp, mcts_threads_test.cpp): the oracle's values as
// proofs, their names, and the positions small enough for the brute force.
#pragma once

#include <vector>

#include "common/mcts/tree.hpp"
#include "loa/position.hpp"
#include "support/and_or_oracle.hpp"
#include "support/test_positions.hpp"

namespace loa::testing {

inline mcts::Proof expected_proof(and_or::Value v) {
    return v == and_or::Value::Win ? mcts::Proof::Win : v == and_or::Value::Loss ? mcts::Proof::Loss : mcts::Proof::Draw;
}

inline const char* name(mcts::Proof p) {
    switch (p) {
        case mcts::Proof::Win: return "win";
        case mcts::Proof::Loss: return "loss";
        case mcts::Proof::Draw: return "draw";
        case mcts::Proof::Unknown: break;
    }
    return "unknown";
}

inline std::vector<Position> small_positions() {
    std::vector<Position> out = late_positions(7, 40);
    for (const Position& p : sparse_positions(11, 40, 2, 5)) out.push_back(p);
    return out;
}

}  // namespace loa::testing
