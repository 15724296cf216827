// The proof-number solver against a brute-force AND/OR search written from the rules alone
// (tests/support/and_or_oracle.hpp): exact values under a ply limit, where the brute force is exact;
// without one, every forced win or loss the brute force finds within a few plies must be
// proven, and nothing it refutes may be; proving moves that the rules confirm; agreement with
// the αβ search's decided scores; and the endgame-set text format.
#include <gtest/gtest.h>

#include <iterator>
#include <utility>

#include "support/and_or_oracle.hpp"
#include "loa/searchers.hpp"
#include "common/solver/numbers_table.hpp"
#include "common/solver/solved_table.hpp"
#include "common/solver/solver.hpp"
#include "loa/endgame_set.hpp"
#include "loa/error.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "support/sanitized_build.hpp"
#include "support/test_positions.hpp"
#include "support/solver_run.hpp"

namespace loa {
namespace {

using Solver = solver::ProofNumberSolver<SearchGame>;
using solver::Value;
using testing::late_positions;

std::vector<Position> test_positions() {
    std::vector<Position> out = late_positions(7, 40);
    for (const Position& p : testing::sparse_positions(11, 40, 2, 5)) out.push_back(p);
    return out;
}

Value from_oracle(and_or::Value v) {
    return v == and_or::Value::Win ? Value::Win : v == and_or::Value::Loss ? Value::Loss : Value::Draw;
}

struct Variant {
    const char* name;
    solver::SolverOptions options;
};

std::vector<Variant> variants() {
    std::vector<Variant> out;
    for (const auto algorithm :
         {solver::Algorithm::PN, solver::Algorithm::PN2, solver::Algorithm::DFPN, solver::Algorithm::DFPN_PN,
          solver::Algorithm::PDS, solver::Algorithm::PDS_PN})
        for (const auto init : {solver::LeafInit::Uniform, solver::LeafInit::Mobility})
            for (const std::size_t table_mb : {std::size_t{0}, std::size_t{1}}) {
                solver::SolverOptions o;
                o.algorithm = algorithm;
                o.init = init;
                o.table_mb = table_mb;
                o.pn2_min_nodes = 20;  // small second-level trees: PN² really has two levels here
                out.push_back({"variant", o});
            }
    return out;
}

std::string describe(const solver::SolverOptions& o) {
    return std::string(solver::to_string(o.algorithm)) + (o.init == solver::LeafInit::Mobility ? " mobility" : " uniform") +
           (o.table_mb ? " table" : solver::depth_first(o.algorithm) ? " smallest table" : " no table");
}

using loa::testing::solve;

TEST(Solver, ExactUnderAPlyLimit) {
    const auto positions = test_positions();
    int counts[3] = {0, 0, 0};
    for (int limit = 1; limit <= 3; ++limit) {
        for (std::size_t i = 0; i < positions.size(); ++i) {
            const Position& pos = positions[i];
            if (limit == 3 && i % 3 != 0) continue;  // the brute force grows fast
            const Value expected = from_oracle(and_or::solve_with_ply_limit(pos, limit));
            ++counts[static_cast<int>(expected) - 1];
            for (const Variant& v : variants()) {
                const auto r = solve(v.options, pos, 5'000'000, limit);
                EXPECT_EQ(r.value, expected) << describe(v.options) << " limit " << limit << " " << pos.to_text();
            }
        }
    }
    // Every kind of value occurs, so that the comparison means something.
    EXPECT_GT(counts[0], 5);  // wins
    EXPECT_GT(counts[1], 5);  // losses
    EXPECT_GT(counts[2], 5);  // draws
}

TEST(Solver, ExactUnderLongerPlyLimitsWithTheTable) {
    // Few pieces, so that the brute force reaches 4 and 5 plies, and transpositions reach the
    // same position at different plies: a proof stored with more plies left must not be
    // reused where fewer are left.
    int counts[3] = {0, 0, 0};
    const auto positions = testing::sparse_positions(31, 16, 2, 3);
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Position& pos = positions[i];
        for (int limit = 4; limit <= (i < 4 ? 5 : 4); ++limit) {
            const Value expected = from_oracle(and_or::solve_with_ply_limit(pos, limit));
            ++counts[static_cast<int>(expected) - 1];
            for (const Variant& v : variants()) {
                const auto r = solve(v.options, pos, 5'000'000, limit);
                EXPECT_EQ(r.value, expected) << describe(v.options) << " limit " << limit << " " << pos.to_text();
            }
        }
    }
    EXPECT_GT(counts[0] + counts[1], 3);  // decided ones
    EXPECT_GT(counts[2], 0);              // and draws
}

TEST(Solver, PnTwoEndsWithTheSmallestSecondLevelBound) {
    solver::SolverOptions o;
    o.algorithm = solver::Algorithm::PN2;
    o.pn2_min_nodes = 0;
    o.pn2_fraction = 1e-9;
    const auto r = solve(o, late_positions(9, 3).back(), 20'000);
    EXPECT_GT(r.nodes, 0u);
    EXPECT_LE(r.nodes, 20'000u + 400u);
}

TEST(Solver, DepthFirstOverPnIsTheFirstLevelAloneWithTheSmallestSecondLevelAndDiffersWithALargerOne) {
    // A second-level tree of two nodes is one expansion of the node, whose children get leaf
    // numbers: just what the first level does alone, so the two must agree node for node. With
    // larger trees the numbers differ, the search with them, but no value may.
    const std::pair<solver::Algorithm, solver::Algorithm> pairs[] = {{solver::Algorithm::DFPN, solver::Algorithm::DFPN_PN},
                                                                      {solver::Algorithm::PDS, solver::Algorithm::PDS_PN}};
    for (const auto& [one_level, two_levels] : pairs) {
        solver::SolverOptions alone, smallest, larger;
        alone.algorithm = one_level;
        smallest.algorithm = larger.algorithm = two_levels;
        smallest.pn2_min_nodes = 0;
        smallest.pn2_fraction = 0;
        larger.pn2_min_nodes = 50;
        int differing = 0, compared = 0;
        const std::size_t step = 2;
        for (const Position& pos : testing::sample_when_sanitized(test_positions(), step)) {
            const std::string where = std::string(solver::to_string(two_levels)) + " " + pos.to_text();
            const auto plain = solve(alone, pos, 30'000);
            const auto same = solve(smallest, pos, 30'000);
            EXPECT_EQ(same.nodes, plain.nodes) << where;
            EXPECT_EQ(same.value, plain.value) << where;
            EXPECT_EQ(same.win.pn, plain.win.pn) << where;
            const auto other = solve(larger, pos, 30'000);
            differing += other.nodes != plain.nodes;
            if (other.value != Value::Unknown && plain.value != Value::Unknown) {
                EXPECT_EQ(other.value, plain.value) << where;
                ++compared;
            }
        }
        const int enough = testing::sanitized_build ? 10 / step : 10;
        EXPECT_GT(differing, enough) << solver::to_string(two_levels);
        EXPECT_GT(compared, enough) << solver::to_string(two_levels);
    }
}

TEST(Solver, PdsRaisesTheChildsNumberItsRuleNames) {
    // Nagai's rule, in negamax form: the node (phi, delta) with thresholds (th_phi, th_delta)
    // searches its child (phi_c, delta_c) with (phi_c + 1, delta_c) when delta < th_delta and
    // (phi_c <= delta_c or phi >= th_phi), else with (phi_c, delta_c + 1). At an OR node phi is
    // pn and the child's phi is its dn; at an AND node the other way round. Expected values
    // worked by hand from that rule.
    using solver::pds_child_thresholds;
    auto check = [](solver::ChildThresholds got, solver::ProofNumber pn, solver::ProofNumber dn) {
        EXPECT_EQ(got.pn, pn);
        EXPECT_EQ(got.dn, dn);
    };
    // OR node (pn 2, dn 4), thresholds (pn 3, dn 5).
    check(pds_child_thresholds(true, 2, 4, 3, 5, 2, 1), 2, 2);  // dn_c 1 <= pn_c 2: its dn
    check(pds_child_thresholds(true, 2, 4, 3, 5, 2, 3), 3, 3);  // dn_c 3 > pn_c 2: its pn
    check(pds_child_thresholds(true, 2, 4, 2, 5, 2, 3), 2, 4);  // pn threshold met: its dn
    check(pds_child_thresholds(true, 2, 4, 3, 4, 2, 1), 3, 1);  // dn threshold met: its pn
    // The same at an AND node (pn and dn swapped everywhere).
    check(pds_child_thresholds(false, 4, 2, 5, 3, 1, 2), 2, 2);
    check(pds_child_thresholds(false, 4, 2, 5, 3, 3, 2), 3, 3);
    check(pds_child_thresholds(false, 4, 2, 5, 2, 3, 2), 4, 2);
    check(pds_child_thresholds(false, 4, 2, 4, 3, 1, 2), 1, 3);
    // A saturated number is raised to infinity: the child is searched until it is solved.
    const solver::ProofNumber big = solver::MaxFinite;
    check(pds_child_thresholds(true, big, 5, solver::Infinite, 5, big, 3), solver::Infinite, 3);
    check(pds_child_thresholds(true, big, 4, solver::Infinite, 5, big, big), big, solver::Infinite);
}

TEST(Solver, PdsAndDfpnSearchDifferentlyButAgreeOnEveryValue) {
    // The two differ only in their thresholds (PDS deepens one step at a time and stops a node
    // when both numbers reach theirs): different node counts, never a different value.
    solver::SolverOptions pds, dfpn;
    pds.algorithm = solver::Algorithm::PDS;
    dfpn.algorithm = solver::Algorithm::DFPN;
    int differing = 0, both_decided = 0;
    for (const Position& pos : test_positions()) {
        const auto a = solve(pds, pos, 50'000);
        const auto b = solve(dfpn, pos, 50'000);
        differing += a.nodes != b.nodes;
        if (a.value != Value::Unknown && b.value != Value::Unknown) {
            EXPECT_EQ(a.value, b.value) << pos.to_text();
            ++both_decided;
        }
    }
    EXPECT_GT(differing, 10);
    EXPECT_GT(both_decided, 10);
}

TEST(Solver, ForcedResultsOfTheBruteForceAreProvenAndNothingElse) {
    int wins = 0, losses = 0;
    for (const Position& pos : test_positions()) {
        const bool forced_win = and_or::forced_win_within(pos, true, 3);
        const bool forced_loss = and_or::forced_win_within(pos, false, 2);
        wins += forced_win;
        losses += forced_loss;
        for (const Variant& v : variants()) {
            const auto r = solve(v.options, pos, 200'000);
            const std::string where = describe(v.options) + " " + pos.to_text();
            if (forced_win) {
                EXPECT_EQ(r.value, Value::Win) << where;
            }
            if (forced_loss) {
                EXPECT_EQ(r.value, Value::Loss) << where;
            }
            // What the brute force forces, the solver may not refute.
            if (r.value == Value::Loss || r.value == Value::Draw) {
                EXPECT_FALSE(forced_win) << where;
            }
            if (r.value == Value::Win || r.value == Value::Draw) {
                EXPECT_FALSE(forced_loss) << where;
            }
        }
    }
    EXPECT_GT(wins, 10);
    EXPECT_GT(losses, 3);
}

TEST(Solver, TheProvingMoveWins) {
    const SearchGame game;
    const solver::Algorithm algorithms[] = {solver::Algorithm::PN, solver::Algorithm::DFPN, solver::Algorithm::DFPN_PN,
                                            solver::Algorithm::PDS, solver::Algorithm::PDS_PN};
    int checked[std::size(algorithms)] = {};
    for (const Position& pos : test_positions()) for (std::size_t a = 0; a < std::size(algorithms); ++a) {
        const solver::Algorithm algorithm = algorithms[a];
        solver::SolverOptions options;
        options.algorithm = algorithm;
        const auto r = solve(options, pos, 200'000);
        if (r.value != Value::Win) continue;
        Position child = pos;
        child.make(r.move);
        const search::Status s = game.status(child);
        if (s == search::Status::Ongoing) {
            // The opponent, now to move, must be proven lost (no game history: the root is the start of the line).
            EXPECT_EQ(solve(options, child, 400'000).value, Value::Loss) << pos.to_text();
        } else {
            EXPECT_EQ(s, search::Status::Loss) << pos.to_text();  // the mover won at once
        }
        ++checked[a];
    }
    for (const int n : checked) EXPECT_GT(n, 10);
}

TEST(Solver, AgreesWithTheDecidedScoresOfTheAlphaBetaSearch) {
    int decided = 0;
    for (const Position& pos : test_positions()) {
        search::Searcher<SearchGame> searcher(SearchGame{}, variant::parse_variant("full"));
        search::SearchLimits limits;
        limits.depth = 4;
        const auto ab = searcher.search(pos, limits);
        if (!search::is_decisive(ab.score)) continue;
        ++decided;
        const auto r = solve({}, pos, 400'000);
        EXPECT_EQ(r.value, ab.score > 0 ? Value::Win : Value::Loss) << pos.to_text();
    }
    EXPECT_GT(decided, 10);
}

TEST(Solver, DeterministicAndWithinItsBudget) {
    const Position pos = late_positions(3, 6).back();
    for (const Variant& v : variants()) {
        const auto a = solve(v.options, pos, 3'000);
        const auto b = solve(v.options, pos, 3'000);
        EXPECT_EQ(a.value, b.value);
        EXPECT_EQ(a.nodes, b.nodes);
        EXPECT_EQ(a.win.pn, b.win.pn);
        // The budget is checked before each expansion: one expansion (a few hundred nodes at
        // most in LOA) may pass it.
        EXPECT_LE(a.nodes, 3'000u + 400u) << describe(v.options);
    }
    // One node cannot prove a position that is not decided in one move.
    const Position start = Position::start();
    EXPECT_EQ(solve({}, start, 1).value, Value::Unknown);
}

TEST(Solver, GameHistoryRepetitionsAreDraws) {
    // Every child of the root occurred twice earlier in the game: every move draws (third
    // occurrence), and so does the position. The history alternates sides as a game does.
    const SearchGame game;
    const Position pos = testing::random_game(5, 12).position();  // a middle game: no move ends it
    MoveList moves;
    game.generate(pos, moves);
    std::vector<std::uint64_t> history;
    for (const Move m : moves) {
        Position child = pos;
        child.make(m);
        ASSERT_EQ(game.status(child), search::Status::Ongoing);
        for (int occurrence = 0; occurrence < 2; ++occurrence) {
            history.push_back(0);  // a position of the root's side to move
            history.push_back(child.key());
        }
    }
    for (const auto algorithm : {solver::Algorithm::PN, solver::Algorithm::DFPN, solver::Algorithm::DFPN_PN,
                                 solver::Algorithm::PDS, solver::Algorithm::PDS_PN}) {
        solver::SolverOptions options;
        options.algorithm = algorithm;
        Solver s(SearchGame{}, options);
        solver::SolveLimits limits;
        limits.nodes = 100'000;
        EXPECT_EQ(s.solve(pos, limits, history).value, Value::Draw) << solver::to_string(algorithm);
    }
}

TEST(Solver, AGamePositionSeenOnceIsNoRepetition) {
    // A win that takes more than one move, every child of the root put once in the game
    // history: a second occurrence is no draw yet, so the win stands.
    const SearchGame game;
    const solver::Algorithm algorithms[] = {solver::Algorithm::PN, solver::Algorithm::DFPN, solver::Algorithm::DFPN_PN,
                                            solver::Algorithm::PDS, solver::Algorithm::PDS_PN};
    int checked[std::size(algorithms)] = {};
    for (const Position& pos : test_positions()) {
        MoveList moves;
        game.generate(pos, moves);
        std::vector<std::uint64_t> history;
        bool wins_at_once = false;
        for (const Move m : moves) {
            Position child = pos;
            child.make(m);
            wins_at_once = wins_at_once || game.status(child) == search::Status::Loss;
            history.push_back(0);
            history.push_back(child.key());
        }
        if (wins_at_once) continue;
        for (std::size_t a = 0; a < std::size(algorithms); ++a) {
            solver::SolverOptions options;
            options.algorithm = algorithms[a];
            if (solve(options, pos, 100'000).value != Value::Win) continue;  // a win this budget proves
            Solver s(SearchGame{}, options);
            solver::SolveLimits limits;
            limits.nodes = 100'000;
            EXPECT_EQ(s.solve(pos, limits, history).value, Value::Win) << solver::to_string(options.algorithm) << " " << pos.to_text();
            ++checked[a];
        }
    }
    for (const int n : checked) EXPECT_GE(n, 3);
}

TEST(Solver, ASecondSolveProvesItsWinAgainInsteadOfReadingTheFirstOnesProof) {
    const SearchGame game;
    const solver::Algorithm algorithms[] = {solver::Algorithm::PN,  solver::Algorithm::PN2, solver::Algorithm::DFPN,
                                            solver::Algorithm::DFPN_PN, solver::Algorithm::PDS, solver::Algorithm::PDS_PN};
    int checked[std::size(algorithms)] = {};
    for (const Position& pos : test_positions()) {
        MoveList moves;
        game.generate(pos, moves);
        bool wins_at_once = false;
        for (const Move m : moves) {
            Position child = pos;
            child.make(m);
            wins_at_once = wins_at_once || game.status(child) == search::Status::Loss;
        }
        if (wins_at_once) continue;  // the children's own status proves it, no table needed
        for (std::size_t a = 0; a < std::size(algorithms); ++a) {
            solver::SolverOptions options;
            options.algorithm = algorithms[a];
            options.table_mb = 1;
            Solver s(SearchGame{}, options);
            solver::SolveLimits limits;
            limits.nodes = 100'000;
            if (s.solve(pos, limits).value != Value::Win) continue;
            const auto again = s.solve(pos, limits);
            EXPECT_EQ(again.value, Value::Win) << solver::to_string(algorithms[a]) << " " << pos.to_text();
            // Reading a stored proof of a root child, the root is proven by its expansion alone.
            EXPECT_GT(again.nodes, moves.size()) << solver::to_string(algorithms[a]) << " " << pos.to_text();
            ++checked[a];
        }
    }
    for (const int n : checked) EXPECT_GE(n, 3);
}

TEST(Solver, RejectsUnknownNames) {
    EXPECT_THROW(solver::parse_algorithm("pns"), common::InputError);
    EXPECT_EQ(solver::parse_algorithm("pds"), solver::Algorithm::PDS);
    EXPECT_THROW(solver::parse_leaf_init("random"), common::InputError);
    EXPECT_EQ(solver::parse_algorithm("pn2"), solver::Algorithm::PN2);
    EXPECT_EQ(solver::parse_algorithm("dfpn"), solver::Algorithm::DFPN);
    EXPECT_THROW(solver::parse_algorithm("dfpn_pn"), common::InputError);
    for (const auto a : {solver::Algorithm::PN, solver::Algorithm::PN2, solver::Algorithm::DFPN, solver::Algorithm::DFPN_PN,
          solver::Algorithm::PDS, solver::Algorithm::PDS_PN})
        EXPECT_EQ(solver::parse_algorithm(solver::to_string(a)), a);
}

}  // namespace
}  // namespace loa
