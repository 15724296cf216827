// Lazy SMP: one thread is the plain searcher bit for bit; more threads give legal moves,
// the right decided scores, stop on time, and count every thread's nodes. Run under TSan too.
#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>
#include <thread>

#include "loa/searchers.hpp"
#include "loa/engine/frontends.hpp"
#include "loa/search_game.hpp"
#include "support/test_positions.hpp"

namespace loa {
namespace {

std::vector<Position> sample_positions() {
    std::vector<Position> out;
    for (std::uint64_t seed = 1; out.size() < 6; ++seed) {
        const Game g = testing::random_game(seed, 10 + static_cast<int>(seed * 5 % 30));
        if (!g.over()) out.push_back(g.position());
    }
    return out;
}

search::SearchConfig with_threads(int threads) {
    auto c = variant::parse_variant("full");
    c.threads = threads;
    return c;
}

bool legal(const Position& pos, Move m) {
    for (const Move l : legal_moves(pos))
        if (l == m) return true;
    return false;
}

TEST(LazySmp, OneThreadIsThePlainSearcherBitForBit) {
    for (const Position& pos : sample_positions()) {
        search::Searcher<SearchGame> plain(SearchGame{}, with_threads(1));
        search::ParallelSearcher<SearchGame> parallel(SearchGame{}, with_threads(1));
        search::SearchLimits limits;
        limits.depth = 5;
        const auto a = plain.search(pos, limits);
        const auto b = parallel.search(pos, limits);
        EXPECT_EQ(a.stats.nodes, b.stats.nodes);
        EXPECT_EQ(a.best_move, b.best_move);
        EXPECT_EQ(a.score, b.score);
        EXPECT_EQ(a.pv, b.pv);
    }
}

TEST(LazySmp, MoreThreadsPlayLegalMovesAndCountTheirNodes) {
    for (const int threads : {2, 3}) {
        search::ParallelSearcher<SearchGame> parallel(SearchGame{}, with_threads(threads));
        EXPECT_EQ(parallel.threads(), threads);
        for (const Position& pos : sample_positions()) {
            search::SearchLimits limits;
            limits.depth = 5;
            std::uint64_t main_nodes = 0;
            const auto r = parallel.search(pos, limits, {}, [&](const search::Iteration<Move>& it) { main_nodes = it.nodes; });
            EXPECT_TRUE(legal(pos, r.best_move)) << pos.to_text();
            EXPECT_EQ(r.depth, 5);
            EXPECT_GT(r.stats.nodes, main_nodes);  // the helpers searched too
        }
        parallel.new_game();
    }
}

TEST(LazySmp, DecidedScoresAgreeWithOneThread) {
    int decided = 0;
    for (std::uint64_t seed = 1; seed < 400 && decided < 8; ++seed) {
        const Game g = testing::random_game(seed, 300);
        if (!g.over() || g.moves().size() < 4) continue;
        Game before(g.start_position());
        for (std::size_t i = 0; i + 3 < g.moves().size(); ++i) before.play(g.moves()[i]);
        search::SearchLimits limits;
        limits.depth = 4;
        search::Searcher<SearchGame> one(SearchGame{}, with_threads(1));
        const auto expected = one.search(before.position(), limits);
        if (!search::is_decisive(expected.score)) continue;
        ++decided;
        search::ParallelSearcher<SearchGame> two(SearchGame{}, with_threads(2));
        const auto r = two.search(before.position(), limits);
        // The distance may differ (a helper's deeper table entry can graft a longer or shorter
        // line), the verdict may not.
        EXPECT_TRUE(search::is_decisive(r.score)) << before.position().to_text();
        EXPECT_EQ(r.score > 0, expected.score > 0) << before.position().to_text();
    }
    EXPECT_GE(decided, 4);
}

TEST(LazySmp, StopsOnTimeWithEveryThread) {
    search::ParallelSearcher<SearchGame> parallel(SearchGame{}, with_threads(2));
    search::SearchLimits limits;
    limits.hard_time_ms = 100;
    limits.soft_time_ms = 50;
    const search::Stopwatch clock;
    const auto r = parallel.search(Position::start(), limits);
    EXPECT_LT(clock.elapsed_ms(), 1000.0);  // helpers joined promptly (a generous bound: sanitizers are slow)
    EXPECT_TRUE(legal(Position::start(), r.best_move));
}

// The LOA game, except that its evaluation fails on any thread but the one that made it: the
// helpers of a parallel search, never its main thread.
class FailsOffItsThread : public SearchGame {
public:
    int evaluate(const Position& pos) const {
        if (std::this_thread::get_id() != owner_) throw std::runtime_error("helper failed");
        return SearchGame::evaluate(pos);
    }

private:
    std::thread::id owner_ = std::this_thread::get_id();
};

TEST(LazySmp, AHelpersErrorReachesTheCaller) {
    // Escaping its thread, the helper's exception would end the program; swallowed, the search
    // would pretend two threads ran. Either way the test fails.
    search::ParallelSearcher<FailsOffItsThread> parallel(FailsOffItsThread{}, with_threads(2));
    search::SearchLimits limits;
    limits.depth = 4;
    EXPECT_THROW(parallel.search(Position::start(), limits), std::runtime_error);
    // One thread never leaves the caller's: the same game searches normally.
    search::ParallelSearcher<FailsOffItsThread> one(FailsOffItsThread{}, with_threads(1));
    EXPECT_TRUE(legal(Position::start(), one.search(Position::start(), limits).best_move));
}

TEST(LazySmp, UciThreadsOption) {
    std::istringstream in("uci\nsetoption name Threads value 2\nposition startpos\ngo depth 4\n");
    std::ostringstream out;
    engine::Output output(out);
    EXPECT_EQ(engine::run_uci(in, output), 0);
    const std::string text = out.str();
    EXPECT_NE(text.find("option name Threads type spin default 1 min 1 max 64"), std::string::npos) << text;
    EXPECT_NE(text.find("info depth 4 "), std::string::npos) << text;
    EXPECT_NE(text.find("bestmove "), std::string::npos) << text;

    std::istringstream bad("setoption name Threads value 0\n");
    std::ostringstream bad_out;
    engine::Output bad_output(bad_out);
    engine::run_uci(bad, bad_output);
    EXPECT_NE(bad_out.str().find("threads"), std::string::npos) << bad_out.str();
}

}  // namespace
}  // namespace loa
