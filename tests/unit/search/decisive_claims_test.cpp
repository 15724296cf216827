// Every win or loss the search reports is true under the rules, in every mode: across the
// searches of one game (the table kept), under a ply limit, with a repetition available from
// the game's history, inside one search where a position recurs by other paths, and with
// several threads; and its principal variation plays the claimed result out.
//
// Games are played on small random graphs (graph_game.hpp), full of cycles and transpositions,
// and each claim is checked by an oracle written from the rules (graph_oracle.hpp).
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "common/variant/config.hpp"
#include "common/search/lazy_smp.hpp"
#include "common/search/report.hpp"
#include "support/graph_game.hpp"
#include "support/graph_oracle.hpp"

namespace {

using graph_game::Graph;
using graph_game::GraphGame;
using graph_game::GraphMove;
using graph_game::GraphPosition;
using graph_game::repetition_graph;

// Plays `pv` from the current position of `game` under the rules: true when every move is
// legal and the game ends with its last move, won by `winner`.
::testing::AssertionResult pv_plays_out(const Graph& g, std::vector<int> game, const std::vector<GraphMove>& pv, int winner,
                                        int limit_left) {
    for (std::size_t i = 0; i < pv.size(); ++i) {
        const auto& edges = g.edges[static_cast<std::size_t>(game.back())];
        if (pv[i].v < 1 || pv[i].v > edges.size()) return ::testing::AssertionFailure() << "move " << i + 1 << " is not legal";
        const int next = edges[pv[i].v - 1u];
        const bool last = i + 1 == pv.size();
        if (graph_oracle::decided(g, next)) {
            if (!last) return ::testing::AssertionFailure() << "the game is decided at move " << i + 1 << " of " << pv.size();
            if (graph_oracle::winner_at(g, next) != winner) return ::testing::AssertionFailure() << "the game ends otherwise";
            return ::testing::AssertionSuccess();
        }
        if (std::count(game.begin(), game.end(), next) >= 2)
            return ::testing::AssertionFailure() << "move " << i + 1 << " draws by the third occurrence";
        if (limit_left > 0 && static_cast<int>(i) + 1 >= limit_left)
            return ::testing::AssertionFailure() << "move " << i + 1 << " reaches the ply limit";
        game.push_back(next);
    }
    return ::testing::AssertionFailure() << "the game goes on after the last move";
}

struct Claims {
    int checked = 0;
    int long_ones = 0;  // of 3 plies or more: where the losing side has a move to draw with
    int false_claims = 0;
    int short_pvs = 0;
};

// Plays one game on `g` with random moves (seeded), searching every position with one searcher
// kept for the whole game, and checks every decisive score reported at every iteration.
void check_game(const Graph& g, const std::string& spec, std::uint64_t seed, int ply_limit, int depth, Claims& claims) {
    search::ParallelSearcher<GraphGame> searcher(GraphGame{&g}, variant::parse_variant(spec));
    std::vector<int> game{0};
    std::uint64_t state = seed;
    for (int ply = 0; ply < 30; ++ply) {
        const int node = game.back();
        const int limit_left = ply_limit > 0 ? ply_limit - ply : 0;
        // Now and then the position is set up without its game (a UCI 'position fen'), so
        // that the table holds results of searches that knew fewer positions to repeat.
        state = testing_tree::mix(state);
        const bool set_up = state % 3 == 0;
        const std::vector<int> known = set_up ? std::vector<int>{node} : game;
        std::vector<std::uint64_t> history;
        for (std::size_t i = 0; i + 1 < known.size(); ++i) history.push_back(GraphGame{&g}.key(GraphPosition{known[i], {}}));
        search::SearchLimits limits;
        limits.depth = depth;
        limits.game_plies_left = limit_left;
        const auto result = searcher.search(GraphPosition{node, {}}, limits, history);
        for (const auto& it : result.iterations) {
            if (!search::is_decisive(it.score)) continue;
            ++claims.checked;
            const int plies = std::abs(search::plies_to_end(it.score));
            claims.long_ones += plies >= 3;
            const int winner = it.score > 0 ? node % 2 : 1 - node % 2;
            const std::string context = fmt::format("{} seed {} limit {} game {} depth {} score {}", spec, seed, ply_limit,
                                                    fmt::join(known, "-"), it.depth, search::format_score(it.score));
            std::vector<int> line = known;
            if (!graph_oracle::forces_win(g, line, winner, plies, limit_left)) {
                ++claims.false_claims;
                ADD_FAILURE() << "the rules give no such forced result: " << context;
            } else if (static_cast<int>(it.pv.size()) != plies || !pv_plays_out(g, known, it.pv, winner, limit_left)) {
                ++claims.short_pvs;
                ADD_FAILURE() << "the PV (" << it.pv.size() << " plies) does not play out the claim: " << context << " "
                              << pv_plays_out(g, known, it.pv, winner, limit_left).message();
            }
        }
        // A random move of the game, to build histories with repetitions.
        const auto& edges = g.edges[static_cast<std::size_t>(node)];
        state = testing_tree::mix(state);
        const int next = edges[state % edges.size()];
        if (graph_oracle::decided(g, next) || std::count(game.begin(), game.end(), next) >= 2) break;
        game.push_back(next);
        if (ply_limit > 0 && ply + 1 >= ply_limit) break;
    }
}

// The modes the issue named: the table kept over a game, a ply limit or none, other
// replacement schemes, the PV-node rule, and lazy SMP. (1 MB tables: a searcher per game.)
TEST(DecisiveClaims, EveryReportedWinIsForcedUnderTheRulesAndItsPvPlaysItOut) {
    Claims claims;
    int games = 0;
    for (const char* spec : {"full,tt=1", "pvs+tt,tt=1", "tt,tt=1", "full,tt_replace=always,tt=1", "full,tt_replace=depth,tt=1",
                             "full,tt_reuse=exact,tt=1", "pvs+tt+killers+hh,threads=2,tt=1"}) {
        for (std::uint64_t seed = 1; seed <= 150; ++seed) {
            // Few decided nodes and deeper searches: claims of several plies, not only wins in one.
            const Graph g = Graph::random(seed, 8 + 2 * static_cast<int>(seed % 6), 6);
            const int ply_limit = seed % 3 == 0 ? 0 : 8 + static_cast<int>(seed % 9);
            check_game(g, spec, seed, ply_limit, 4 + static_cast<int>(seed % 6), claims);
            ++games;
        }
    }
    EXPECT_EQ(claims.false_claims, 0);
    EXPECT_EQ(claims.short_pvs, 0);
    // The test means something only if many claims were made, and long ones among them.
    EXPECT_GE(claims.checked, 500) << games << " games";
    EXPECT_GE(claims.long_ones, 200) << games << " games";
}

}  // namespace

