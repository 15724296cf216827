// Evaluation cost (ns per call) and search speed with each evaluation.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <functional>
#include <random>
#include <vector>

#include "loa/searchers.hpp"
#include "loa/bench_positions.hpp"
#include "loa/evaluation.hpp"
#include "loa/search_game.hpp"
#include "loa/simple_eval.hpp"
#include "loa/movegen.hpp"
#include "loa/nnue/accumulator.hpp"
#include "loa/nnue/kernels.hpp"
#include "loa/nnue/layers.hpp"

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

// The learned evaluation (docs/nnue.md) at the sizes of args (H, L): a random network costs
// what a trained one of its size does. From scratch (both perspectives' accumulators
// refreshed), and as the search meets it: a move made, evaluated (an incremental update of the
// accumulators) and taken back. The third argument is the kernel (nnue::kernel_sets: 0 scalar,
// 1 sse4.1, 2 avx2, 3 avx512, 4 avx512vnni; the label names it), skipped where the CPU lacks it.
// The `Connectivity` ones: the same with the 8 connectivity inputs in the hidden layer.
std::shared_ptr<const nnue::Network> bench_network(const benchmark::State& state, int extra_inputs_set = 0) {
    return std::make_shared<const nnue::Network>(nnue::random_network(
        1, static_cast<int>(state.range(0)), static_cast<int>(state.range(1)), extra_inputs_set));
}
const nnue::KernelSet* bench_kernels(benchmark::State& state) {
    const auto all = nnue::kernel_sets(false);
    const auto index = static_cast<std::size_t>(state.range(2));
    if (index >= all.size()) {
        state.SkipWithError("no such kernel in this build");
        return nullptr;
    }
    state.SetLabel(all[index]->name);
    const auto runnable = nnue::kernel_sets(true);
    if (std::find(runnable.begin(), runnable.end(), all[index]) == runnable.end()) {
        state.SkipWithError("this CPU lacks the kernel's instructions");
        return nullptr;
    }
    return all[index];
}
void net_evaluate_refresh(benchmark::State& state, int extra_inputs_set) {
    const nnue::KernelSet* kernels = bench_kernels(state);
    if (!kernels) return;
    // Positions in turn: each one off the stack, refreshed.
    nnue::AccumulatorStack stack(bench_network(state, extra_inputs_set), *kernels);
    evaluation_speed(state, [&](const Position& p) { return stack.evaluate(p); });
}
void BM_NetEvaluateRefresh(benchmark::State& state) { net_evaluate_refresh(state, 0); }
void BM_NetConnectivityEvaluateRefresh(benchmark::State& state) { net_evaluate_refresh(state, nnue::ConnectivityInputsSet); }
// Each bench position in turn is the parent for 64 iterations (its accumulators computed once);
// an iteration makes one of its moves, evaluates the child (an update from the parent's entry
// and the layers above) and takes the move back.
void net_make_evaluate_unmake(benchmark::State& state, int extra_inputs_set) {
    const nnue::KernelSet* kernels = bench_kernels(state);
    if (!kernels) return;
    nnue::AccumulatorStack stack(bench_network(state, extra_inputs_set), *kernels);
    const auto positions = middle_game();
    std::vector<std::pair<Position, MoveList>> nodes;
    for (const Position& p : positions) {
        nodes.emplace_back(p, MoveList{});
        generate_moves(p, nodes.back().second);
    }
    std::size_t i = 0;
    for (auto _ : state) {
        auto& [pos, moves] = nodes[(i / 64) % nodes.size()];
        const Move m = moves[i++ % moves.size()];
        stack.moving_from(pos);
        pos.make(m);
        stack.moved_to(pos);
        benchmark::DoNotOptimize(stack.evaluate(pos));
        pos.unmake(m);
        stack.moved_back_to(pos);
    }
    state.SetItemsProcessed(state.iterations());
}
void BM_NetMakeEvaluateUnmake(benchmark::State& state) { net_make_evaluate_unmake(state, 0); }
void BM_NetConnectivityMakeEvaluateUnmake(benchmark::State& state) {
    net_make_evaluate_unmake(state, nnue::ConnectivityInputsSet);
}
// The layers above the accumulators alone (what a node pays after its update): the clipped
// ReLU, the hidden layer's dot products and the output.
void BM_NetLayers(benchmark::State& state) {
    const nnue::KernelSet* kernels = bench_kernels(state);
    if (!kernels) return;
    const auto net = bench_network(state);
    std::mt19937_64 rng(3);
    std::vector<std::int16_t> stm(static_cast<std::size_t>(net->accumulator_size)), other(stm.size());
    for (auto* acc : {&stm, &other})
        for (auto& v : *acc) v = static_cast<std::int16_t>(std::uniform_int_distribution<int>(-100, 250)(rng));
    for (auto _ : state) {
        benchmark::DoNotOptimize(nnue::propagate(*net, stm.data(), other.data(), {}, *kernels));
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations());
}
// Every kernel at the shipped net's size (128, 32) and at the larger ones of issue 85.
const std::vector<std::vector<std::int64_t>> NetSizesAndKernels = {{128, 256, 512}, {32}, {0, 1, 2, 3, 4}};
BENCHMARK(BM_NetLayers)->ArgsProduct(NetSizesAndKernels);
BENCHMARK(BM_NetEvaluateRefresh)->ArgsProduct(NetSizesAndKernels);
BENCHMARK(BM_NetMakeEvaluateUnmake)->ArgsProduct(NetSizesAndKernels);
BENCHMARK(BM_NetConnectivityEvaluateRefresh)->ArgsProduct({{128}, {32}, {0, 1, 2, 3, 4}});
BENCHMARK(BM_NetConnectivityMakeEvaluateUnmake)->ArgsProduct({{128}, {32}, {0, 1, 2, 3, 4}});

// Search speed: preset `full` to depth 5 over the bench positions; counter = nodes/second.
void search_speed(benchmark::State& state, const SearchGame& game) {
    const auto positions = middle_game();
    std::uint64_t nodes = 0;
    for (auto _ : state) {
        for (const Position& pos : positions) {
            search::Searcher<SearchGame> searcher(game, variant::parse_variant("full,tt=4"));
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
void BM_SearchNetEval(benchmark::State& state) { search_speed(state, SearchGame(RuleSet{}, bench_network(state))); }
BENCHMARK(BM_SearchFullEval)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SearchNetEval)->Args({128, 32})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SearchMaterialEval)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SearchSimpleEval)->Unit(benchmark::kMillisecond);

}  // namespace
