#include <string>

#include <fmt/format.h>

#include "common/variant/config.hpp"
#include "loa/searchers.hpp"
#include "loa/bench_positions.hpp"
#include "loa/cli/commands.hpp"
#include "loa/search_game.hpp"
#include "loa/search_output.hpp"

namespace loa::cli {

void add_bench_command(CLI::App& app) {
    struct Options {
        int depth = 5;
        std::string variant = "full";
        std::string eval = std::string(DefaultEval), weights, rps;
        bool verbose = false;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "bench", "Search the built-in position set at fixed depth: the node-count signature and nodes/second");
    cmd->add_option("-d,--depth", o->depth, "Search depth in plies")->check(CLI::Range(1, 30))->capture_default_str();
    cmd->add_option("-v,--variant", o->variant, "Search variant")->capture_default_str();
    cmd->add_option("--eval", o->eval, "Evaluation: nnue (the shipped network), hce (the hand-written one), a .nnue or weights file")
        ->capture_default_str();
    cmd->add_option("-w,--weights", o->weights, "Evaluation weights (JSON, as for loa eval), over the hand-written evaluation")
        ->excludes("--eval");
    cmd->add_option("--rps", o->rps, "Realization probabilities (learn-rps JSON) for variants with erps=on")->check(CLI::ExistingFile);
    cmd->add_flag("--verbose", o->verbose, "One line per position");
    cmd->callback([o] {
        const search::SearchConfig config = variant::alpha_beta(variant::parse_variant(o->variant));
        SearchGame game = SearchGame::from_spec(RuleSet{}, !o->weights.empty() ? o->weights : o->eval.empty() ? std::string(DefaultEval) : o->eval, o->rps);
        std::uint64_t nodes = 0;
        double time_ms = 0;
        for (const NamedPosition& named : BenchPositions) {
            // A fresh searcher per position: the signature must not depend on the order.
            search::ParallelSearcher<SearchGame> searcher(game, config);
            search::SearchLimits limits;
            limits.depth = o->depth;
            const auto r = searcher.search(Position::from_text(named.text), limits);
            nodes += r.stats.nodes;
            time_ms += r.stats.time_ms;
            if (o->verbose)
                fmt::print("position {:<36} nodes {:>10} score {:<8} bestmove {}\n", named.origin, r.stats.nodes,
                           search::format_score(r.score), move_to_compact(r.best_move));
        }
        fmt::print("bench depth {} positions {} nodes {} time_ms {:.0f} nps {:.0f}\n", o->depth, BenchPositions.size(),
                   nodes, time_ms, time_ms > 0 ? static_cast<double>(nodes) * 1000.0 / time_ms : 0.0);
    });
}

}  // namespace loa::cli
