// MultiPV (common/search/multipv.hpp): with an exact search each line scores the k-th best of
// the root moves' values by the plain negamax oracle (tests/support/rules_minimax.hpp, written from
// the rules alone), and its first move has that value; with every enhancement on, the lines
// are distinct legal moves ordered by score, the budget holds, and one thread repeats.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <set>

#include "loa/searchers.hpp"
#include "common/search/multipv.hpp"
#include "loa/movegen.hpp"
#include "loa/search_game.hpp"
#include "support/rules_minimax.hpp"
#include "support/sanitized_build.hpp"
#include "support/test_positions.hpp"

namespace loa {
namespace {

using Lines = std::vector<search::Iteration<Move>>;


// The lines of the last depth of a MultiPV search of `pos`.
Lines last_lines(search::Searcher<SearchGame>& searcher, const Position& pos, int depth, int lines,
                 search::SearchResult<Move>* result = nullptr) {
    search::SearchLimits limits;
    limits.depth = depth;
    Lines last;
    int depths = 0;
    const auto r = search::search_multipv(searcher, pos, limits, {}, lines, [&](const Lines& found) {
        ++depths;
        EXPECT_EQ(found.front().depth, depths) << "depths are reported in order, each whole";
        last = found;
    });
    EXPECT_EQ(depths, depth);
    if (result) *result = r;
    return last;
}

// An exact search (no table, no pruning): line k scores the k-th best move value, and its
// first move is worth that; asked for more lines than moves, every move gets its line.
TEST(MultiPv, AnExactSearchGivesTheKthBestMoveValue) {
    struct Case {
        const char* spec;
        int depth;
        int qsearch_level;
    };
    const Case cases[] = {{"ab,qsearch=off", 1, 0},
                          {"ab,qsearch=off", 2, 0},
                          {"pvs+asp+killers+rhh+ref+caps,aspiration=10,qsearch=off", 3, 0},
                          {"pvs,qsearch=captures,qsearch_plies=2", 2, 1}};
    const SearchGame game;
    int lines_checked = 0;
    for (const Position& pos : testing::middle_game_positions(testing::sanitized_build ? 2 : 5, 700, 5, 30)) {
        const int moves = static_cast<int>(legal_moves(pos).size());
        for (const Case& c : cases) {
            if (testing::sanitized_build && c.depth == 3) continue;
            oracle::Options options;
            options.qsearch_level = c.qsearch_level;
            options.qsearch_plies = 2;
            const auto values = oracle::move_values(pos, c.depth, [&game](const Position& p) { return game.evaluate(p); }, options);
            std::vector<int> sorted;
            for (const auto& [m, v] : values) sorted.push_back(v);
            std::ranges::sort(sorted, std::greater<>());
            for (const int n : {1, 4, moves + 2}) {
                search::Searcher<SearchGame> searcher(game, variant::parse_variant(c.spec));
                search::SearchResult<Move> result;
                const Lines lines = last_lines(searcher, pos, c.depth, n, &result);
                ASSERT_EQ(static_cast<int>(lines.size()), std::min(n, moves)) << c.spec << " " << pos.to_text();
                std::set<std::uint16_t> first_moves;
                for (int k = 0; k < static_cast<int>(lines.size()); ++k) {
                    const auto& line = lines[static_cast<std::size_t>(k)];
                    SCOPED_TRACE(::testing::Message() << c.spec << " depth " << c.depth << " line " << k + 1 << " of " << n
                                                      << " " << pos.to_text());
                    EXPECT_EQ(line.multipv, k + 1);
                    EXPECT_EQ(line.score, sorted[static_cast<std::size_t>(k)]);
                    ASSERT_FALSE(line.pv.empty());
                    const auto it = std::ranges::find_if(values, [&](const auto& mv) { return mv.first == line.pv.front(); });
                    ASSERT_NE(it, values.end()) << "not a legal move";
                    EXPECT_EQ(it->second, line.score) << "the line's move is not worth its score";
                    first_moves.insert(line.pv.front().raw());
                    ++lines_checked;
                }
                EXPECT_EQ(first_moves.size(), lines.size()) << "two lines start with the same move";
                EXPECT_EQ(result.best_move, lines.front().pv.front());
                EXPECT_EQ(result.score, sorted.front());
            }
        }
    }
    std::printf("%d lines checked against the oracle\n", lines_checked);
    EXPECT_GT(lines_checked, 100);
}

// The engine's default search (table, LMR, null move, futility) on one and two threads:
// distinct legal first moves, scores in order, the best move line 1's; one thread repeats.
TEST(MultiPv, TheFullSearchGivesDistinctOrderedLinesAndRepeats) {
    for (const char* spec : {"full", "full,threads=2"}) {
        for (const Position& pos : testing::middle_game_positions(testing::sanitized_build ? 1 : 4, 900, 5, 30)) {
            const int depth = testing::sanitized_build ? 3 : 5;
            auto run = [&] {
                variant::VariantSearcher<SearchGame> searcher(SearchGame{}, variant::parse_variant(spec));
                search::SearchLimits limits;
                limits.depth = depth;
                Lines last;
                const auto r = searcher.search_lines(pos, limits, {}, 3, [&](const Lines& found) { last = found; });
                return std::pair(r, last);
            };
            const auto [result, lines] = run();
            SCOPED_TRACE(::testing::Message() << spec << " " << pos.to_text());
            ASSERT_EQ(lines.size(), 3u);
            std::set<std::uint16_t> first_moves;
            for (std::size_t k = 0; k < lines.size(); ++k) {
                EXPECT_EQ(lines[k].depth, depth);
                EXPECT_EQ(lines[k].multipv, static_cast<int>(k) + 1);
                ASSERT_FALSE(lines[k].pv.empty());
                EXPECT_TRUE(is_legal(pos, lines[k].pv.front()));
                if (k > 0) {
                    EXPECT_LE(lines[k].score, lines[k - 1].score);
                }
                first_moves.insert(lines[k].pv.front().raw());
            }
            EXPECT_EQ(first_moves.size(), 3u);
            EXPECT_EQ(result.best_move, lines.front().pv.front());
            EXPECT_EQ(result.depth, depth);
            if (std::string(spec) == "full") {
                const auto [again, lines_again] = run();
                for (std::size_t k = 0; k < lines.size(); ++k) {
                    EXPECT_EQ(lines_again[k].pv, lines[k].pv);
                    EXPECT_EQ(lines_again[k].score, lines[k].score);
                }
                EXPECT_EQ(again.stats.nodes, result.stats.nodes);
            }
        }
    }
}

// A node budget is the whole search's, not a line's; stopped inside the first depth, the
// search still names a legal move; a root searched with moves left out leaves no entry of
// its own in the table.
TEST(MultiPv, LimitsHoldForTheWholeSearch) {
    const Position pos = testing::middle_game_positions(1, 1234, 5, 30).front();
    for (const std::uint64_t budget : {10u, 3000u, 50000u}) {
        search::Searcher<SearchGame> searcher(SearchGame{}, variant::parse_variant("full"));
        search::SearchLimits limits;
        limits.nodes = budget;
        int reported = 0;
        std::vector<std::size_t> sizes;
        const auto r = search::search_multipv(searcher, pos, limits, {}, 4, [&](const Lines& lines) {
            ++reported;
            sizes.push_back(lines.size());
        });
        EXPECT_LE(r.stats.nodes, budget);
        EXPECT_TRUE(is_legal(pos, r.best_move)) << budget;
        // Every depth whole but the one the budget ended, which shows the lines it completed.
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            if (i + 1 < sizes.size()) {
                EXPECT_EQ(sizes[i], 4u) << budget;
            } else {
                EXPECT_GE(sizes[i], 1u) << budget;
            }
        }
        if (budget == 50000) {
            EXPECT_GT(reported, 2);
        }
    }
    // A root searched without its best move stores nothing for itself: the table's entry for
    // the root would claim a value the position does not have.
    search::Searcher<SearchGame> searcher(SearchGame{}, variant::parse_variant("full"));
    search::SearchLimits limits;
    limits.depth = 3;
    const Move best = searcher.search(pos, limits).best_move;
    ASSERT_TRUE(searcher.tt()->probe(pos.key(), 0).found) << "a plain search stores its root";
    searcher.new_game();
    const std::vector<std::uint16_t> without_best{best.raw()};
    limits.excluded_root_moves = without_best;
    EXPECT_NE(searcher.search(pos, limits).best_move, best);
    EXPECT_FALSE(searcher.tt()->probe(pos.key(), 0).found) << "the search without the best move stored the root";
    // Every move left out: nothing to search, no move.
    std::vector<std::uint16_t> all;
    for (const Move m : legal_moves(pos)) all.push_back(m.raw());
    limits.excluded_root_moves = all;
    EXPECT_EQ(searcher.search(pos, limits).best_move, Move::none());
    // MCTS takes no exclusions: refused, not ignored.
    variant::VariantSearcher<SearchGame> mcts(SearchGame{}, variant::parse_variant("mcts"));
    limits.depth = 0;
    limits.nodes = 100;
    EXPECT_THROW(mcts.search(pos, limits), std::invalid_argument);
}

// A scripted searcher, to see the driver from outside: four root moves worth 10, 8, 6, 4
// except that, with the best one left out, the second is rated 30 (as a table or a pruned
// search can); each search costs 100 nodes, and less than that stops it inside depth 1.
struct ScriptedSearcher {
    using Position = loa::Position;
    using Move = loa::Move;
    std::vector<Move> moves = [] {
        const auto all = legal_moves(Position::start());
        return std::vector<Move>(all.begin(), all.begin() + 4);
    }();
    std::vector<std::vector<std::uint16_t>> asked;  // the moves left out, search by search
    std::vector<bool> same;                         // each search's same_search

