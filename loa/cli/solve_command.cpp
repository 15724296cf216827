// `loa solve`: proves a position (or every position of an endgame set) won, lost or drawn
// with proof-number search.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "common/cli_checks.hpp"
#include "common/files.hpp"
#include "common/solver/solver.hpp"
#include "loa/cli/commands.hpp"
#include "loa/endgame_set.hpp"
#include "loa/error.hpp"
#include "loa/game.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"

namespace loa::cli {
namespace {

using Solver = solver::ProofNumberSolver<SearchGame>;

std::string format_goal(std::string_view name, const solver::GoalSearch& goal) {
    return fmt::format("goal {} pn {} dn {} nodes {} time {:.0f}", name, solver::format_proof_number(goal.pn),
                       solver::format_proof_number(goal.dn), goal.nodes, goal.time_ms);
}

std::string format_result(const solver::SolveResult<Move>& r) {
    const std::string move = r.value == solver::Value::Win ? fmt::format(" move {}", move_to_compact(r.move)) : "";
    return fmt::format("result {}{} nodes {} time {:.0f}", solver::to_string(r.value), move, r.nodes, r.time_ms);
}

// Every position of the set with a fresh solver (a shared table would make each result
// depend on the ones before it). Returns the number of results contradicting the set.
int solve_set(const std::string& path, const RuleSet& rules, const solver::SolverOptions& options,
              const solver::SolveLimits& limits, const std::string& csv_path, const std::string& write_path) {
    const auto set = load_endgame_set(path);
    // Written whole at the end; refused now (not after the solving) when the paths hold files
    // that are not these outputs.
    const common::Ownership solved_owner{"a file of positions proven by loa solve",
                                         [](std::string_view head) { return head.starts_with("# positions of "); }};
    const common::Ownership csv_owner{"a loa solve CSV", [](std::string_view head) { return head.starts_with("index,position,expected,"); }};
    if (!write_path.empty()) common::check_replaceable(write_path, solved_owner);
    if (!csv_path.empty()) common::check_replaceable(csv_path, csv_owner);
    std::optional<std::string> solved_out, csv;
    if (!write_path.empty())
        solved_out = fmt::format("# positions of {} proven by loa solve --algo {} --nodes {}\n", path,
                                 solver::to_string(options.algorithm), limits.nodes);
    if (!csv_path.empty()) csv = "index,position,expected,result,move,nodes,time_ms\n";
    int solved = 0, wrong = 0;
    std::uint64_t nodes = 0;
    double time_ms = 0;
    for (std::size_t i = 0; i < set.size(); ++i) {
        const EndgamePosition& entry = set[i];
        // By every rule, the no-move variants included (not only by connection).
        if (const Game start(entry.position, rules); start.over())
            throw InputError(fmt::format("{}: position {} is already decided: {}", path, i + 1, describe(start.result())));
        Solver solver(SearchGame(rules), options);
        auto position_limits = limits;
        position_limits.game_plies_left = rules.ply_limit;
        const auto r = solver.solve(entry.position, position_limits);
        const std::string expected = entry.value ? std::string(solver::to_string(*entry.value)) : "-";
        const bool contradicts = entry.value && r.value != solver::Value::Unknown && r.value != *entry.value;
        solved += r.value != solver::Value::Unknown;
        wrong += contradicts;
        nodes += r.nodes;
        time_ms += r.time_ms;
        fmt::print("position {} {} expected {}{}\n", i + 1, format_result(r), expected, contradicts ? " WRONG" : "");
        std::fflush(stdout);
        if (solved_out && r.value != solver::Value::Unknown) *solved_out += format_endgame_line({entry.position, r.value}) + '\n';
        if (csv)
            *csv += fmt::format("{},{},{},{},{},{},{:.3f}\n", i + 1, position_to_text(entry.position), expected,
                                solver::to_string(r.value), r.value == solver::Value::Win ? move_to_compact(r.move) : "",
                                r.nodes, r.time_ms);
    }
    fmt::print("solved {} of {} wrong {} nodes {} time {:.0f}\n", solved, set.size(), wrong, nodes, time_ms);
    if (solved_out) common::replace_file(write_path, *solved_out, solved_owner);
    if (csv) common::replace_file(csv_path, *csv, csv_owner);
    return wrong;
}

}  // namespace

void add_solve_command(CLI::App& app) {
    struct Options {
        std::string position = "startpos";
        std::string moves;
        std::string rules = "olympiad";
        std::string algorithm = "pn";
        std::string init = "mobility";
        std::uint64_t nodes = 1'000'000;
        double time_ms = 0;
        std::size_t table_mb = 16;
        double pn2_fraction = 1.0;
        std::string set;
        std::string csv;
        std::string write;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "solve", "Prove a position won, lost or drawn by proof-number search (prints 'goal' lines and a 'result' line)");
    cmd->add_option("-p,--position", o->position, "Position text, or startpos / eggs")->capture_default_str();
    cmd->add_option("-m,--moves", o->moves, "Moves played from the position first (they form the game history)");
    cmd->add_option("-n,--nodes", o->nodes, "Node budget: every node created, both goals")
        ->check(common::positive_number())
        ->capture_default_str();
    cmd->add_option("-t,--time", o->time_ms, "Time limit in milliseconds, or 1.5s, 2min (0: none)")->transform(common::milliseconds(true));
    cmd->add_option("-a,--algo", o->algorithm, "pn (one tree), pn2 (two levels), depth-first with a table instead of a tree: pds (Nagai's PDS), dfpn (df-pn), pds-pn (Winands' PDS over PN trees) or dfpn-pn (df-pn over PN trees)")
        ->check(CLI::IsMember({"pn", "pn2", "pds", "dfpn", "pds-pn", "dfpn-pn"}))
        ->capture_default_str();
    cmd->add_option("--init", o->init, "Leaf numbers: uniform (1, 1) or mobility (moves of the side to move)")
        ->check(CLI::IsMember({"uniform", "mobility"}))
        ->capture_default_str();
    cmd->add_option("--table-mb", o->table_mb, "Table of solved positions in MB (0: none; pds, dfpn and their two-level forms: their table, at least 1,024 entries)")
        ->capture_default_str();
    cmd->add_option("--pn2-fraction", o->pn2_fraction, "pn2, pds-pn, dfpn-pn: second-level tree size as a fraction of the first level (pn2: its tree; pds-pn, dfpn-pn: its expansions)")
        ->check(common::positive_number())
        ->capture_default_str();
    cmd->add_option("-r,--rules", o->rules, "Rules: a named set and/or key=value list")->capture_default_str();
    cmd->add_option("--set", o->set, "Solve every position of an endgame set file (a fresh solver each)");
    cmd->add_option("--csv", o->csv, "With --set: one CSV row per position");
    cmd->add_option("--write", o->write, "With --set: write the solved positions with their values (an endgame set)");
    cmd->callback([o] {
        solver::SolverOptions options;
        options.algorithm = solver::parse_algorithm(o->algorithm);
        options.init = solver::parse_leaf_init(o->init);
        options.table_mb = o->table_mb;
        options.pn2_fraction = o->pn2_fraction;
        solver::SolveLimits limits;
        limits.nodes = o->nodes;
        limits.time_ms = o->time_ms;
        const RuleSet rules = parse_rules(o->rules);
        if (!o->set.empty()) {
            if (solve_set(o->set, rules, options, limits, o->csv, o->write) > 0)
                throw InputError("some proven values contradict the set");
            return;
        }
        Game game(position_from_argument(o->position), rules);
        for (const std::string_view m : split_move_list(o->moves)) game.play(m);
        if (game.over()) throw InputError(fmt::format("the game is over: {}", describe(game.result())));
        limits.game_plies_left = plies_until_limit(game);
        Solver solver(SearchGame(game.rules()), options);
        const auto history = search_history(game);
        const auto result = solver.solve(game.position(), limits, history);
        fmt::print("{}\n", format_goal("win", result.win));
        if (result.loss.run) fmt::print("{}\n", format_goal("loss", result.loss));
        fmt::print("{}\n", format_result(result));
    });
}

}  // namespace loa::cli
