#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "common/cli_checks.hpp"
#include "common/variant/config.hpp"
#include "loa/searchers.hpp"
#include "loa/cli/commands.hpp"
#include "loa/error.hpp"
#include "loa/game.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "loa/search_output.hpp"

namespace loa::cli {

void add_analyze_command(CLI::App& app) {
    struct Options {
        std::string position = "startpos";
        std::string moves;
        std::string variant = "full";
        std::string rules = "olympiad";
        std::string rps;
        std::string eval = std::string(DefaultEval);
        int depth = 0;
        double movetime = 0;
        std::uint64_t nodes = 0;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("analyze", "Search a position and print one info line per iteration");
    cmd->add_option("-p,--position", o->position, "Position text, or startpos / eggs")->capture_default_str();
    cmd->add_option("-m,--moves", o->moves, "Moves played from the position first (they form the game history)");
    cmd->add_option("-d,--depth", o->depth, "Search depth in plies (default 6; MCTS: the PV's length, default 100,000 play-outs)")->check(CLI::Range(1, 100));
    cmd->add_option("-t,--movetime", o->movetime, "Search time in milliseconds (or 1.5s, 250ms)")->transform(common::milliseconds());
    cmd->add_option("-n,--nodes", o->nodes, "Node budget")->check(common::positive_number());
    cmd->add_option("-v,--variant", o->variant, "Search variant, e.g. preset=pvs+tt,killers=2 (see 'loa variants')")
        ->capture_default_str();
    cmd->add_option("--eval", o->eval, "Evaluation: nnue (the shipped network), hce (the hand-written one), a .nnue or weights file")
        ->capture_default_str();
    cmd->add_option("--rps", o->rps, "Realization probabilities (JSON from loa-match learn-rps) for erps=on, mcts_bias, playout=weighted")
        ->check(CLI::ExistingFile);
    cmd->add_option("-r,--rules", o->rules, "Rules: a named set (olympiad, codingame, loabot, openspiel) and/or key=value list")->capture_default_str();
    cmd->callback([o] {
        Game game(position_from_argument(o->position), parse_rules(o->rules));
        for (const std::string_view m : split_move_list(o->moves)) game.play(m);
        if (game.over()) throw InputError(fmt::format("the game is over: {}", describe(game.result())));
        search::SearchLimits limits;
        limits.depth = o->depth;
        limits.nodes = o->nodes;
        limits.hard_time_ms = o->movetime;
        limits.game_plies_left = plies_until_limit(game);
        const variant::VariantConfig config = variant::parse_variant(o->variant);
        // Without a limit: depth 6, or 100,000 play-outs for MCTS (whose depth is its PV's length).
        if (!o->depth && !o->nodes && o->movetime <= 0) {
            if (config.algorithm == variant::Algorithm::Mcts) limits.nodes = 100'000;
            else limits.depth = 6;
        }
        variant::VariantSearcher<SearchGame> searcher(SearchGame::from_spec(game.rules(), o->eval.empty() ? DefaultEval : o->eval, o->rps), config);
        const auto history = search_history(game);
        const auto result = searcher.search(game.position(), limits, history, [](const search::Iteration<Move>& it) {
            fmt::print("{}\n", format_info(it));
            std::fflush(stdout);
        });
        if (result.unfinished) fmt::print("{}\n", format_unfinished_info(result));
        fmt::print("bestmove {}\n", move_to_compact(result.best_move));
        fmt::print("stats {}\n", search::format_stats(result.stats));
    });
}

}  // namespace loa::cli
