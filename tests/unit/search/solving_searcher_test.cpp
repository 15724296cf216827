// The αβ search with the proof-number solver in front of it (search key solver=N): off, it is
// the plain search; on, a proven win is played with a move that the brute-force oracle
// (tests/support/and_or_oracle.hpp, written from the rules alone) confirms wins; anything else is the
// plain search's move; and the search's timer counts the solver's time.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <set>
#include <vector>

#include "support/and_or_oracle.hpp"
#include "loa/searchers.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "support/test_positions.hpp"
#include "support/search_limits.hpp"

namespace loa {
namespace {

using Solving = solver::SolvingSearcher<SearchGame>;

search::SearchConfig full_with_solver(int nodes) {
    search::SearchConfig c = variant::parse_variant("full");
    c.solver_nodes = nodes;
    return c;
}

using loa::testing::depth;

TEST(SolvingSearcher, OffIsExactlyTheSearch) {
    for (const Position& pos : testing::late_positions(21, 8)) {
        search::ParallelSearcher<SearchGame> plain(SearchGame{}, full_with_solver(0));
        Solving solving(SearchGame{}, full_with_solver(0));
        const auto a = plain.search(pos, depth(4));
        const auto b = solving.search(pos, depth(4));
        EXPECT_EQ(a.best_move, b.best_move);
        EXPECT_EQ(a.score, b.score);
        EXPECT_EQ(a.stats.nodes, b.stats.nodes);
        EXPECT_EQ(b.solver_nodes, 0u);
        EXPECT_FALSE(b.proven_win);
    }
}

// After `move`, does the side that made it still force a win (or has it won already)? The
// brute force, first within 2 plies, then 4 (the solver may play a longer win).
bool still_wins(const Position& pos, Move move) {
    Position child = pos;
    child.make(move);
    const search::Status status = SearchGame{}.status(child);
    if (status != search::Status::Ongoing) return status == search::Status::Loss;  // the side now to move has lost
    return and_or::forced_win_within(child, false, 2) || and_or::forced_win_within(child, false, 4);
}

TEST(SolvingSearcher, APlayedProofWinsByTheRules) {
    // Positions a few plies before the end of random games: where the brute force finds a
    // forced win within 3 plies, the solver must prove it and play a move after which the
    // brute force still finds the win.
    int proven = 0, with_losing_moves = 0;
    for (const Position& pos : testing::late_positions(23, 60)) {
        if (!and_or::forced_win_within(pos, true, 3)) continue;
        // Without quiescence, depth 1 sees only wins in one move: the move is the proof's.
        search::SearchConfig config = full_with_solver(200'000);
        config.qsearch = 0;
        Solving solving(SearchGame{}, config);
        const auto r = solving.search(pos, depth(1));
        ASSERT_TRUE(r.proven_win) << pos.to_text();
        EXPECT_GT(r.solver_nodes, 0u);
        EXPECT_EQ(r.depth, 0);  // no αβ iteration ran
        EXPECT_TRUE(search::is_decisive(r.score) && r.score > 0);
        EXPECT_TRUE(still_wins(pos, r.best_move)) << pos.to_text();
        ++proven;
        // The check can fail: some move here lets the win go.
        const MoveList moves = legal_moves(pos);
        if (std::any_of(moves.begin(), moves.end(), [&](Move m) { return !still_wins(pos, m); })) ++with_losing_moves;
    }
    EXPECT_GT(proven, 5);
    EXPECT_GT(with_losing_moves, 0);
}

TEST(SolvingSearcher, WithoutAProvenWinTheSearchDecides) {
    // Unproven (the start, too few nodes) or proven lost / drawn: the αβ search runs as it
    // would alone, same move and same nodes, and the solver's nodes are reported beside.
    std::vector<Position> positions = {Position::start()};
    for (const Position& pos : testing::late_positions(25, 30))
        if (and_or::forced_win_within(pos, false, 2)) positions.push_back(pos);  // lost positions
    ASSERT_GT(positions.size(), 2u);
    for (const Position& pos : positions) {
        search::ParallelSearcher<SearchGame> plain(SearchGame{}, full_with_solver(0));
        Solving solving(SearchGame{}, full_with_solver(20'000));
        const auto a = plain.search(pos, depth(3));
        const auto b = solving.search(pos, depth(3));
        EXPECT_FALSE(b.proven_win) << pos.to_text();
        EXPECT_GT(b.solver_nodes, 0u);
        EXPECT_EQ(a.best_move, b.best_move) << pos.to_text();
        EXPECT_EQ(a.stats.nodes, b.stats.nodes) << pos.to_text();
    }
}

TEST(SolvingSearcher, DeterministicAtFixedDepthAndFreshAfterNewGame) {
    const auto positions = testing::late_positions(27, 10);
    Solving reused(SearchGame{}, full_with_solver(5'000));
    for (const Position& pos : positions) (void)reused.search(pos, depth(3));  // fills the solved table
    reused.new_game();
    for (const Position& pos : positions) {
        Solving one(SearchGame{}, full_with_solver(5'000));
        Solving two(SearchGame{}, full_with_solver(5'000));
        const auto a = one.search(pos, depth(3));
        const auto b = two.search(pos, depth(3));
        EXPECT_EQ(a.best_move, b.best_move);
        EXPECT_EQ(a.solver_nodes, b.solver_nodes);
        EXPECT_EQ(a.stats.nodes, b.stats.nodes);
        EXPECT_EQ(a.proven_win, b.proven_win);
        // After new_game a searcher gives what a fresh one gives (tables cleared).
        const auto c = reused.search(pos, depth(3));
        EXPECT_EQ(a.best_move, c.best_move);
        EXPECT_EQ(a.solver_nodes, c.solver_nodes);
        EXPECT_EQ(a.stats.nodes, c.stats.nodes);
        reused.new_game();
    }
}

TEST(SolvingSearcher, TheScoreGateRunsTheSolverOnlyAfterAScoreAtLeastItsOwn) {
    // solver_score=S: the solver runs only when this game's previous search scored at least S
    // (the first search of a game never), else the search is the plain one, node for node.
    int checked = 0;
    for (const Position& pos : testing::late_positions(23, 60)) {
        if (!and_or::forced_win_within(pos, true, 3)) continue;  // provable: the solver's run shows
        search::SearchConfig config = full_with_solver(200'000);
        config.qsearch = 0;
        search::SearchConfig without = config;
        without.solver_nodes = 0;
        search::ParallelSearcher<SearchGame> plain(SearchGame{}, without);
        const auto alone = plain.search(pos, depth(2));
        const search::Score first_score = alone.score;
        for (const int gate : {-search::WinScore, first_score, first_score + 1, search::WinScore}) {
            config.solver_score = gate;
            Solving solving(SearchGame{}, config);
            for (int game = 0; game < 2; ++game) {  // a new game forgets the score
                const auto first = solving.search(pos, depth(2));
                EXPECT_EQ(first.solver_nodes, 0u) << pos.to_text();
                EXPECT_EQ(first.best_move, alone.best_move);
                EXPECT_EQ(first.score, alone.score);
                EXPECT_EQ(first.stats.nodes, alone.stats.nodes);
                const auto second = solving.search(pos, depth(2));
                if (first_score >= gate) {
                    EXPECT_GT(second.solver_nodes, 0u) << "gate " << gate << ' ' << pos.to_text();
                    EXPECT_TRUE(second.proven_win) << pos.to_text();
                    // A proven win counts as a score above the gate: the solver runs again.
                    const auto third = solving.search(pos, depth(2));
                    EXPECT_GT(third.solver_nodes, 0u) << "gate " << gate << ' ' << pos.to_text();
                    EXPECT_TRUE(third.proven_win) << pos.to_text();
                } else {
                    EXPECT_EQ(second.solver_nodes, 0u) << "gate " << gate << ' ' << pos.to_text();
                    EXPECT_FALSE(second.proven_win);
                }
                solving.new_game();
            }
        }
        if (++checked == 6) break;
    }
    EXPECT_EQ(checked, 6);
}

TEST(SolvingSearcher, AProvenWinPassesTheGateTheSearchsWinDid) {
    // Where the mover connects at once, αβ scores the win in one ply (WinScore - 1), the solver
    // then proves it and reports its distance, one ply; the gate must still let the next
    // search's solver run (the gate compares the best score there is for a proven win, not the
    // one reported: a longer win, or one too far to measure, reports less than this gate).
    int checked = 0;
    for (const Position& pos : testing::late_positions(29, 200)) {
        if (!and_or::forced_win_within(pos, true, 1)) continue;
        search::SearchConfig config = full_with_solver(200'000);
        config.solver_score = search::win_in(1);
        Solving solving(SearchGame{}, config);
        const auto first = solving.search(pos, depth(2));
        ASSERT_EQ(first.score, search::win_in(1)) << pos.to_text();
        const auto second = solving.search(pos, depth(2));
        ASSERT_TRUE(second.proven_win) << pos.to_text();
        EXPECT_EQ(second.score, search::win_in(1)) << pos.to_text();
        const auto third = solving.search(pos, depth(2));
        EXPECT_GT(third.solver_nodes, 0u) << pos.to_text();
        EXPECT_TRUE(third.proven_win) << pos.to_text();
        if (++checked == 3) break;
    }
    EXPECT_EQ(checked, 3);
}

TEST(SolvingSearcher, ASearchStoppedBeforeItsFirstIterationLeavesTheGateAsItWas) {
    // Stopped at once (one node), the search has no score; the 0 it reports must not open a
    // gate at or below 0, nor change the score the last real search left.
    const Position pos = testing::late_positions(23, 1).front();
    search::SearchConfig config = full_with_solver(200'000);
    config.solver_score = -search::WinScore;  // any real score opens it
    Solving solving(SearchGame{}, config);
    search::SearchLimits one_node;
    one_node.nodes = 1;
    const auto stopped = solving.search(pos, one_node);
    ASSERT_EQ(stopped.depth, 0);
    EXPECT_EQ(solving.search(pos, depth(1)).solver_nodes, 0u) << "a stopped search opened the gate";
    // ... while a real score does open it (else the check above would hold with no gate at all).
    EXPECT_GT(solving.search(pos, depth(1)).solver_nodes, 0u) << "a real score left the gate shut";

    config.solver_score = 0;
    Solving gated(SearchGame{}, config);
    search::SearchConfig without = config;
    without.solver_nodes = 0;
    without.solver_score.reset();
    // A position whose depth-1 score is below 0 for the mover: a stopped search must not lift
    // it. A position scoring 0 or more shows that the same gate does open.
    bool below = false, opened = false;
    for (const Position& p : testing::late_positions(31, 100)) {
        search::ParallelSearcher<SearchGame> plain(SearchGame{}, without);
        const bool scores_below = plain.search(p, depth(1)).score < 0;
        gated.new_game();
        if (scores_below && !below) {
            below = true;
            EXPECT_LT(gated.search(p, depth(1)).score, 0);
            EXPECT_EQ(gated.search(p, one_node).depth, 0);
            EXPECT_EQ(gated.search(p, depth(1)).solver_nodes, 0u) << p.to_text();
        } else if (!scores_below && !opened) {
            opened = true;
            EXPECT_GE(gated.search(p, depth(1)).score, 0);
            EXPECT_GT(gated.search(p, depth(1)).solver_nodes, 0u) << p.to_text();
        }
        if (below && opened) return;
    }
    FAIL() << "no position scoring below 0 (" << below << ") or none at 0 or above (" << opened << ")";
}

// A timer with a plan of `target` ms that records what the search tells it and stops it
// after depth 4.
class RecordingTimer final : public search::SearchTimer {
public:
    explicit RecordingTimer(double target) : target_(target) {}
    bool stop_after_iteration(const search::IterationReport& it) override {
        iteration_elapsed.push_back(it.elapsed_ms);
        return it.depth >= 4;
    }
    bool must_stop(double elapsed_ms) const override {
        if (first_check < 0) first_check = elapsed_ms;
        return false;
    }
    double target_ms() const override { return target_; }

    mutable double first_check = -1;
    std::vector<double> iteration_elapsed;

private:
    double target_;
};

TEST(SolvingSearcher, TheSolverTakesAShareOfThePlannedTimeAndTheSearchCountsIt) {
    // The start position is not provable: with a node budget far beyond 10 ms, the solver
    // stops at its share of the plan (a fifth of 50 ms), and the search's timer sees that time
    // as already spent.
    RecordingTimer timer(50);
    search::SearchLimits limits;
    limits.timer = &timer;
    Solving solving(SearchGame{}, full_with_solver(10'000'000));
    const auto r = solving.search(Position::start(), limits);
    EXPECT_FALSE(r.proven_win);
    EXPECT_GT(r.solver_nodes, 0u);
    EXPECT_LT(r.solver_nodes, 10'000'000u);
    const double share = Solving::SolverShare * timer.target_ms();
    ASSERT_GE(timer.first_check, 0);
    EXPECT_GE(timer.first_check, share);
    ASSERT_FALSE(timer.iteration_elapsed.empty());
    EXPECT_GE(timer.iteration_elapsed.front(), share);
    EXPECT_EQ(r.depth, 4);
    EXPECT_GE(r.stats.time_ms, share);
}

TEST(SolvingSearcher, SolverLimitsFollowThePlanAndTheSearchsLimits) {
    const double share = Solving::SolverShare;
    std::atomic<bool> stop{false};
    search::SearchLimits limits;
    limits.stop = &stop;
    limits.game_plies_left = 7;
    // No time at all: nodes only, the search's stop flag and game length passed on.
    auto s = Solving::solver_limits(limits, 50'000);
    EXPECT_EQ(s.nodes, 50'000u);
    EXPECT_EQ(s.time_ms, 0);
    EXPECT_EQ(s.stop, &stop);
    EXPECT_EQ(s.game_plies_left, 7);
    // A node limit of the search's own caps the solver's.
    limits.nodes = 300;
    EXPECT_EQ(Solving::solver_limits(limits, 50'000).nodes, 300u);
    limits.nodes = 0;
    // Hard time only (fixed time a move): a share of it.
    limits.hard_time_ms = 1000;
    EXPECT_DOUBLE_EQ(Solving::solver_limits(limits, 50'000).time_ms, share * 1000);
    // Soft and hard: a share of the soft time.
    limits.soft_time_ms = 600;
    EXPECT_DOUBLE_EQ(Solving::solver_limits(limits, 50'000).time_ms, share * 600);
    // A timer with a plan: a share of the plan, never past the hard time.
    RecordingTimer timer(400);
    limits.timer = &timer;
    EXPECT_DOUBLE_EQ(Solving::solver_limits(limits, 50'000).time_ms, share * 400);
    limits.hard_time_ms = 50;
    EXPECT_DOUBLE_EQ(Solving::solver_limits(limits, 50'000).time_ms, 50);
    // A timer without a plan of its own: the soft time.
    RecordingTimer no_plan(0);
    limits.timer = &no_plan;
    limits.hard_time_ms = 0;
    EXPECT_DOUBLE_EQ(Solving::solver_limits(limits, 50'000).time_ms, share * 600);
}

// The solver proves a win without its distance, and a proven win once reported the least
// decided one, a "win in MaxPly plies" ("score mate 64" over UCI), whatever the distance. Now
// the true one: exactly the fewest plies within which the brute force (and_or_oracle.hpp,
// written from the rules alone) finds a forced win, with a line of as many legal moves that
// ends in that win.
TEST(SolvingSearcher, AProvenWinSaysItsTrueDistanceWithALineThatReachesIt) {
    std::set<int> distances;
    for (const Position& pos : testing::late_positions(23, 60)) {
        int shortest = 0;
        for (int n = 1; n <= 4 && shortest == 0; ++n)
            if (and_or::forced_win_within(pos, true, n)) shortest = n;
        if (shortest == 0) continue;
        search::SearchConfig config = full_with_solver(200'000);
        config.qsearch = 0;
        Solving solving(SearchGame{}, config);
        const auto r = solving.search(pos, depth(1));
        if (shortest == 4 && !r.proven_win) continue;  // wins within 3 plies are proven (above)
        ASSERT_TRUE(r.proven_win) << pos.to_text();
        EXPECT_EQ(r.score, search::win_in(shortest)) << pos.to_text();
        ASSERT_EQ(r.pv.size(), static_cast<std::size_t>(shortest)) << pos.to_text();
        EXPECT_EQ(r.pv.front(), r.best_move);
        Position line = pos;
        for (const Move m : r.pv) {
            ASSERT_EQ(SearchGame{}.status(line), search::Status::Ongoing) << "a move after the end: " << pos.to_text();
            ASSERT_TRUE(is_legal(line, m)) << pos.to_text();
            line.make(m);
        }
        // Won for the side that moved at the root: to move at the end after an even line.
        EXPECT_EQ(SearchGame{}.status(line), shortest % 2 == 0 ? search::Status::Win : search::Status::Loss) << pos.to_text();
        distances.insert(shortest);
    }
    EXPECT_GE(distances.size(), 2u) << "wins of one distance only: the distance is barely tested";
}

// A win the solver proves but too far for the distance search's budget (the solver's own)
// keeps no distance: ProvenWinScore, a plain score above every evaluation ("cp 29871" over
// UCI), never an invented one; the proving move is played. And the score gate takes a proven
// win as the best score there is, whatever is reported: after one, the next search's solver
// runs under a gate above the score reported. (Positions from a scan of late_positions: about
// one in 200 is proven within 2,000 nodes but too far to measure with them.)
TEST(SolvingSearcher, AWinTooFarToMeasureIsWonWithoutADistance) {
    // A win in one ply opens a gate at that score (the gate is the engine's last score,
    // whatever the position searched next).
    const auto quick = testing::late_positions(29, 200);
    const auto opener = std::ranges::find_if(quick, [](const Position& p) { return and_or::forced_win_within(p, true, 1); });
    ASSERT_NE(opener, quick.end());
    for (const char* text : {"5w2/2w5/5b2/b3ww2/8/8/6w1/ww4w1 b", "8/5w2/8/4w3/4b3/5bwb/4b3/2b5 w"}) {
        const Position pos = parse_position(text);
        EXPECT_FALSE(and_or::forced_win_within(pos, true, 3)) << text << ": a win the budget measures";
        search::SearchConfig config = full_with_solver(2'000);
        config.solver_score = search::win_in(1);
        Solving solving(SearchGame{}, config);
        ASSERT_EQ(solving.search(*opener, depth(2)).score, search::win_in(1));
        const auto r = solving.search(pos, depth(1));
        ASSERT_TRUE(r.proven_win) << text;
        EXPECT_EQ(r.score, search::ProvenWinScore) << text;
        EXPECT_GT(r.score, search::EvalLimit - 1);  // above every evaluation
        EXPECT_EQ(r.pv, std::vector<Move>{r.best_move});
        EXPECT_TRUE(is_legal(pos, r.best_move));
        const auto next = solving.search(pos, depth(1));
        EXPECT_GT(next.solver_nodes, 0u) << "the gate closed after a win without a distance";
        EXPECT_TRUE(next.proven_win);
    }
}

}  // namespace
}  // namespace loa
