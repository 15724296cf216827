// The endgame set: its shipped values under the brute force, and its text format.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <iterator>

#include "support/and_or_oracle.hpp"
#include "loa/searchers.hpp"
#include "common/solver/numbers_table.hpp"
#include "common/solver/solved_table.hpp"
#include "common/solver/solver.hpp"
#include "loa/endgame_set.hpp"
#include "loa/error.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "support/solver_run.hpp"

namespace loa {
namespace {

using Solver = solver::ProofNumberSolver<SearchGame>;
using solver::Value;
using loa::testing::solve;

TEST(EndgameSet, ShippedValuesHoldUnderTheBruteForce) {
    // data/endgames/endgames.txt: values proven by PN² with a large budget. Where the brute
    // force reaches (a win within 3 plies, a loss within 2), it must agree; a smaller budget may
    // leave a position unknown but never give another value.
    const auto set = load_endgame_set(std::string(LOA_DATA_DIR) + "/endgames/endgames.txt");
    ASSERT_GE(set.size(), 100u);
    int checked_by_brute_force = 0;
    for (std::size_t i = 0; i < set.size(); i += 3) {
        const EndgamePosition& e = set[i];
        ASSERT_TRUE(e.value) << "position " << i + 1;
        const std::string where = "position " + std::to_string(i + 1) + ": " + e.position.to_text();
        if (and_or::forced_win_within(e.position, true, 3)) {
            EXPECT_EQ(*e.value, Value::Win) << where;
            ++checked_by_brute_force;
        } else if (and_or::forced_win_within(e.position, false, 2)) {
            EXPECT_EQ(*e.value, Value::Loss) << where;
            ++checked_by_brute_force;
        }
        for (const auto algorithm : {solver::Algorithm::PN, solver::Algorithm::DFPN, solver::Algorithm::DFPN_PN,
                                 solver::Algorithm::PDS, solver::Algorithm::PDS_PN}) {
            solver::SolverOptions options;
            options.algorithm = algorithm;
            const auto r = solve(options, e.position, 20'000);
            if (r.value != Value::Unknown) {
                EXPECT_EQ(r.value, *e.value) << solver::to_string(algorithm) << " " << where;
            }
        }
    }
    EXPECT_GE(checked_by_brute_force, 10);
}

TEST(EndgameSet, RoundTripAndBadInput) {
    const EndgamePosition entry = parse_endgame_line("3b4/3b4/5b2/5w2/1w2b3/w3b3/1w2w3/8 b win");
    ASSERT_TRUE(entry.value);
    EXPECT_EQ(*entry.value, Value::Win);
    EXPECT_EQ(format_endgame_line(entry), "3b4/3b4/5b2/5w2/1w2b3/w3b3/1w2w3/8 b win");
    EXPECT_FALSE(parse_endgame_line("3b4/3b4/5b2/5w2/1w2b3/w3b3/1w2w3/8 w").value);
    EXPECT_THROW(parse_endgame_line("3b4/3b4/5b2/5w2/1w2b3/w3b3/1w2w3/8 b maybe"), InputError);
    EXPECT_THROW(parse_endgame_line("3b4/3b4/5b2/5w2/1w2b3/w3b3/1w2w3 b win"), InputError);
    EXPECT_THROW(parse_proven_value("unknown"), InputError);

    const std::string path = ::testing::TempDir() + "endgames.txt";
    {
        std::ofstream out(path);
        out << "# a comment\n\n" << format_endgame_line(entry) << "\nnot a position\n";
    }
    try {
        load_endgame_set(path);
        FAIL() << "a bad line was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("line 4"), std::string::npos) << e.what();
    }
    EXPECT_THROW(load_endgame_set(path + ".missing"), InputError);
    std::remove(path.c_str());
}

}  // namespace
}  // namespace loa
