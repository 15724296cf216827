// The principal variation a search reports is as long as the search that produced it (issue
// 82): a PV node answered by an exact table entry once ended its line there, so that a second
// search of a position printed a one-move PV. Each line is checked by replaying it on the
// board: every move legal, and as many moves as the depth unless the game ends (or a position
// repeats, a draw) within them.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "loa/searchers.hpp"
#include "common/search/multipv.hpp"
#include "common/search/pv_store.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/search_game.hpp"
#include "support/sanitized_build.hpp"
#include "support/test_positions.hpp"
#include "support/search_limits.hpp"

namespace loa {
namespace {

std::string line_text(const std::vector<Move>& pv) {
    std::string out;
    for (const Move m : pv) out += move_to_compact(m) + " ";
    return out;
}

// `pv` from `root`: every move legal in turn, and at least `depth` moves unless the line ends
// the game or repeats a position of its own before.
void expect_whole_line(const Position& root, const std::vector<Move>& pv, int depth, const std::string& what) {
    Position pos = root;
    std::vector<std::uint64_t> keys{pos.key()};
    bool ended = false;
    for (std::size_t i = 0; i < pv.size(); ++i) {
        ASSERT_FALSE(ended) << what << ": a move after the end of the game: " << line_text(pv);
        const MoveList legal = legal_moves(pos);
        ASSERT_NE(std::find(legal.begin(), legal.end(), pv[i]), legal.end())
            << what << ": move " << i + 1 << " is illegal: " << line_text(pv) << "\n" << root.to_text();
        pos.make(pv[i]);
        ended = SearchGame{}.status(pos) != search::Status::Ongoing || std::ranges::count(keys, pos.key()) > 0;
        keys.push_back(pos.key());
    }
    if (!ended) {
        EXPECT_GE(static_cast<int>(pv.size()), depth) << what << ": " << line_text(pv) << "\n" << root.to_text();
    }
}

std::vector<Position> pv_positions() {
    std::vector<Position> out{Position::start()};
    for (const Position& pos : testing::middle_game_positions(testing::sanitized_build ? 1 : 4, 821)) out.push_back(pos);
    return out;
}

using loa::testing::depth;

void expect_whole_lines(const Position& pos, const search::SearchResult<Move>& r, const std::string& what) {
    for (const auto& it : r.iterations) expect_whole_line(pos, it.pv, it.depth, what + " depth " + std::to_string(it.depth));
    expect_whole_line(pos, r.pv, r.depth, what + " result");
}

TEST(Pv, ASecondSearchOfAPositionKeepsItsWholeLine) {
    const int d = testing::sanitized_build ? 5 : 8;
    for (const Position& pos : pv_positions()) {
        search::Searcher<SearchGame> searcher(SearchGame{}, variant::parse_variant("full"));
        const auto first = searcher.search(pos, depth(d));
        expect_whole_lines(pos, first, "first search");
        // The table now answers the root's children at once: their lines come from its records.
        const auto second = searcher.search(pos, depth(d));
        expect_whole_lines(pos, second, "second search");
        EXPECT_GE(second.pv.size(), static_cast<std::size_t>(d)) << line_text(second.pv);
    }
}

// Without the records (another result took their slots since), the table's moves complete the
// line, each checked on the board.
TEST(Pv, ALineIsCompletedFromTheTableWhenItsRecordIsGone) {
    const int d = testing::sanitized_build ? 5 : 8;
    const search::SearchConfig config = variant::parse_variant("full");
    for (const Position& pos : pv_positions()) {
        // A table of the caller's: it starts each search and can forget the records.
        auto tt = std::make_shared<search::TranspositionTable>(static_cast<std::size_t>(config.tt_mb), config.tt_replace);
        search::Searcher<SearchGame> searcher(SearchGame{}, config, tt);
        tt->new_search();
        (void)searcher.search(pos, depth(d));
        tt->lines().clear();
        tt->new_search();
        const auto second = searcher.search(pos, depth(d));
        expect_whole_lines(pos, second, "second search without records");
        EXPECT_GE(second.pv.size(), static_cast<std::size_t>(d)) << line_text(second.pv);
    }
}

// Completing a line changes nothing the search does next: two searchers of the same
// positions, one whose records are dropped before every search (its lines come from the
// table's moves), count the same nodes and play the same moves, the refutation table (which
// reads the PV) included. The bench signature, unchanged since before the records, says the
// same of the whole tree.
TEST(Pv, CompletedLinesLeaveTheTreeAsItWas) {
    const int d = testing::sanitized_build ? 4 : 7;
    for (const char* variant : {"full", "full,refutation=on"}) {
        const search::SearchConfig config = variant::parse_variant(variant);
        auto kept = std::make_shared<search::TranspositionTable>(static_cast<std::size_t>(config.tt_mb), config.tt_replace);
        auto dropped = std::make_shared<search::TranspositionTable>(static_cast<std::size_t>(config.tt_mb), config.tt_replace);
        search::Searcher<SearchGame> a(SearchGame{}, config, kept), b(SearchGame{}, config, dropped);
        for (const Position& pos : pv_positions()) {
            for (int round = 0; round < 2; ++round) {
                kept->new_search();
                dropped->new_search();
                dropped->lines().clear();
                const auto ra = a.search(pos, depth(d));
                const auto rb = b.search(pos, depth(d));
                EXPECT_EQ(ra.stats.nodes, rb.stats.nodes) << variant << " round " << round;
                EXPECT_EQ(ra.best_move, rb.best_move) << variant << " round " << round;
                EXPECT_EQ(ra.score, rb.score) << variant << " round " << round;
            }
        }
    }
}

TEST(Pv, MultiPvLinesAreAsLongAsTheirSearch) {
    const int d = testing::sanitized_build ? 4 : 7;
    for (const Position& pos : pv_positions()) {
        search::Searcher<SearchGame> searcher(SearchGame{}, variant::parse_variant("full"));
        for (int run = 1; run <= 2; ++run) {
            int reported = 0;
            (void)search::search_multipv(searcher, pos, depth(d), {}, 3, [&](const std::vector<search::Iteration<Move>>& lines) {
                for (const auto& it : lines) {
                    expect_whole_line(pos, it.pv, it.depth,
                                      "run " + std::to_string(run) + " multipv " + std::to_string(it.multipv) + " depth " +
                                          std::to_string(it.depth));
                    ++reported;
                }
            });
            EXPECT_EQ(reported, 3 * d);
        }
    }
}

// Lazy SMP: the threads share the table and its records, so a line cut off by an entry another
// thread stored is completed from that thread's record.
TEST(Pv, LazySmpLinesAreAsLongAsTheirSearch) {
    const int d = testing::sanitized_build ? 4 : 7;
    search::SearchConfig config = variant::parse_variant("full");
    config.threads = 2;
    for (const Position& pos : pv_positions()) {
        search::ParallelSearcher<SearchGame> searcher(SearchGame{}, config);
        expect_whole_lines(pos, searcher.search(pos, depth(d)), "two threads, first search");
        expect_whole_lines(pos, searcher.search(pos, depth(d)), "two threads, second search");
    }
}

}  // namespace
}  // namespace loa
