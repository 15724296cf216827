// Evaluation cost (ns per call) and search speed with each evaluation.
#include <benchmark/benchmark.h>

#include <functional>
#include <random>
#include <vector>

#include "common/search/search.hpp"
#include "loa/bench_positions.hpp"
#include "loa/evaluation.hpp"
#include "loa/search_game.hpp"
#include "loa/simple_eval.hpp"

namespace {

using namespace loa;

std::vector<Position> middle_game() {
    std::vector<Position> out;
    for (const NamedPosition& p : BenchPositions) out.push_back(Position::from_text(p.text));
    return out;
}

void evaluation_speed(benchmark::State& state, const std::function<int(const Position&)>& evaluate) {
    const auto positions = middle_game();
    std::size_t i = 0;
    for (auto _ : state) benchmark::DoNotOptimize(evaluate(positions[i++ % positions.size()]));
    state.SetItemsProcessed(state.iterations());
}

void BM_EvaluateFull(benchmark::State& state) {
    const Evaluator eval;
    evaluation_speed(state, [&](const Position& p) { return eval.evaluate(p); });
}
void BM_EvaluateConcentrationOnly(benchmark::State& state) {
    const Evaluator eval(EvalWeights::concentration_only());
    evaluation_speed(state, [&](const Position& p) { return eval.evaluate(p); });
}
void BM_EvaluateSimple(benchmark::State& state) { evaluation_speed(state, simple_evaluate); }
// The tuned weights shipped in data/weights/ (more terms weighted, tapered).
void BM_EvaluateTexel1(benchmark::State& state) {
    const Evaluator eval(load_weights_file(LOA_DATA_DIR "/weights/texel-1.json"));
    evaluation_speed(state, [&](const Position& p) { return eval.evaluate(p); });
}
BENCHMARK(BM_EvaluateFull);
BENCHMARK(BM_EvaluateTexel1);
BENCHMARK(BM_EvaluateConcentrationOnly);
BENCHMARK(BM_EvaluateSimple);

// Search speed: preset `full` to depth 5 over the bench positions; counter = nodes/second.
void search_speed(benchmark::State& state, const SearchGame& game) {
    const auto positions = middle_game();
    std::uint64_t nodes = 0;
    for (auto _ : state) {
        for (const Position& pos : positions) {
            search::Searcher<SearchGame> searcher(game, search::parse_search_config("full,tt=4"));
            search::SearchLimits limits;
            limits.depth = 5;
            nodes += searcher.search(pos, limits).stats.nodes;
        }
    }
    state.counters["nodes/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
void BM_SearchFullEval(benchmark::State& state) { search_speed(state, SearchGame{}); }
void BM_SearchSimpleEval(benchmark::State& state) { search_speed(state, SearchGame::with_simple_evaluation()); }
void BM_SearchMaterialEval(benchmark::State& state) { search_speed(state, SearchGame::from_spec({}, "material")); }
BENCHMARK(BM_SearchFullEval)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SearchMaterialEval)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SearchSimpleEval)->Unit(benchmark::kMillisecond);

}  // namespace
