// The solver's tables: a proof is trusted only in its own solve, a disproof in every one.
#include <gtest/gtest.h>

#include "loa/searchers.hpp"
#include "common/solver/numbers_table.hpp"
#include "common/solver/solved_table.hpp"
#include "common/solver/solver.hpp"
#include "loa/endgame_set.hpp"
#include "loa/error.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"

namespace loa {
namespace {

// The engine keeps a solver over a game. A proof found under one game history once stood in
// another solve, whose root could lie inside it: the defender could walk the proof's line back
// to the root until the third occurrence drew (found by review). Each solve now proves its
// wins again, while disproofs and estimates last.
TEST(SolvedTables, AProofIsTrustedOnlyInTheSolveThatFoundItADisproofInEvery) {
    solver::SolvedTable solved(1);
    solved.store(1, true);
    solved.store(2, false);
    EXPECT_EQ(solved.probe(1), solver::Verdict::Proven);
    EXPECT_EQ(solved.probe(2), solver::Verdict::Disproven);
    EXPECT_EQ(solved.probe(3), solver::Verdict::Unknown);
    solved.new_solve();
    EXPECT_EQ(solved.probe(1), solver::Verdict::Unknown);
    EXPECT_EQ(solved.probe(2), solver::Verdict::Disproven);
    solved.store(1, true);
    EXPECT_EQ(solved.probe(1), solver::Verdict::Proven);

    solver::NumbersTable numbers(1);
    numbers.store(1, 0, solver::Infinite);  // proven
    numbers.store(2, solver::Infinite, 0);  // disproven
    numbers.store(3, 5, 7);                 // not solved
    ASSERT_TRUE(numbers.probe(1).has_value());
    EXPECT_EQ(numbers.probe(1)->pn, 0u);
    numbers.new_solve();
    EXPECT_FALSE(numbers.probe(1).has_value());
    ASSERT_TRUE(numbers.probe(2).has_value());
    EXPECT_EQ(numbers.probe(2)->dn, 0u);
    ASSERT_TRUE(numbers.probe(3).has_value());
    EXPECT_EQ(numbers.probe(3)->pn, 5u);
    EXPECT_EQ(numbers.probe(3)->dn, 7u);
    EXPECT_FALSE(numbers.probe(4).has_value());
}

}  // namespace
}  // namespace loa