    search::SearchResult<Move> search(const Position&, const search::SearchLimits& limits, std::span<const std::uint64_t>) {
        asked.emplace_back(limits.excluded_root_moves.begin(), limits.excluded_root_moves.end());
        same.push_back(limits.same_search);
        search::SearchResult<Move> r;
        const auto left_out = [&](Move m) { return std::ranges::find(asked.back(), m.raw()) != asked.back().end(); };
        std::size_t i = 0;
        while (i < moves.size() && left_out(moves[i])) ++i;
        if (i == moves.size()) return r;  // every move left out
        r.best_move = moves[i];
        r.pv = {moves[i]};
        r.stats.nodes = limits.nodes && limits.nodes < 100 ? limits.nodes : 100;
        if (r.stats.nodes < 100) return r;  // stopped inside depth 1: a move, no depth
        r.depth = limits.depth;
        r.score = i == 1 && left_out(moves[0]) ? 30 : 10 - 2 * static_cast<int>(i);
        r.iterations.push_back({r.depth, r.depth, r.score, r.stats.nodes, 1.0, 0, r.pv, r.stats});
        return r;
    }
};

TEST(MultiPv, TheDriverExcludesTheLinesFoundOrdersByScoreAndPlaysLineOneWhenStopped) {
    ScriptedSearcher s;
    search::SearchLimits limits;
    limits.depth = 2;
    std::vector<Lines> depths;
    auto r = search::search_multipv(s, Position::start(), limits, {}, 3, [&](const Lines& l) { depths.push_back(l); });
    ASSERT_EQ(depths.size(), 2u);
    ASSERT_EQ(s.asked.size(), 6u);
    // Line k leaves out the first moves of lines 1..k-1 of its depth, and only those.
    EXPECT_EQ(s.asked[0], std::vector<std::uint16_t>{});
    EXPECT_EQ(s.asked[1], std::vector<std::uint16_t>{s.moves[0].raw()});
    EXPECT_EQ(s.asked[2], (std::vector<std::uint16_t>{s.moves[0].raw(), s.moves[1].raw()}));
    EXPECT_EQ(s.asked[3], std::vector<std::uint16_t>{});
    // Only the very first search starts a new search.
    EXPECT_EQ(s.same, (std::vector<bool>{false, true, true, true, true, true}));
    // Ordered by score: the move rated 30 first, and played.
    for (const Lines& lines : depths) {
        ASSERT_EQ(lines.size(), 3u);
        EXPECT_EQ(lines[0].pv.front(), s.moves[1]);
        EXPECT_EQ(lines[0].score, 30);
        EXPECT_EQ(lines[1].pv.front(), s.moves[0]);
        EXPECT_EQ(lines[2].pv.front(), s.moves[2]);
        for (int k = 0; k < 3; ++k) EXPECT_EQ(lines[static_cast<std::size_t>(k)].multipv, k + 1);
    }
    EXPECT_EQ(r.best_move, s.moves[1]);
    EXPECT_EQ(r.score, 30);
    EXPECT_EQ(r.depth, 2);
    EXPECT_EQ(r.stats.nodes, 600u);

    // A budget that ends the search inside line 2 of depth 1: line 1 is reported alone and
    // played; inside line 1: the interrupted line's move, nothing reported.
    for (const std::uint64_t budget : {150u, 60u}) {
        ScriptedSearcher t;
        search::SearchLimits b;
        b.nodes = budget;
        depths.clear();
        r = search::search_multipv(t, Position::start(), b, {}, 3, [&](const Lines& l) { depths.push_back(l); });
        EXPECT_EQ(r.best_move, t.moves[0]) << budget;
        EXPECT_EQ(r.stats.nodes, budget);
        if (budget == 150) {
            ASSERT_EQ(depths.size(), 1u);
            ASSERT_EQ(depths[0].size(), 1u);
            EXPECT_EQ(depths[0][0].pv.front(), t.moves[0]);
        } else {
            EXPECT_TRUE(depths.empty());
        }
    }
}

// Whatever the budget, the engine's search with several lines names a legal move.
TEST(MultiPv, EveryBudgetGivesALegalMove) {
    const Position pos = testing::middle_game_positions(1, 4321, 5, 30).front();
    search::Searcher<SearchGame> searcher(SearchGame{}, variant::parse_variant("full"));
    for (std::uint64_t budget = 1; budget <= 800; budget += testing::sanitized_build ? 37 : 7) {
        search::SearchLimits limits;
        limits.nodes = budget;
        const auto r = search::search_multipv(searcher, pos, limits, {}, 3, {});
        ASSERT_TRUE(is_legal(pos, r.best_move)) << "budget " << budget;
        EXPECT_LE(r.stats.nodes, budget);
    }
}

// A limit already reached when the search is asked for (a GUI's `go infinite` and `stop` at once,
// a clock already past) once gave no move at all while the game went on ("bestmove none"): the
// first line always starts, as a one-line search does, and stops within its first nodes with a
// legal move; the searcher asked for caller's exclusions (searchmoves) keeps to the others.
TEST(MultiPv, ALimitReachedBeforeTheStartStillGivesALegalMove) {
    const std::atomic<bool> stopped{true};
    search::SearchLimits stop;
    stop.stop = &stopped;
    search::SearchLimits past;
    past.hard_time_ms = 1e-9;
    for (const Position& pos : {Position::start(), testing::middle_game_positions(1, 4321, 5, 30).front()}) {
        for (const search::SearchLimits& limits : {stop, past}) {
            search::Searcher<SearchGame> searcher(SearchGame{}, variant::parse_variant("full"));
            EXPECT_TRUE(is_legal(pos, search::search_multipv(searcher, pos, limits, {}, 3, {}).best_move));
            search::ParallelSearcher<SearchGame> threads(SearchGame{}, [] {
                auto c = variant::parse_variant("full");
                c.threads = 2;
                return c;
            }());
            EXPECT_TRUE(is_legal(pos, search::search_multipv(threads, pos, limits, {}, 3, {}).best_move));
        }
    }
    // Moves the caller leaves out hold for every line: all but two moves out, two lines at most.
    const Position pos = Position::start();
    const auto moves = legal_moves(pos);
    std::vector<std::uint16_t> out;
    for (std::size_t i = 2; i < moves.size(); ++i) out.push_back(moves[i].raw());
    search::SearchLimits limits;
    limits.depth = 3;
    limits.excluded_root_moves = out;
    search::Searcher<SearchGame> searcher(SearchGame{}, variant::parse_variant("full"));
    std::size_t most = 0;
    const auto r = search::search_multipv(searcher, pos, limits, {}, 3, [&](const Lines& lines) {
        most = std::max(most, lines.size());
        for (const auto& it : lines) EXPECT_TRUE(it.pv.front() == moves[0] || it.pv.front() == moves[1]);
    });
    EXPECT_EQ(most, 2u);
    EXPECT_TRUE(r.best_move == moves[0] || r.best_move == moves[1]);
}

}  // namespace
}  // namespace loa
