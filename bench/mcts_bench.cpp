// Monte Carlo tree search: play-outs per second of each play-out policy, from the start and
// from a middle game (a fixed budget of play-outs per search, the tree built as it goes), on
// one thread and on two sharing the tree (the argument; wall-clock time, so that two threads'
// rate is the search's, not one thread's).
#include <benchmark/benchmark.h>

#include "loa/searchers.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"

namespace {

void run_playouts(benchmark::State& state, mcts::Playout playout, const loa::Position& pos) {
    mcts::MctsConfig config;
    config.playout = playout;
    config.tree_mb = 16;  // 2,000 play-outs need a few MB: a smaller cap is faster to reserve
    // A searched play-out move costs a depth-2 search: fewer of them per search.
    const std::uint64_t Playouts = playout == mcts::Playout::AlphaBeta ? 200 : 2000;
    for (auto _ : state) {
        mcts::Mcts<loa::SearchGame> search(loa::SearchGame{}, config, static_cast<int>(state.range(0)));
        search::SearchLimits limits;
        limits.nodes = Playouts;
        benchmark::DoNotOptimize(search.search(pos, limits));
    }
    state.counters["playouts/s"] = benchmark::Counter(static_cast<double>(Playouts * state.iterations()), benchmark::Counter::kIsRate);
}

const loa::Position& middle_game_position() {
    static const loa::Position pos = loa::parse_position("1b1bbb2/w6w/2b3bw/w1w4w/wb2b3/2bw3w/w3ww2/3b1bb1 w");
    return pos;
}

void BM_MctsRandomPlayoutsStart(benchmark::State& s) { run_playouts(s, mcts::Playout::Random, loa::Position::start()); }
void BM_MctsEvalCutoffPlayoutsStart(benchmark::State& s) { run_playouts(s, mcts::Playout::EvalCutoff, loa::Position::start()); }
void BM_MctsRandomPlayoutsMiddle(benchmark::State& s) { run_playouts(s, mcts::Playout::Random, middle_game_position()); }
void BM_MctsEvalCutoffPlayoutsMiddle(benchmark::State& s) { run_playouts(s, mcts::Playout::EvalCutoff, middle_game_position()); }
void BM_MctsAlphaBetaPlayoutsStart(benchmark::State& s) { run_playouts(s, mcts::Playout::AlphaBeta, loa::Position::start()); }
void BM_MctsAlphaBetaPlayoutsMiddle(benchmark::State& s) { run_playouts(s, mcts::Playout::AlphaBeta, middle_game_position()); }

}  // namespace

BENCHMARK(BM_MctsRandomPlayoutsStart)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MctsEvalCutoffPlayoutsStart)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MctsRandomPlayoutsMiddle)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MctsEvalCutoffPlayoutsMiddle)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MctsAlphaBetaPlayoutsStart)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MctsAlphaBetaPlayoutsMiddle)->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
