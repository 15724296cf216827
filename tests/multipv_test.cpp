// MultiPV (common/search/multipv.hpp): with an exact search each line scores the k-th best of
// the root moves' values by the plain negamax oracle (tests/rules_minimax.hpp, written from
// the rules alone), and its first move has that value; with every enhancement on, the lines
// are distinct legal moves ordered by score, the budget holds, and one thread repeats.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <set>

#include "common/search/lazy_smp.hpp"
#include "common/search/multipv.hpp"
#include "common/search/search.hpp"
#include "common/variant_searcher.hpp"
#include "loa/movegen.hpp"
#include "loa/search_game.hpp"
#include "rules_minimax.hpp"
#include "sanitized_build.hpp"
#include "test_positions.hpp"

namespace loa {
namespace {

using Lines = std::vector<search::Iteration<Move>>;

std::vector<Position> middle_positions(std::size_t count, std::uint64_t seed) {
    std::vector<Position> out;
    for (std::uint64_t g = 0; out.size() < count; ++g) {
        const Game game = testing::random_game(seed + g, 6 + static_cast<int>((g * 5) % 30));
        if (!game.over()) out.push_back(game.position());
    }
    return out;
}

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
    for (const Position& pos : middle_positions(testing::sanitized_build ? 2 : 5, 700)) {
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
                search::Searcher<SearchGame> searcher(game, search::parse_search_config(c.spec));
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
        for (const Position& pos : middle_positions(testing::sanitized_build ? 1 : 4, 900)) {
            const int depth = testing::sanitized_build ? 3 : 5;
            auto run = [&] {
                common::VariantSearcher<SearchGame> searcher(SearchGame{}, search::parse_search_config(spec));
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
// its own in the table (the next plain search is the same as a fresh searcher's).
TEST(MultiPv, LimitsHoldForTheWholeSearch) {
    const Position pos = middle_positions(1, 1234).front();
    for (const std::uint64_t budget : {10u, 3000u, 50000u}) {
        search::Searcher<SearchGame> searcher(SearchGame{}, search::parse_search_config("full"));
        search::SearchLimits limits;
        limits.nodes = budget;
        int reported = 0;
        const auto r = search::search_multipv(searcher, pos, limits, {}, 4, [&](const Lines& lines) {
            ++reported;
            EXPECT_EQ(lines.size(), 4u);
        });
        EXPECT_LE(r.stats.nodes, budget);
        EXPECT_TRUE(is_legal(pos, r.best_move)) << budget;
        if (budget == 50000) {
            EXPECT_GT(reported, 2);
        }
    }
    // Every move left out: nothing to search, no move.
    std::vector<std::uint16_t> all;
    for (const Move m : legal_moves(pos)) all.push_back(m.raw());
    search::Searcher<SearchGame> searcher(SearchGame{}, search::parse_search_config("full"));
    search::SearchLimits limits;
    limits.depth = 3;
    limits.excluded_root_moves = all;
    EXPECT_EQ(searcher.search(pos, limits).best_move, Move::none());
    // MCTS takes no exclusions: refused, not ignored.
    common::VariantSearcher<SearchGame> mcts(SearchGame{}, search::parse_search_config("mcts"));
    limits.depth = 0;
    limits.nodes = 100;
    EXPECT_THROW(mcts.search(pos, limits), std::invalid_argument);
}

}  // namespace
}  // namespace loa
