// Monte Carlo tree search (common/mcts): MCTS-Solver's proven values against the brute-force
// AND/OR oracle (tests/support/and_or_oracle.hpp, written from the rules alone), never a proof the
// oracle refutes; repeatable at a fixed play-out count and seed; legal moves only.
#include <gtest/gtest.h>

#include <cstdio>

#include <algorithm>

#include "support/and_or_oracle.hpp"
#include "loa/searchers.hpp"
#include "loa/game.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/realization.hpp"
#include "loa/search_game.hpp"
#include "support/graph_game.hpp"
#include "support/graph_oracle.hpp"
#include "support/sanitized_build.hpp"
#include "support/test_positions.hpp"
#include "support/mcts_proofs.hpp"

namespace loa {
namespace {

using Mcts = mcts::Mcts<SearchGame>;
using loa::testing::expected_proof;
using loa::testing::name;
using loa::testing::small_positions;

// Under a ply limit the game is finite: a long enough search proves every root, and each proof
// is the oracle's value, for every play-out policy and under both rules for a move that
// connects both sides (a draw; the variant: the mover wins); a proven win is reached by its PV.
TEST(Mcts, SolverProvesTheOraclesValuesUnderAPlyLimit) {
    int proven = 0, compared = 0, kinds[3] = {0, 0, 0}, rule_matters = 0;
    auto positions = small_positions();
    const std::size_t small = positions.size();  // the sanitizer builds take a third of these, all of the rest
    // Sparse endgames whose value within two plies the rule for a double connection changes:
    // random positions rarely have one.
    for (const Position& p : testing::sparse_positions(41, 2000, 2, 4))
        for (int limit = 1; limit <= 2; ++limit)
            if (and_or::solve_with_ply_limit(p, limit, true) != and_or::solve_with_ply_limit(p, limit)) {
                positions.push_back(p);
                break;
            }
    for (const bool mover_wins : {false, true}) {
        const RuleSet rules = parse_rules(mover_wins ? "simultaneous=mover" : "olympiad");
        for (int limit = 1; limit <= 3; ++limit) {
            for (std::size_t i = 0; i < positions.size(); i += testing::sanitized_build && i < small ? 3 : 1) {
                const Position& pos = positions[i];
                if (limit == 3 && i % 3 != 0) continue;  // the brute force grows fast
                const and_or::Value value = and_or::solve_with_ply_limit(pos, limit, mover_wins);
                if (mover_wins) rule_matters += value != and_or::solve_with_ply_limit(pos, limit);
                const mcts::Proof expected = expected_proof(value);
                for (const auto playout : {mcts::Playout::Random, mcts::Playout::EvalCutoff, mcts::Playout::AlphaBeta}) {
                    mcts::MctsConfig config;
                    config.playout = playout;
                    Mcts search(SearchGame{rules}, config);
                    search::SearchLimits limits;
                    limits.nodes = 200'000;
                    limits.game_plies_left = limit;
                    const auto r = search.search(pos, limits);
                    ++compared;
                    if (search.root_proof() == mcts::Proof::Unknown) continue;
                    ++proven;
                    ++kinds[static_cast<int>(expected) - 1];
                    EXPECT_EQ(search.root_proof(), expected)
                        << name(search.root_proof()) << " against the oracle's " << name(expected) << ", limit " << limit
                        << (mover_wins ? " (simultaneous=mover) " : " ") << pos.to_text();
                    ASSERT_TRUE(is_legal(pos, r.best_move));
                    if (search.root_proof() == mcts::Proof::Win) {
                        // The PV is a line the rules end in the mover's favour, in the proof's plies.
                        Game game(pos, rules);
                        for (const Move m : r.pv) {
                            ASSERT_FALSE(game.over()) << pos.to_text();
                            game.play(m);
                        }
                        const Outcome win = pos.side_to_move() == Colour::Black ? Outcome::BlackWins : Outcome::WhiteWins;
                        EXPECT_EQ(game.result().outcome, win) << pos.to_text();
                        EXPECT_EQ(static_cast<int>(r.pv.size()), search.root_proof_plies()) << pos.to_text();
                        EXPECT_EQ(r.score, search::win_in(search.root_proof_plies()));
                    }
                }
            }
        }
    }
    std::printf("%d of %d searches proved their root (wins %d, losses %d, draws %d); the rule for a double connection "
                "changes %d roots' values\n",
                proven, compared, kinds[0], kinds[1], kinds[2], rule_matters);
    EXPECT_EQ(proven, compared) << "a finite game within the budget: every root is proven";
    EXPECT_GT(kinds[0], 5);
    EXPECT_GT(kinds[1], 5);
    EXPECT_GT(kinds[2], 5);
    EXPECT_GT(rule_matters, 2) << "the set must hold roots whose value the variant rule changes";
}

// Without a ply limit the solver may prove a root or not; whatever it proves, a win or a loss
// within N plies, the oracle confirms with N as the limit.
TEST(Mcts, EveryProofWithoutAPlyLimitIsConfirmedByTheOracle) {
    int checked = 0;
    for (const Position& pos : testing::sparse_positions(23, testing::sanitized_build ? 12 : 40, 3, 6)) {
        Mcts search(SearchGame{}, mcts::MctsConfig{});
        search::SearchLimits limits;
        limits.nodes = 5'000;
        search.search(pos, limits);
        const mcts::Proof p = search.root_proof();
        if (p != mcts::Proof::Win && p != mcts::Proof::Loss) continue;
        const int plies = search.root_proof_plies();
        if (plies > 5) continue;  // the oracle's brute force
        ++checked;
        EXPECT_EQ(expected_proof(and_or::solve_with_ply_limit(pos, plies)), p) << plies << " plies " << pos.to_text();
    }
    std::printf("%d proofs checked\n", checked);
    EXPECT_GT(checked, 3);
}

TEST(Mcts, TheSameSeedAndBudgetGiveTheSameSearch) {
    const Game game = testing::random_game(5, 12);
    for (const auto playout : {mcts::Playout::Random, mcts::Playout::EvalCutoff, mcts::Playout::AlphaBeta}) {
        mcts::MctsConfig config;
        config.playout = playout;
        search::SearchLimits limits;
        limits.nodes = playout == mcts::Playout::AlphaBeta ? 300 : 1'500;
        Mcts a(SearchGame{}, config), b(SearchGame{}, config);
        const auto ra = a.search(game.position(), limits), rb = b.search(game.position(), limits);
        EXPECT_EQ(ra.pv, rb.pv);
        EXPECT_EQ(ra.score, rb.score);
        EXPECT_EQ(a.tree_nodes(), b.tree_nodes());
        // The same object again: nothing of the first search is left behind.
        const auto again = a.search(game.position(), limits);
        EXPECT_EQ(again.pv, ra.pv);
        EXPECT_EQ(again.score, ra.score);
        EXPECT_EQ(ra.stats.nodes, limits.nodes);
        config.seed = 2;
        Mcts c(SearchGame{}, config);
        const auto rc = c.search(game.position(), limits);
        EXPECT_TRUE(rc.score != ra.score || c.tree_nodes() != a.tree_nodes()) << "the seed chooses the play-outs";
    }
}

// The statistics point the right way without the solver: where the side to move wins in one, the
// search plays a winning move and scores the position for the side to move (a sign error in
// the back-propagation or the score would read it as lost).
TEST(Mcts, WithoutTheSolverTheMeansFavourTheSideThatWins) {
    int positions = 0;
    for (std::uint64_t seed = 1; positions < 8 && seed < 600; ++seed) {
        const Game game = testing::random_game(seed, 40);
        if (game.over()) continue;
        const Position& pos = game.position();
        std::vector<Move> winning;
        for (const Move m : legal_moves(pos)) {
            Game after = game;
            after.play(m);
            const Outcome mover_wins = pos.side_to_move() == Colour::Black ? Outcome::BlackWins : Outcome::WhiteWins;
            if (after.result().outcome == mover_wins) winning.push_back(m);
        }
        if (winning.empty()) continue;
        ++positions;
        for (const auto playout : {mcts::Playout::Random, mcts::Playout::EvalCutoff, mcts::Playout::AlphaBeta}) {
            mcts::MctsConfig config;
            config.solver = false;
            config.playout = playout;
            Mcts search(SearchGame{}, config);
            search::SearchLimits limits;
            limits.nodes = playout == mcts::Playout::AlphaBeta ? 600 : 3'000;  // a searched play-out costs 50 random ones
            const auto r = search.search(pos, limits, search_history(game));
            EXPECT_NE(std::find(winning.begin(), winning.end(), r.best_move), winning.end()) << pos.to_text();
            EXPECT_GT(r.score, 100) << pos.to_text();
            EXPECT_EQ(search.root_proof(), mcts::Proof::Unknown);
        }
    }
    EXPECT_GE(positions, 6) << "too few positions with a win in one";
}

// Move knowledge (progressive bias, play-outs weighted by realization probabilities) changes
// what is searched first, never what is proven: the oracle's values under a ply limit; with a
// strong bias and few play-outs, the most probable move is the most visited; without the
// game's probabilities both are refused.
SearchGame game_with_probabilities() { return SearchGame::from_spec(RuleSet{}, "full", LOA_DATA_DIR "/rps/selfplay-1.json"); }

TEST(Mcts, MoveKnowledgeChangesTheOrderNotTheProofs) {
    const SearchGame game = game_with_probabilities();
    int proven = 0;
    const auto positions = small_positions();
    for (int limit = 1; limit <= 2; ++limit) {
        for (std::size_t i = 0; i < positions.size(); i += testing::sanitized_build ? 4 : 2) {
            const Position& pos = positions[i];
            mcts::MctsConfig config;
            config.playout = mcts::Playout::Weighted;
            config.bias_percent = 300;
            Mcts search(game, config);
            search::SearchLimits limits;
            limits.nodes = 200'000;
            limits.game_plies_left = limit;
            search.search(pos, limits);
            ASSERT_NE(search.root_proof(), mcts::Proof::Unknown) << pos.to_text();
            ++proven;
            EXPECT_EQ(search.root_proof(), expected_proof(and_or::solve_with_ply_limit(pos, limit))) << limit << " " << pos.to_text();
        }
    }
    EXPECT_GT(proven, 20);
    // With the bias, the first play-out goes to a move of the largest probability (and so does
    // the one-play-out search's move); without it, to the first move generated.
    const auto probabilities = game.realization_probabilities();
    auto probability = [&](const Position& pos, Move m) {
        return std::max(probabilities[static_cast<std::size_t>(realization_category(pos, m))], 1e-3);
    };
    int tried = 0, biased_first = 0, plain_first = 0;
    for (int g = 0; g < 12; ++g) {
        const Game start = testing::random_game(300 + g, 8);
        if (start.over()) continue;
        double best = 0;
        for (const Move m : legal_moves(start.position())) best = std::max(best, probability(start.position(), m));
        ++tried;
        for (const int bias : {100, 0}) {
            mcts::MctsConfig config;
            config.bias_percent = bias;
            Mcts search(game, config);
            search::SearchLimits limits;
            limits.nodes = 1;
            const auto r = search.search(start.position(), limits, search_history(start));
            const bool most_probable = std::abs(probability(start.position(), r.best_move) - best) < 1e-9;
            (bias ? biased_first : plain_first) += most_probable;
        }
    }
    EXPECT_EQ(biased_first, tried) << "the bias does not lead the search";
    EXPECT_LT(plain_first, tried) << "the test cannot tell the bias from its absence";
    for (const auto& [bias, playout] : {std::pair{100, mcts::Playout::EvalCutoff}, std::pair{0, mcts::Playout::Weighted}}) {
        mcts::MctsConfig config;
        config.bias_percent = bias;
        config.playout = playout;
        try {
            Mcts search(SearchGame{}, config);
            ADD_FAILURE() << "move knowledge without the probabilities";
        } catch (const common::InputError& e) {
            EXPECT_NE(std::string(e.what()).find("rps"), std::string::npos) << e.what();
        }
    }
}

// Whole games chosen by MCTS, with their histories, one searcher a game so that its tree is
// reused from move to move: every move legal, and the game ends by the rules.
TEST(Mcts, PlaysLegalMovesThroughWholeGames) {
    int reused = 0;
    for (int g = 0; g < (testing::sanitized_build ? 2 : 6); ++g) {
        Game game = testing::random_game(100 + g, 4);
        mcts::MctsConfig config;
        config.seed = static_cast<std::uint64_t>(g) + 1;
        config.playout = g % 3 == 0 ? mcts::Playout::Random : g % 3 == 1 ? mcts::Playout::EvalCutoff : mcts::Playout::AlphaBeta;
        config.max_playout_plies = 60;  // random play-outs of a few hundred plies, a few hundred plies a game: too slow
        Mcts search(SearchGame{}, config);
        int ply = 0;
        for (; ply < 1000 && !game.over(); ++ply) {  // random play-outs at 100 a move: a few hundred plies
            search::SearchLimits limits;
            limits.nodes = 100;
            const auto r = search.search(game.position(), limits, search_history(game));
            reused += search.reused_nodes() > 1;
            ASSERT_TRUE(is_legal(game.position(), r.best_move)) << game.position().to_text();
            game.play(r.best_move);
        }
        EXPECT_TRUE(game.over()) << ply << " plies without an end, game " << g;
    }
    EXPECT_GT(reused, 20) << "the tree of the last search was rarely reused";
}

// With tree reuse the searches of a game still repeat exactly at a fixed seed and budget: two
// searchers fed the same game choose the same moves with the same scores.
TEST(Mcts, AGameOfReusedTreesRepeats) {
    for (const auto playout : {mcts::Playout::EvalCutoff, mcts::Playout::AlphaBeta}) {
        mcts::MctsConfig config;
        config.playout = playout;
        Mcts a(SearchGame{}, config), b(SearchGame{}, config);
        Game game = testing::random_game(41, 6);
        // b has searched another game before: nothing of it may show.
        search::SearchLimits warm_up;
        warm_up.nodes = 300;
        b.search(testing::random_game(42, 9).position(), warm_up);
        int reused = 0;
        for (int ply = 0; ply < 16 && !game.over(); ++ply) {
            search::SearchLimits limits;
            limits.nodes = playout == mcts::Playout::AlphaBeta ? 100 : 800;
            const auto ra = a.search(game.position(), limits, search_history(game));
            const auto rb = b.search(game.position(), limits, search_history(game));
            ASSERT_EQ(ra.pv, rb.pv) << ply;
            EXPECT_EQ(ra.score, rb.score) << ply;
            EXPECT_EQ(a.tree_nodes(), b.tree_nodes()) << ply;
            reused += a.reused_nodes() > 1;
            game.play(ra.best_move);
        }
        EXPECT_GT(reused, 5);
    }
}

// A reused tree holds only what this game's line allows: after two plies through the old tree,
// with the history those plies make, the search starts from the old subtree, and every proof it
// then reports is the oracle's under the ply limit that is left; a history that is not the
// line's (the game was set up elsewhere) starts afresh.
TEST(Mcts, AReusedTreeProvesOnlyWhatTheLineAllows) {
    int reuses = 0, proofs = 0, cut_histories = 0;
    const auto positions = small_positions();
    for (std::size_t i = 0; i < positions.size(); i += testing::sanitized_build ? 2 : 1) {
        const Position& pos = positions[i];
        const int limit = 5;
        Mcts search(SearchGame{}, mcts::MctsConfig{});
        search::SearchLimits limits;
        limits.nodes = 3'000;
        limits.game_plies_left = limit;
        const auto first = search.search(pos, limits);
        if (first.pv.size() < 2) continue;
        Game game(pos, RuleSet{});
        game.play(first.pv[0]);
        if (game.over()) continue;
        game.play(first.pv[1]);
        if (game.over()) continue;
        // A different history first (the ply limit moved on as it should): nothing reused.
        Mcts other(SearchGame{}, mcts::MctsConfig{});
        other.search(pos, limits);
        const std::uint64_t unrelated[] = {12345};
        limits.game_plies_left = limit - 2;
        other.search(game.position(), limits, unrelated);
        EXPECT_EQ(other.reused_nodes(), 0u) << pos.to_text();
        // The game's own line: reused, also where a capture cut the history.
        limits.nodes = 1'000;
        search.search(game.position(), limits, search_history(game));
        if (search.reused_nodes() > 1) {
            ++reuses;
            cut_histories += first.pv[0].is_capture() || first.pv[1].is_capture();
        }
        if (search.root_proof() == mcts::Proof::Unknown) continue;
        ++proofs;
        EXPECT_EQ(search.root_proof(), expected_proof(and_or::solve_with_ply_limit(game.position(), limit - 2)))
            << name(search.root_proof()) << " after " << move_to_text(first.pv[0]) << " " << pos.to_text();
    }
    std::printf("%d searches reused their tree (%d after a capture), %d proved their root\n", reuses, cut_histories, proofs);
    EXPECT_GT(reuses, 20);
    EXPECT_GE(cut_histories, testing::sanitized_build ? 1 : 3);
    EXPECT_GT(proofs, 20);
}

// The clock's rules: each report (the play-outs doubling from 64, the alpha-beta core's
// iterations) goes to the timer, which is asked at every play-out whether the time planned from
// them has passed; a depth limit ends the search at the first report whose PV is that long.
TEST(Mcts, TheTimerAndTheDepthLimitEndTheSearch) {
    struct StopAfterThirdReport final : search::SearchTimer {
        int reports = 0;
        bool stop_after_iteration(const search::IterationReport&) override {
            ADD_FAILURE() << "an anytime search has no iterations";
            return true;
        }
        bool must_stop(double) const override { return false; }
        void anytime_report(const search::IterationReport& it) override {
            EXPECT_GT(it.root_moves, 1);
            EXPECT_NE(it.best_move, 0);
            ++reports;
        }
        bool anytime_stop(double) const override { return reports >= 3; }
    } timer;
    const Game game = testing::random_game(8, 10);
    Mcts search(SearchGame{}, mcts::MctsConfig{});
    search::SearchLimits limits;
    limits.timer = &timer;
    const auto r = search.search(game.position(), limits, search_history(game));
    EXPECT_EQ(timer.reports, 3);
    EXPECT_EQ(r.stats.nodes, 256u);  // reports at 64, 128 and 256 play-outs
    search::SearchLimits by_depth;
    by_depth.depth = 3;
    const auto d = search.search(game.position(), by_depth, search_history(game));
    EXPECT_GE(d.depth, 3);
    EXPECT_EQ(d.pv.size(), static_cast<std::size_t>(d.depth));
    // Without the solver a win in one takes nearly every visit and the PV stays one ply long:
    // the search ends where the PV ends in the game's end, not at the depth it cannot reach.
    const Position win_in_one = parse_position("w6w/8/8/8/8/8/8/bb1b4 b");  // d1-c2 connects Black
    mcts::MctsConfig no_solver;
    no_solver.solver = false;
    Mcts plain(SearchGame{}, no_solver);
    search::SearchLimits deep;
    deep.depth = 12;
    const auto w = plain.search(win_in_one, deep);
    EXPECT_LT(w.stats.nodes, 1u << 18) << "stopped by the cap, not by the proven end of its PV";
}

namespace graph_tests {

using graph_game::Graph;
using graph_game::GraphGame;
using graph_game::GraphPosition;
using GraphMcts = mcts::Mcts<GraphGame>;

std::vector<std::uint64_t> keys_of(const GraphGame& game, const std::vector<int>& nodes) {
    std::vector<std::uint64_t> keys;
    for (const int node : nodes) keys.push_back(game.key(GraphPosition{node, {}}));
    return keys;
}

// The game before the root is part of the rules: at R, a game that saw Z2 twice lets White draw
// by a third occurrence, so R is no win; set up alone, R is won (the oracle says both).
TEST(Mcts, TheGameBeforeTheRootDecidesWhatARepetitionDraws) {
    const Graph g = graph_game::repetition_graph();
    const GraphGame game{&g};
    std::vector<int> alone{0}, after{6, 7, 6, 7, 0};
    ASSERT_TRUE(graph_oracle::forces_win(g, alone, 0, 20, 0));
    ASSERT_FALSE(graph_oracle::forces_win(g, after, 0, 20, 0));
    search::SearchLimits limits;
    limits.nodes = 50'000;
    GraphMcts fresh(game, mcts::MctsConfig{});
    fresh.search(GraphPosition{0, {}}, limits);
    EXPECT_EQ(fresh.root_proof(), mcts::Proof::Win);
    GraphMcts with_history(game, mcts::MctsConfig{});
    with_history.search(GraphPosition{0, {}}, limits, keys_of(game, {6, 7, 6, 7}));
    EXPECT_NE(with_history.root_proof(), mcts::Proof::Win);
    // Seen once before, Z2 may be played twice more: the win stands.
    GraphMcts once(game, mcts::MctsConfig{});
    once.search(GraphPosition{0, {}}, limits, keys_of(game, {6, 7}));
    std::vector<int> after_once{6, 7, 0};
    EXPECT_EQ(once.root_proof() == mcts::Proof::Win, graph_oracle::forces_win(g, after_once, 0, 20, 0));
}

// Random graphs, with repetitions everywhere and random game prefixes: every win or loss the
// solver proves is forced under the rules (third occurrence, ply limit), in its plies, and its
// PV plays it out.
TEST(Mcts, EveryProofOnGraphsWithRepetitionsIsForcedByTheRules) {
    int claims = 0, long_claims = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {  // about 1 s under the sanitizers
        const Graph g = Graph::random(seed, 8 + 2 * static_cast<int>(seed % 6), 6);
        const GraphGame game{&g};
        // A random game from node 0 to build a history.
        std::vector<int> line{0};
        std::uint64_t state = seed;
        for (int i = 0; i < static_cast<int>(seed % 7); ++i) {
            const auto& edges = g.edges[static_cast<std::size_t>(line.back())];
            state = testing_tree::mix(state);
            const int next = edges[state % edges.size()];
            if (graph_oracle::decided(g, next) || std::count(line.begin(), line.end(), next) >= 2) break;
            line.push_back(next);
        }
        const int ply_limit = seed % 3 == 0 ? 0 : 6 + static_cast<int>(seed % 7);
        const std::vector<int> before(line.begin(), line.end() - 1);
        mcts::MctsConfig config;
        config.seed = seed;
        config.playout = seed % 2 ? mcts::Playout::Random : mcts::Playout::EvalCutoff;
        GraphMcts search(game, config);
        search::SearchLimits limits;
        limits.nodes = 20'000;
        limits.game_plies_left = ply_limit;
        const auto r = search.search(GraphPosition{line.back(), {}}, limits, keys_of(game, before));
        const mcts::Proof p = search.root_proof();
        if (p != mcts::Proof::Win && p != mcts::Proof::Loss) continue;
        const int plies = search.root_proof_plies();
        const int winner = (line.back() % 2) ^ (p == mcts::Proof::Loss ? 1 : 0);
        ++claims;
        long_claims += plies >= 3;
        std::vector<int> known = line;
        EXPECT_TRUE(graph_oracle::forces_win(g, known, winner, plies, ply_limit))
            << "seed " << seed << ": a proof the rules refute, " << plies << " plies";
        EXPECT_EQ(static_cast<int>(r.pv.size()), plies) << "seed " << seed;
    }
    std::printf("%d proofs checked, %d of 3 plies or more\n", claims, long_claims);
    EXPECT_GT(claims, 40);
    EXPECT_GT(long_claims, 3);
}

// The same on graphs after two plies through a reused tree: the line's keys join the history,
// and every proof of the reused tree is forced by the rules from there (a repetition counted
// against the old root's history, or a ply limit not moved on, would show here).
TEST(Mcts, EveryProofOfAReusedTreeOnGraphsIsForcedByTheRules) {
    int claims = 0, reuses = 0;
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        const Graph g = Graph::random(seed, 8 + 2 * static_cast<int>(seed % 6), 6);
        const GraphGame game{&g};
        std::vector<int> line{0, g.edges[0].front()};
        if (graph_oracle::decided(g, line.back())) continue;
        const int ply_limit = seed % 3 == 0 ? 0 : 8 + static_cast<int>(seed % 7);
        mcts::MctsConfig config;
        config.seed = seed;
        GraphMcts search(game, config);
        search::SearchLimits limits;
        limits.nodes = 300;  // a small tree, so that something is left to prove after the move
        limits.game_plies_left = ply_limit;
        const auto r = search.search(GraphPosition{line.back(), {}}, limits, keys_of(game, {0}));
        if (r.pv.size() < 2) continue;
        GraphPosition pos{line.back(), {}};
        for (int i = 0; i < 2; ++i) {
            game.make(pos, r.pv[static_cast<std::size_t>(i)]);
            line.push_back(pos.node);
        }
        if (graph_oracle::decided(g, line.back())) continue;
        limits.nodes = 20'000;
        limits.game_plies_left = ply_limit ? ply_limit - 2 : 0;
        const std::vector<int> before(line.begin(), line.end() - 1);
        const auto again = search.search(GraphPosition{line.back(), {}}, limits, keys_of(game, before));
        reuses += search.reused_nodes() > 1;
        const mcts::Proof p = search.root_proof();
        if (p != mcts::Proof::Win && p != mcts::Proof::Loss) continue;
        ++claims;
        const int winner = (line.back() % 2) ^ (p == mcts::Proof::Loss ? 1 : 0);
        std::vector<int> known = line;
        EXPECT_TRUE(graph_oracle::forces_win(g, known, winner, search.root_proof_plies(), limits.game_plies_left))
            << "seed " << seed << ": a reused proof the rules refute";
        EXPECT_EQ(static_cast<int>(again.pv.size()), search.root_proof_plies()) << "seed " << seed;
    }
    std::printf("%d reused trees, %d proofs checked\n", reuses, claims);
    EXPECT_GT(reuses, 40);
    EXPECT_GT(claims, 8);
}

}  // namespace graph_tests
}  // namespace
}  // namespace loa
