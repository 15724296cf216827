// Micro-benchmarks of the board: move generation (all moves, captures alone), make/unmake,
// result detection, perft.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "loa/connectivity.hpp"
#include "loa/game.hpp"
#include "loa/perft.hpp"

namespace {

using namespace loa;

// Middle-game positions: ply 10..40 of seeded random games.
const std::vector<Position>& sample_positions() {
    static const std::vector<Position> positions = [] {
        std::vector<Position> out;
        std::mt19937_64 rng(99);
        while (out.size() < 256) {
            Position pos = Position::start();
            for (int ply = 0; ply < 40; ++ply) {
                const MoveList moves = legal_moves(pos);
                pos.make(moves[rng() % moves.size()]);
                if (ply >= 10) out.push_back(pos);
            }
        }
        return out;
    }();
    return positions;
}

// Moves per second of one generator over the sample positions.
void measure_generation(benchmark::State& state, void (*generate)(const Position&, MoveList&)) {
    const auto& positions = sample_positions();
    std::size_t i = 0, moves = 0;
    for (auto _ : state) {
        MoveList list;
        generate(positions[i++ & 255], list);
        moves += list.size();
        benchmark::DoNotOptimize(list.data());
    }
    state.counters["moves/s"] = benchmark::Counter(static_cast<double>(moves), benchmark::Counter::kIsRate);
}

void BM_GenerateMoves(benchmark::State& state) { measure_generation(state, generate_moves); }
BENCHMARK(BM_GenerateMoves);

// What quiescence search generates: the captures alone.
void BM_GenerateCaptures(benchmark::State& state) { measure_generation(state, generate_captures); }
BENCHMARK(BM_GenerateCaptures);

void BM_MakeUnmake(benchmark::State& state) {
    Position pos = sample_positions()[17];
    const MoveList moves = legal_moves(pos);
    for (auto _ : state) {
        for (const Move m : moves) {
            pos.make(m);
            benchmark::DoNotOptimize(pos.key());
            pos.unmake(m);
        }
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * moves.size()));
}
BENCHMARK(BM_MakeUnmake);

void BM_ConnectionResult(benchmark::State& state) {
    const auto& positions = sample_positions();
    const RuleSet rules;
    std::size_t i = 0;
    for (auto _ : state) benchmark::DoNotOptimize(connection_result(positions[i++ & 255], rules));
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ConnectionResult);

void BM_IsConnectedWorstCase(benchmark::State& state) {
    // A long snake: every piece has a neighbour, so the quick test passes and the flood fill runs.
    Bitboard snake = 0x00000000000000FFULL | (1ULL << 15) | 0xFF00ULL << 8;
    for (auto _ : state) {
        benchmark::DoNotOptimize(snake);  // keep the constexpr flood fill from folding away
        benchmark::DoNotOptimize(is_connected(snake));
    }
}
BENCHMARK(BM_IsConnectedWorstCase);

void BM_Perft4(benchmark::State& state) {
    Position pos = Position::start();
    std::uint64_t nodes = 0;
    for (auto _ : state) nodes += perft(pos, 4);
    state.counters["leaves/s"] = benchmark::Counter(static_cast<double>(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Perft4)->Unit(benchmark::kMillisecond);

}  // namespace
