// loa-match: self-play matches and tournaments between search variants, with Elo, SPRT,
// openings, game records and a JSON result.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <random>
#include <thread>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/cli_main.hpp"
#include "common/error.hpp"
#include "common/text.hpp"
#include "loa/position_text.hpp"
#include "matches/file_lock.hpp"
#include "matches/live_file.hpp"
#include "matches/match.hpp"
#include "matches/records.hpp"
#include "matches/plot.hpp"
#include "matches/report.hpp"
#include "matches/state.hpp"
#include "matches/treesize.hpp"
#include "matches/tune.hpp"
#include "loa/search_game.hpp"

namespace {

using namespace matches;

// The default match: relative against absolute history heuristic, everything else equal.
const char* const DefaultEngines[] = {
    "name=rhh,preset=full,history=relative,nodes=40000",
    "name=hh,preset=full,history=absolute,nodes=40000",
};

Adjudication parse_resign(const std::string& spec, double margin_ms) {
    Adjudication a;
    a.time_margin_ms = margin_ms;
    if (spec.empty()) return a;
    for (const auto& [key, value] : common::parse_key_values(spec, "resign")) {
        const auto v = common::parse_int(value);
        if (!v || *v <= 0) throw common::InputError(fmt::format("resign: '{}' needs a positive integer", key));
        if (key == "score") a.resign_score = *v;
        else if (key == "moves") a.resign_moves = *v;
        else throw common::InputError(fmt::format("resign: unknown key '{}' (score, moves)", key));
    }
    if (!a.resign_score) throw common::InputError("resign: give score=<centi-units>");
    return a;
}

std::pair<int, int> parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    const int i = common::parse_int(text.substr(0, slash)).value_or(0);
    const int n = slash == std::string::npos ? 0 : common::parse_int(text.substr(slash + 1)).value_or(0);
    if (n < 1 || i < 1 || i > n) throw common::InputError(fmt::format("shard: expected i/N with 1 <= i <= N, not '{}'", text));
    return {i - 1, n};
}

// loa-match merge: one result from the result files of shards or partial runs of one match.
int merge_results(const std::vector<std::string>& files, const std::string& json_path, const std::string& pgn_path,
                  const std::string& plot_path) {
    nlohmann::json first_settings;
    MatchSettings s;
    std::map<int, GameRecord> games;
    for (const std::string& file : files) {
        std::ifstream in(file);
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(in);
        } catch (const nlohmann::json::exception& e) {
            throw common::InputError(fmt::format("merge: '{}' is not JSON ({})", file, e.what()));
        }
        if (!j.contains("settings") || !j.contains("games"))
            throw common::InputError(fmt::format("merge: '{}' is not a loa-match result file", file));
        if (first_settings.is_null()) {
            first_settings = j["settings"];
            s = settings_from_json(first_settings);
            s.event = j.value("event", "loa-match");
        } else if (!same_match(first_settings, j["settings"])) {
            throw common::InputError(fmt::format("merge: '{}' is from another match than '{}'", file, files.front()));
        }
        for (const auto& g : j["games"]) {
            GameRecord record = game_from_json(g);
            const auto [it, inserted] = games.emplace(record.index, record);
            if (!inserted && it->second.moves != record.moves)
                throw common::InputError(fmt::format("merge: game {} differs between files", record.index + 1));
        }
    }
    MatchResult result;
    for (auto& [index, g] : games) result.games.push_back(std::move(g));
    result.scheduled_games = static_cast<int>(result.games.size());
    tally(s, result);
    fmt::print("Merged {} files: {} games\n{}", files.size(), result.games.size(), summary(s, result));
    if (!json_path.empty()) {
        std::ofstream out(json_path);
        out << result_json(s, result) << '\n';
        fmt::print("Result written to {}\n", json_path);
    }
    if (!pgn_path.empty()) {
        std::ofstream out(pgn_path);
        for (const GameRecord& g : result.games) write_record(out, g, s.event);
        fmt::print("Games written to {}\n", pgn_path);
    }
    if (!plot_path.empty()) {
        write_plot(s, result, plot_path);
        fmt::print("Plot written to {}\n", plot_path);
    }
    return 0;
}

// Raised by SIGINT/SIGTERM (the only state a signal handler may touch): the run stops, its
// engines with it, and the state file stays for a resume.
std::atomic<bool> interrupt_requested{false};