TEST(DecisiveClaims, AWinProvenBeforeARepetitionBecameAvailableIsNotTakenFromTheTable) {
    const Graph g = repetition_graph();
    for (const char* spec : {"full", "pvs+tt", "full,tt_replace=always", "full,threads=2"}) {
        search::ParallelSearcher<GraphGame> searcher(GraphGame{&g}, variant::parse_variant(spec));
        search::SearchLimits first;
        first.depth = 9;
        const auto at_s = searcher.search(GraphPosition{15, {}}, first);
        ASSERT_FALSE(search::is_decisive(at_s.score)) << spec;  // White at S holds the draw at K
        const GraphGame game{&g};
        std::vector<std::uint64_t> history;
        for (const int node : {6, 7, 6, 7}) history.push_back(game.key(GraphPosition{node, {}}));
        std::vector<int> known{6, 7, 6, 7, 0};
        ASSERT_FALSE(graph_oracle::forces_win(g, known, 0, 20, 0));  // the rules: a draw
        search::SearchLimits second;
        second.depth = 8;
        const auto at_r = searcher.search(GraphPosition{0, {}}, second, history);
        for (const auto& it : at_r.iterations)
            EXPECT_FALSE(search::is_decisive(it.score)) << spec << " depth " << it.depth << " " << search::format_score(it.score);
    }
}

namespace {

// One search, one position at two plies (even nodes: Black to move, odd: White):
//   R=0 (B): M1=1 (first) or M2=3      M1 (W): X=2 (first) or K=4 (K <-> 5: a drawing cycle)
//   M2 (W): P=6      P (B): Q=7      Q (W): X=2      X (B): Y=9      Y (W): Z=8      Z (B): T=11
// T is a White loss. With a ply limit of 6, X wins for Black in three plies when reached at ply
// 2 (under M1, where White avoids it) but not at ply 4 (under M2): the game is drawn at ply 6,
// before T at ply 7. The entry X gets under M1 must not decide X under M2.
Graph ply_limit_graph() {
    return Graph::drawn(12, {{0, {1, 3}}, {1, {2, 4}}, {4, {5}}, {5, {4}}, {3, {6}}, {6, {7}}, {7, {2}}, {2, {9}}, {9, {8}}, {8, {11}}},
                        {{11, search::Status::Loss}});
}

}  // namespace

TEST(DecisiveClaims, APositionReachedNearerThePlyLimitIsNotDecidedByItsEntryFromFartherAway) {
    const Graph g = ply_limit_graph();
    std::vector<int> root{0};
    ASSERT_FALSE(graph_oracle::forces_win(g, root, 0, 20, 6));  // the rules: a draw
    for (const char* spec : {"full", "pvs+tt", "tt", "full,tt_replace=always", "full,threads=2"}) {
        search::ParallelSearcher<GraphGame> searcher(GraphGame{&g}, variant::parse_variant(spec));
        search::SearchLimits limits;
        limits.depth = 8;
        limits.game_plies_left = 6;
        const auto result = searcher.search(GraphPosition{0, {}}, limits);
        for (const auto& it : result.iterations)
            EXPECT_FALSE(search::is_decisive(it.score)) << spec << " depth " << it.depth << " " << search::format_score(it.score);
    }
}

// The same root, first set up alone, then reached by a game that saw Z2 twice: the root's own
// context (the game's positions seen twice) changes what holds below it.
TEST(DecisiveClaims, TheGameBeforeTheRootIsPartOfTheContext) {
    const Graph g = repetition_graph();
    for (const char* spec : {"full", "pvs+tt", "full,tt_replace=always"}) {
        search::ParallelSearcher<GraphGame> searcher(GraphGame{&g}, variant::parse_variant(spec));
        search::SearchLimits limits;
        limits.depth = 9;
        const auto alone = searcher.search(GraphPosition{0, {}}, limits);
        ASSERT_TRUE(search::is_decisive(alone.score)) << spec << ": the premise, R won when set up alone";
        const GraphGame game{&g};
        std::vector<std::uint64_t> history;
        for (const int node : {6, 7, 6, 7}) history.push_back(game.key(GraphPosition{node, {}}));
        const auto after_the_game = searcher.search(GraphPosition{0, {}}, limits, history);
        for (const auto& it : after_the_game.iterations)
            EXPECT_FALSE(search::is_decisive(it.score)) << spec << " depth " << it.depth << " " << search::format_score(it.score);
    }
}
