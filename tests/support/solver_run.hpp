// Helpers the proof-number solver's tests share (solver_test.cpp, endgame_set_test.cpp).
#pragma once

#include <cstdint>

#include "common/solver/solver.hpp"
#include "loa/search_game.hpp"

namespace loa::testing {

// One solve of a position by a fresh solver with the given options, within a node budget.
inline ::solver::SolveResult<Move> solve(const ::solver::SolverOptions& options, const Position& pos, std::uint64_t nodes,
                                         int plies_left = 0) {
    ::solver::ProofNumberSolver<SearchGame> s(SearchGame{}, options);
    ::solver::SolveLimits limits;
    limits.nodes = nodes;
    limits.game_plies_left = plies_left;
    return s.solve(pos, limits);
}

}  // namespace loa::testing