extern "C" void request_interrupt(int) { interrupt_requested.store(true); }

void install_interrupt_handlers() {
    struct sigaction action {};
    action.sa_handler = request_interrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"loa-match: matches between LOA search variants, with Elo, SPRT and game records.\n"
                 "Without --engine it plays the default match: relative vs absolute history heuristic."};
    std::vector<std::string> engine_texts;
    std::string test_text, base_text, tc_text;
    int report_every = 0;
    int games = 48;
    int concurrency = std::max(1, static_cast<int>(std::thread::hardware_concurrency()) - 1);
    std::string openings_file, start = "standard", rules_text = "olympiad", sprt_text, pgn_path, json_path, resign_text,
                shard_text = "1/1", order = "sequential", event = "loa-match";
    int opening_plies = 4, opening_count = 0, balance_depth = 3, balance_score = 150;
    std::uint64_t seed = 1;
    double time_margin = 50;
    bool gauntlet = false, quiet = false, fresh = false;
    std::string state_path, resume_path, plot_path;
    std::vector<std::string> merge_files;
    std::string merge_json, merge_pgn, merge_plot;

    app.add_option("-e,--engine", engine_texts,
                   "Engine: name=X,<search keys>,depth=|nodes=|st=|tc=,eval=... (repeat; see 'loa variants')");
    app.add_option("--test", test_text, "Test-vs-base run: the engine under test (named 'test' unless name= is given)");
    app.add_option("--base", base_text, "Test-vs-base run: the engine it is measured against (named 'base'); see scripts/build-baseline.sh");
    app.add_option("--tc", tc_text, "Time control of every engine without a limit of its own: stc (5+0.05), ltc (20+0.2) or BASE+INC seconds");
    app.add_option("--report-every", report_every, "Print the summary so far every N finished games (also with -q)")->check(CLI::Range(1, 100000000));
    app.add_option("-g,--games", games, "Games per pairing (rounded up to whole pairs)")->check(CLI::Range(1, 10000000))->capture_default_str();
    app.add_option("-j,--concurrency", concurrency, "Games played at once (default: cores - 1)")->check(CLI::Range(1, 1024))->capture_default_str();
    app.add_option("--openings", openings_file, "Openings file: a position string or a move list a line");
    app.add_option("--opening-plies", opening_plies, "Random plies of generated openings")->check(CLI::Range(0, 40))->capture_default_str();
    app.add_option("--opening-count", opening_count, "Generated openings (default: one per pair)")->check(CLI::Range(1, 1000000));
    app.add_option("--opening-balance", balance_score, "Keep generated openings whose depth-3 score is within this")->capture_default_str();
    app.add_option("--openings-order", order, "sequential or random (seeded)")->check(CLI::IsMember({"sequential", "random"}))->capture_default_str();
    app.add_option("--seed", seed, "Seed of opening generation and order")->capture_default_str();
    app.add_option("--start", start, "Start position: standard or eggs (Scrambled Eggs)")->check(CLI::IsMember({"standard", "eggs"}))->capture_default_str();
    app.add_option("--rules", rules_text, "Rules: a named set (olympiad, codingame, loabot, openspiel) and/or key=value list (plylimit=N adjudicates a draw)")->capture_default_str();
    app.add_option("--sprt", sprt_text, "SPRT: elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized|logistic");
    app.add_option("--resign", resign_text, "Resign adjudication: score=600,moves=3 (both engines agree)");
    app.add_option("--time-margin", time_margin, "Milliseconds a clock may overrun before the game is lost")->capture_default_str();
    app.add_option("--pgn", pgn_path, "Write all games to this file (PGN-like)");
    app.add_option("--json", json_path, "Write the result as JSON");
    app.add_option("--shard", shard_text, "Play the i-th of N disjoint parts of the schedule: i/N")->capture_default_str();
    app.add_option("--event", event, "Event name in records and JSON")->capture_default_str();
    app.add_option("--plot", plot_path, "Draw Elo (and LLR) over the games into this PNG (gnuplot)");
    app.add_option("--state", state_path, "State file of finished games (default: <json>.state or loa-match.state)");
    app.add_option("--resume", resume_path, "Continue the interrupted run saved in this state file");
    app.add_flag("--fresh", fresh, "Ignore (and replace) an existing state file");
    app.add_flag("--gauntlet", gauntlet, "First engine against each other one (default: round robin)");
    app.add_flag("-q,--quiet", quiet, "Only the summary");
    // loa-match treesize
    TreeSizeSettings ts;
    std::vector<std::string> tree_variants;
    std::string tree_study, tree_positions = "data/treesize-positions.txt", tree_depths = "1..5", tree_csv, tree_json,
                tree_plot, tree_baseline, tree_from_json;
    int tree_limit = 0;
    CLI::App* treesize = app.add_subcommand("treesize", "Tree-size experiment: nodes per depth of search variants");
    treesize->add_option("--variant", tree_variants, "A variant: [name=X,]<search keys> (repeat)");
    treesize->add_option("--study", tree_study, "Add a study's variants: history (TT on and off), history-tt, history-nott or combinations");
    treesize->add_option("--positions", tree_positions, "Positions file (one position string a line)")->capture_default_str();
    treesize->add_option("--depth", tree_depths, "Depth or range D1..D2")->capture_default_str();
    treesize->add_option("--baseline", tree_baseline, "Variant the ratios refer to (default: the first)");
    treesize->add_option("--eval", ts.eval, "Evaluation: full, concentration, simple, material or FILE.json")->capture_default_str();
    treesize->add_option("--limit", tree_limit, "Use only the first N positions")->check(CLI::PositiveNumber);
    treesize->add_option("-j,--concurrency", ts.concurrency, "Searches at once")->check(CLI::Range(1, 1024));
    treesize->add_option("--seed", ts.seed, "Seed of the bootstrap")->capture_default_str();
    treesize->add_option("--csv", tree_csv, "Per variant, position and depth: nodes, quiescence nodes, time, TT hits, cutoff rate, move, score");
    treesize->add_option("--json", tree_json, "The tables as JSON");
    treesize->add_option("--plot", tree_plot, "Nodes and ratio to the baseline against depth (PNG, gnuplot)");
    treesize->add_option("--from-json", tree_from_json, "Only redraw --plot from the --json of an earlier run (no search)")
        ->check(CLI::ExistingFile);

    // loa-match positions
    std::string sample_pgn, sample_out;
    int sample_per_game = 2, sample_min_ply = 10, sample_max_ply = 40;
    std::uint64_t sample_seed = 1;
    CLI::App* positions = app.add_subcommand("positions", "Sample distinct middle-game positions from game records");
    positions->add_option("--pgn", sample_pgn, "Game records written by --pgn")->required()->check(CLI::ExistingFile);
    positions->add_option("--per-game", sample_per_game, "Positions taken from each game")->capture_default_str();
    positions->add_option("--min-ply", sample_min_ply, "Earliest ply")->capture_default_str();
    positions->add_option("--max-ply", sample_max_ply, "Latest ply")->capture_default_str();
    positions->add_option("--seed", sample_seed, "Seed of the sampling")->capture_default_str();
    positions->add_option("--out", sample_out, "Output file (default: standard output)");

    // loa-match openings
    OpeningGenerator og;
    og.count = 2000;
    og.balance_depth = 5;
    og.max_abs_score = 50;
    og.distinct_under_symmetry = true;
    std::string og_plies = "4..8", og_out, og_start = "standard", og_rules = "olympiad";
    CLI::App* openings = app.add_subcommand("openings", "Generate a file of balanced openings (random plies kept when a search scores them near 0)");
    openings->add_option("--count", og.count, "Openings to keep")->check(CLI::Range(1, 10000000))->capture_default_str();
    openings->add_option("--plies", og_plies, "Random plies: N or N1..N2 (drawn uniformly)")->capture_default_str();
    openings->add_option("--depth", og.balance_depth, "Depth of the balance search")->check(CLI::Range(1, 30))->capture_default_str();
    openings->add_option("--margin", og.max_abs_score, "Kept when |score| <= this (centi-units)")->check(CLI::Range(0, 100000))->capture_default_str();
    openings->add_option("--seed", og.seed, "Seed of the random plies")->capture_default_str();
    openings->add_option("--start", og_start, "Start position: standard or eggs")->check(CLI::IsMember({"standard", "eggs"}))->capture_default_str();
    openings->add_option("--rules", og_rules, "Rules (as for a match)")->capture_default_str();
    openings->add_option("--out", og_out, "Output file (default: standard output)");

    // loa-match tune
    TuneSettings tune_settings;
    std::string tune_out, tune_start, tune_freeze;
    bool tune_flat = false, tune_fixed_stm = false;
    CLI::App* tune = app.add_subcommand("tune", "Fit the evaluation weights to game results (Texel's method, logistic regression)");
    tune->add_option("records", tune_settings.record_files, "Game records written by --pgn")->required()->check(CLI::ExistingFile);
    tune->add_option("--out", tune_out, "Write the tuned weights (JSON, for eval=FILE.json / loa --weights)");
    tune->add_option("--start", tune_start, "Starting weights (JSON; default: the built-in evaluation)");
    tune->add_option("--per-game", tune_settings.per_game, "Positions taken from each game (0: all)")->check(CLI::NonNegativeNumber)->capture_default_str();
    tune->add_option("--min-ply", tune_settings.min_ply, "Earliest ply taken")->check(CLI::NonNegativeNumber)->capture_default_str();
    tune->add_option("--seed", tune_settings.seed, "Seed of the sampling and of the held-out games")->capture_default_str();
    tune->add_option("--holdout", tune_settings.holdout, "Share of games kept out of the fit to check it")->check(CLI::Range(0.0, 0.9))->capture_default_str();
    tune->add_option("--freeze", tune_freeze, "Features kept at their starting weight: name,name,...");
    tune->add_flag("--flat", tune_flat, "One weight a feature for the whole game (default: opening and endgame weights)");
    tune->add_flag("--fixed-side-to-move", tune_fixed_stm, "Keep the side-to-move bonus");
    tune->add_option("--l2", tune_settings.l2, "Pull towards the starting weights")->check(CLI::NonNegativeNumber)->capture_default_str();
    tune->add_option("--iterations", tune_settings.max_iterations, "Most Newton steps")->check(CLI::Range(1, 1000))->capture_default_str();
    std::string tune_rules = "olympiad";
    tune->add_option("--rules", tune_rules, "Rules the games were played under")->capture_default_str();

    CLI::App* merge = app.add_subcommand("merge", "Combine the result files of shards (or runs) of one match");
    merge->add_option("files", merge_files, "Result files written with --json")->required()->check(CLI::ExistingFile);
    merge->add_option("--json", merge_json, "Write the merged result");
    merge->add_option("--pgn", merge_pgn, "Write the merged games");
    merge->add_option("--plot", merge_plot, "Draw the merged match");

    return common::run_cli("loa-match", app, [&]() -> int {
        app.parse(argc, argv);
        if (merge->parsed()) return merge_results(merge_files, merge_json, merge_pgn, merge_plot);
        if (positions->parsed()) {
            const auto sample = sample_positions(sample_pgn, sample_per_game, sample_min_ply, sample_max_ply, sample_seed);
            std::ofstream file;
            if (!sample_out.empty()) file.open(sample_out);
            std::ostream& out = sample_out.empty() ? std::cout : file;
            for (const loa::Position& p : sample) out << p.to_text() << '\n';
            fmt::print(stderr, "{} positions\n", sample.size());
            return 0;
        }
        if (tune->parsed()) {
            if (!tune_start.empty()) tune_settings.start = loa::load_weights_file(tune_start);
            tune_settings.rules = loa::parse_rules(tune_rules);
            tune_settings.tapered = !tune_flat;
            tune_settings.tune_side_to_move = !tune_fixed_stm;
            for (const std::string_view name : common::split(tune_freeze, ',')) {
                if (name.empty()) continue;
                const auto f = loa::feature_from_name(name);
                if (!f) throw common::InputError(fmt::format("tune: unknown feature '{}' in --freeze", name));
                if (std::find(tune_settings.frozen.begin(), tune_settings.frozen.end(), *f) == tune_settings.frozen.end())
                    tune_settings.frozen.push_back(*f);
            }
            fmt::print("Collecting quiet positions from {} file(s)...\n", tune_settings.record_files.size());
            std::fflush(stdout);
            const auto samples = collect_samples(tune_settings);
            const TuneReport report = fit_weights(tune_settings, samples);
            fmt::print("{}", tune_summary(tune_settings, report));
            if (!tune_out.empty()) {
                std::ofstream out(tune_out);
                if (!out) throw common::InputError(fmt::format("cannot write '{}'", tune_out));
                out << loa::weights_to_json(report.weights) << '\n';
                fmt::print("Weights written to {}\n", tune_out);
            }
            return 0;
        }
        if (openings->parsed()) {
            const auto dots = og_plies.find("..");
            const auto lo = common::parse_int(og_plies.substr(0, dots));
            const auto hi = dots == std::string::npos ? lo : common::parse_int(og_plies.substr(dots + 2));
            if (!lo || !hi || *lo < 0 || *hi < *lo || *hi > 40)
                throw common::InputError(fmt::format("openings: bad --plies '{}' (N or N1..N2, at most 40)", og_plies));
            og.plies = *lo;
            og.max_plies = *hi;
            const loa::RuleSet rules = loa::parse_rules(og_rules);
            std::ofstream file;
            if (!og_out.empty()) {
                file.open(og_out);
                if (!file) throw common::InputError(fmt::format("cannot write '{}'", og_out));
            }
            const auto started = std::chrono::steady_clock::now();
            og.on_progress = [&](int kept, int tried) {
                if (kept % 100 != 0 && kept != og.count) return;
                const std::chrono::duration<double> t = std::chrono::steady_clock::now() - started;
                fmt::print(stderr, "openings: {} of {} kept, {} tried, {:.0f} s\n", kept, og.count, tried, t.count());
            };
            const auto made = generate_openings(og, og_start == "eggs" ? loa::Position::scrambled_eggs() : loa::Position::start(), rules);
            const std::vector<std::string> header = {
                fmt::format("{} balanced LOA openings, one move list a line from the {} start position", made.size(), og_start),
                fmt::format("made by: loa-match openings --count {} --plies {} --depth {} --margin {} --seed {} --start {} --rules {}",
                            og.count, og_plies, og.balance_depth, og.max_abs_score, og.seed, og_start, og_rules),
                fmt::format("random plies drawn from {}, kept when a depth-{} search (preset full) scores the position within +-{}",
                            og_plies, og.balance_depth, og.max_abs_score),
                "centi-units for the side to move; distinct positions, also under the mirror images of the board"};
            (og_out.empty() ? std::cout : file) << openings_file_text(made, header);
            if (!og_out.empty()) fmt::print("Written {} openings to {}\n", made.size(), og_out);
            return 0;
        }
        if (treesize->parsed() && !tree_from_json.empty()) {
            if (tree_plot.empty()) throw common::InputError("treesize: --from-json needs --plot");
            treesize_plot(treesize_totals_from_json(tree_from_json), tree_plot);
            fmt::print("Written {}\n", tree_plot);
            return 0;
        }
        if (treesize->parsed()) {
            for (const std::string& v : tree_variants) ts.variants.push_back(parse_tree_variant(v));
            if (!tree_study.empty())
                for (TreeVariant& v : study_variants(tree_study)) ts.variants.push_back(std::move(v));
            if (ts.variants.empty()) throw common::InputError("treesize: give --variant or --study");
            const auto dots = tree_depths.find("..");
            const auto lo = common::parse_int(tree_depths.substr(0, dots));
            const auto hi = dots == std::string::npos ? lo : common::parse_int(tree_depths.substr(dots + 2));
            if (!lo || !hi || *lo < 1 || *hi < *lo || *hi > 30)
                throw common::InputError(fmt::format("treesize: bad depth '{}' (D or D1..D2, at most 30)", tree_depths));
            ts.min_depth = *lo;
            ts.max_depth = *hi;
            ts.positions = load_positions(tree_positions);
            if (tree_limit > 0 && static_cast<std::size_t>(tree_limit) < ts.positions.size()) ts.positions.resize(static_cast<std::size_t>(tree_limit));
            if (!tree_baseline.empty()) {
                const auto it = std::find_if(ts.variants.begin(), ts.variants.end(), [&](const TreeVariant& v) { return v.name == tree_baseline; });
                if (it == ts.variants.end()) throw common::InputError(fmt::format("treesize: no variant named '{}'", tree_baseline));
                ts.baseline = static_cast<int>(it - ts.variants.begin());
            }
            (void)loa::SearchGame::from_spec(loa::RuleSet{}, ts.eval);  // a bad eval fails now
            fmt::print("treesize: {} variants, {} positions, depth {}..{}, eval {}\n", ts.variants.size(), ts.positions.size(),
                       ts.min_depth, ts.max_depth, ts.eval);
            const TreeSizeResult r = run_treesize(ts, true);
            fmt::print("{}", treesize_table(ts, r));
            auto write = [](const std::string& path, const std::string& text) {
                std::ofstream out(path);
                if (!out) throw common::InputError(fmt::format("cannot write '{}'", path));
                out << text;
                fmt::print("Written {}\n", path);
            };
            if (!tree_csv.empty()) write(tree_csv, treesize_csv(ts, r));
            if (!tree_json.empty()) write(tree_json, treesize_json(ts, r) + "\n");
            if (!tree_plot.empty()) {
                treesize_plot(treesize_totals(ts, r), tree_plot);
                fmt::print("Written {}\n", tree_plot);
            }
            return 0;
        }
        MatchSettings s;
        if (!test_text.empty() || !base_text.empty()) {
            if (test_text.empty() || base_text.empty()) throw common::InputError("a test-vs-base run needs both --test and --base");
            if (!engine_texts.empty()) throw common::InputError("--test/--base replace --engine: give one or the other");
            auto named = [](const std::string& text, const char* name) {
                for (const auto& [key, value] : common::parse_key_values(text, "engine"))
                    if (key == "name") return text;
                return fmt::format("name={},{}", name, text);
            };
            engine_texts = {named(test_text, "test"), named(base_text, "base")};
            s.test_vs_base = true;
        }
        if (engine_texts.empty()) engine_texts.assign(std::begin(DefaultEngines), std::end(DefaultEngines));
        if (!tc_text.empty()) {
            (void)parse_time_control(tc_text, "--tc");  // a bad value fails here, named as the option
            for (std::string& text : engine_texts)
                if (!has_limit(text)) text += ",tc=" + tc_text;
        }
        if (engine_texts.size() < 2) throw common::InputError("give at least two --engine options");
        std::set<std::string> names;
        for (std::size_t i = 0; i < engine_texts.size(); ++i) {
            s.engines.push_back(parse_engine_spec(engine_texts[i], static_cast<int>(i)));
            if (!names.insert(s.engines.back().name).second)
                throw common::InputError(fmt::format("two engines are named '{}': give each a distinct name=", s.engines.back().name));
        }
        s.format = gauntlet ? Format::Gauntlet : Format::RoundRobin;
        s.games = games;
        s.concurrency = concurrency;
        s.rules = loa::parse_rules(rules_text);
        s.event = event;
        std::tie(s.shard_index, s.shard_count) = parse_shard(shard_text);
        s.adjudication = parse_resign(resign_text, time_margin);
        if (!sprt_text.empty()) s.sprt = parse_sprt(sprt_text);
        s.sprt_text = sprt_text;
        s.start_name = start;
        const loa::Position start_position = start == "eggs" ? loa::Position::scrambled_eggs() : loa::Position::start();
        s.openings_source = openings_file.empty()
                                ? fmt::format("generated plies={} count={} balance={} seed={} order={}", opening_plies,
                                              opening_count, balance_score, seed, order)
                                : fmt::format("file {} order={} seed={}", openings_file, order, seed);
        if (!openings_file.empty()) {
            s.openings = load_openings(openings_file, start_position, s.rules);
        } else {
            OpeningGenerator g;
            g.count = opening_count ? opening_count : (games + 1) / 2;
            g.plies = opening_plies;
            g.seed = seed;
            g.balance_depth = balance_depth;
            g.max_abs_score = balance_score;
            if (!quiet) fmt::print("Generating {} openings of {} random plies (seed {})...\n", g.count, g.plies, g.seed);
            s.openings = generate_openings(g, start_position, s.rules);
        }
        if (order == "random") {
            std::mt19937_64 rng(seed ^ 0x0DE7);
            std::shuffle(s.openings.begin(), s.openings.end(), rng);
        }
        if (!quiet) {
            fmt::print("Engines:\n");
            for (const EngineSpec& e : s.engines)
                fmt::print("  {:<12} {} ({}, eval {})\n", e.name, e.config.preset, e.limit_text(), e.eval);
            fmt::print("{} games per pairing, concurrency {}, rules {}\n", s.games, s.concurrency, loa::to_string(s.rules));
            std::fflush(stdout);
        }

        // Finished games go to the state file as they come, so that an interrupted run
        // restarted with the same command continues where it stopped.
        if (!resume_path.empty()) {
            if (!std::filesystem::exists(resume_path)) throw common::InputError(fmt::format("no state file '{}'", resume_path));
            state_path = resume_path;
        }
        if (state_path.empty()) state_path = json_path.empty() ? "loa-match.state" : json_path + ".state";
        const FileLock claim(state_path);  // before the state file is read: no other run writes it
        StateFile state(state_path, s);
        if (fresh) state.remove();
        const std::vector<GameRecord> resumed = state.load();
        if (!resumed.empty() && !quiet) fmt::print("Resuming from {}: {} games already played\n", state_path, resumed.size());
        // Opened (and emptied) only now: a run refused above leaves the PGN of the run it
        // collided with alone.
        std::ofstream pgn;
        if (!pgn_path.empty()) {
            pgn.open(pgn_path);
            if (!pgn) throw common::InputError(fmt::format("cannot write '{}'", pgn_path));
        }
        for (const GameRecord& g : resumed)
            if (pgn) write_record(pgn, g, s.event);

        const int total_per_pairing = 2 * ((s.games + 1) / 2);
        const int scheduled = scheduled_games(s);
        std::map<std::pair<int, int>, PairingStats> latest;  // for --report-every
        std::map<int, int> resumed_in_pair;
        for (const GameRecord& g : resumed) ++resumed_in_pair[g.pair];
        int finished = 0, played_this_run = 0;  // a half-played pair is played again
        for (const auto& [pair, count] : resumed_in_pair) finished += count == 2 ? 2 : 0;
        const auto run_start = std::chrono::steady_clock::now();
        // The games in play, for watchers (loa serve's Watch tab), beside the state file.
        LiveFile live(state_path + ".live");
        MatchCallbacks callbacks;
        callbacks.on_game = [&](const GameRecord& g, const PairingStats& p) {
            state.append(g);
            live.finished(g.index);
            if (pgn) {
                write_record(pgn, g, s.event);
                pgn.flush();
            }
            ++finished;
            ++played_this_run;
            latest[{p.first, p.second}] = p;
            if (report_every > 0 && finished % report_every == 0) {
                std::vector<PairingStats> pairings;
                for (const auto& [key, stats] : latest) pairings.push_back(stats);
                const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - run_start;
                fmt::print("{}", interim_report(s, pairings, finished, scheduled, elapsed.count(), played_this_run));
                std::fflush(stdout);
            }
            if (quiet) return;
            fmt::print("{}\n{}\n", finished_line(g), progress_line(s, p, total_per_pairing / s.shard_count));
            std::fflush(stdout);
        };
        callbacks.on_move = [&live](const GameInPlay& g) { live.update(g); };
        callbacks.interrupt = &interrupt_requested;
        callbacks.keep_games = false;  // the state file has every finished game: memory stays flat
        install_interrupt_handlers();
        MatchResult result = run_match(s, callbacks, resumed);
        // The run kept only counts; the records, moves included, are read back from the state
        // file for the summary, the plot and the JSON.
        result.games = state.load();
        if (static_cast<int>(result.games.size()) != result.finished_games && !result.interrupted)
            fmt::print(stderr, "warning: the state file holds {} games, the run finished {}\n", result.games.size(),
                       result.finished_games);
        if (result.interrupted) {
            fmt::print("{}", summary(s, result));
            fmt::print("Interrupted after {} of {} games; the games in play were dropped and every engine stopped.\n"
                       "Run the same command again to resume from {}.\n",
                       result.finished_games, result.scheduled_games, state_path);
            return 130;
        }
        fmt::print("{}", summary(s, result));
        if (!plot_path.empty()) {
            write_plot(s, result, plot_path);
            fmt::print("Plot written to {}\n", plot_path);
        }
        if (result.stopped_by_sprt) fmt::print("SPRT decided: the run stopped early.\n");
        if (!json_path.empty()) {
            std::ofstream json(json_path);
            if (!json) throw common::InputError(fmt::format("cannot write '{}'", json_path));
            json << result_json(s, result) << '\n';
            fmt::print("Result written to {}\n", json_path);
        }
        if (!pgn_path.empty()) fmt::print("Games written to {}\n", pgn_path);
        state.remove();  // the run is complete: its result is in the outputs
        return 0;
    });
}
