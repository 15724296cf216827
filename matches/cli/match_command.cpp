#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "common/bounded_io.hpp"
#include "common/cli_checks.hpp"
#include "common/error.hpp"
#include "common/file_lock.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "loa/position_text.hpp"
#include "matches/cli/commands.hpp"
#include "matches/cli/fastchess_args.hpp"
#include "matches/cli/interrupt.hpp"
#include "matches/cli/slurm_options.hpp"
#include "matches/live_file.hpp"
#include "matches/match.hpp"
#include "matches/merge.hpp"
#include "matches/output_format.hpp"
#include "matches/own_files.hpp"
#include "matches/pgn_output.hpp"
#include "matches/player.hpp"
#include "matches/plot.hpp"
#include "matches/records.hpp"
#include "matches/report.hpp"
#include "matches/slurm_driver.hpp"
#include "matches/state.hpp"

namespace matches::cli {
namespace {

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


struct MatchOptions {
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
    // Slurm back end
    SlurmOptions slurm;
    int slurm_round = 0;
    int max_pairs = 0;
    std::string format_text = "native";
    OutputFormat format = OutputFormat::Native;
    std::vector<std::string> args;  // the command line as given
};

// What plays, as it plays: an external engine by its command and protocol, one of ours by its
// preset and what differs from it; the games as they will be played (whole pairs).
std::string banner(const MatchSettings& s) {
    std::string out = "Engines:\n";
    for (const EngineSpec& e : s.engines) {
        if (e.external()) {
            std::string command = e.cmd;
            for (const std::string& a : e.args) command += " " + a;
            std::string options;
            for (const auto& [name, value] : e.options) options += fmt::format(", {}={}", name, value);
            out += fmt::format("  {:<12} external {} engine: {} ({}{})\n", e.name, e.proto, command, e.limit_text(), options);
        } else {
            std::string extra;
            if (e.multipv > 1) extra += fmt::format(", MultiPV {}", e.multipv);
            if (e.move_overhead_ms > 0) extra += fmt::format(", MoveOverhead {:g} ms", e.move_overhead_ms);
            out += fmt::format("  {:<12} {} ({}, eval {}{})\n", e.name, variant::preset_and_changes(e.config), e.limit_text(),
                               e.eval, extra);
        }
    }
    const int per_pairing = 2 * ((s.games + 1) / 2);
    out += fmt::format("{} games per pairing ({} pair{}, colours swapped in each{}), concurrency {}, rules {}\n", per_pairing,
                       per_pairing / 2, per_pairing == 2 ? "" : "s", per_pairing != s.games ? fmt::format("; {} asked, rounded up to whole pairs", s.games) : "",
                       s.concurrency, loa::to_string(s.rules));
    return out;
}

// An external engine is started once before the run: one that does not start, or refuses an
// option it is given, stops the run before any file is written.
void check_external_engines(const MatchSettings& s) {
    for (const EngineSpec& e : s.engines)
        if (e.external()) (void)make_player(e, s.rules);
}

// The match the options describe: engines, schedule, rules, openings, SPRT.
MatchSettings build_settings(MatchOptions* o) {
    MatchSettings s;
    if (!o->test_text.empty() || !o->base_text.empty()) {
        if (o->test_text.empty() || o->base_text.empty()) throw common::InputError("a test-vs-base run needs both --test and --base");
        if (!o->engine_texts.empty()) throw common::InputError("--test/--base replace --engine: give one or the other");
        auto named = [](const std::string& text, const char* name) {
            for (const auto& [key, value] : common::parse_key_values(text, "engine"))
                if (key == "name") return text;
            return fmt::format("name={},{}", name, text);
        };
        o->engine_texts = {named(o->test_text, "test"), named(o->base_text, "base")};
        s.test_vs_base = true;
    }
    if (o->engine_texts.empty()) o->engine_texts.assign(std::begin(DefaultEngines), std::end(DefaultEngines));
    if (!o->tc_text.empty()) {
        (void)parse_time_control(o->tc_text, "--tc");  // a bad value fails here, named as the option
        for (std::string& text : o->engine_texts)
            if (!has_limit(text)) text += ",tc=" + o->tc_text;
    }
    if (o->engine_texts.size() < 2) throw common::InputError("give at least two --engine options");
    std::set<std::string> names;
    for (std::size_t i = 0; i < o->engine_texts.size(); ++i) {
        s.engines.push_back(parse_engine_spec(o->engine_texts[i], static_cast<int>(i)));
        check_engine_files(s.engines.back());
        if (!names.insert(s.engines.back().name).second)
            throw common::InputError(fmt::format("two engines are named '{}': give each a distinct name=", s.engines.back().name));
    }
    s.format = o->gauntlet ? Format::Gauntlet : Format::RoundRobin;
    s.games = o->games;
    s.concurrency = o->concurrency;
    s.rules = loa::parse_rules(o->rules_text);
    check_schedule_size(s);
    s.event = o->event;
    if (common::has_control_character(s.event)) throw common::InputError("--event: the name must not hold control characters (a newline, a tab)");
    std::tie(s.shard_index, s.shard_count) = parse_shard(o->shard_text);
    s.max_pairs = o->max_pairs;
    s.adjudication = parse_resign(o->resign_text, o->time_margin);
    if (!o->sprt_text.empty()) s.sprt = parse_sprt(o->sprt_text);
    s.sprt_text = o->sprt_text;
    s.start_name = o->start;
    const loa::Position start_position = o->start == "eggs" ? loa::Position::scrambled_eggs() : loa::Position::start();
    s.openings_source = o->openings_file.empty()
                            ? fmt::format("generated plies={} count={} balance={} seed={} order={}", o->opening_plies,
                                          o->opening_count, o->balance_score, o->seed, o->order)
                            : fmt::format("file {} order={} seed={}", o->openings_file, o->order, o->seed);
    if (!o->openings_file.empty()) {
        s.openings = load_openings(o->openings_file, start_position, s.rules);
    } else {
        OpeningGenerator g;
        g.count = o->opening_count ? o->opening_count : (o->games + 1) / 2;
        g.plies = o->opening_plies;
        g.seed = o->seed;
        g.balance_depth = o->balance_depth;
        g.max_abs_score = o->balance_score;
        if (!o->quiet) fmt::print("Generating {} openings of {} random plies (seed {})...\n", g.count, g.plies, g.seed);
        s.openings = generate_openings(g, start_position, s.rules);
    }
    if (o->order == "random") {
        std::mt19937_64 rng(o->seed ^ 0x0DE7);
        std::shuffle(s.openings.begin(), s.openings.end(), rng);
    }
    s.openings_digest = openings_digest(s.openings);
    if (!o->quiet) fmt::print("{}", banner(s));
    std::fflush(stdout);
    return s;
}

// Where a run stands after a game.
struct Progress {
    const std::vector<PairingStats>& pairings;  // every pairing with games so far
    int finished = 0, scheduled = 0;
    double elapsed_seconds = 0;
    int played_this_run = 0;
    int games_per_pairing = 0;  // of this run (its shard's)
};

// What a run prints after each game, in its output format: the game's line and the score so
// far, then, every --report-every games, the results so far: after the game that completes
// them, so that a report counts the game printed above it.
void print_after_game(const MatchSettings& s, const MatchOptions& o, const GameRecord& g, const PairingStats& p, const Progress& now) {
    if (!o.quiet) {
        fmt::print("{}\n", finished_line(g));
        if (o.format == OutputFormat::Native) fmt::print("{}\n", progress_line(s, p, now.games_per_pairing));
        if (o.format == OutputFormat::Cutechess) fmt::print("{}\n", cutechess_score_line(s, p));
    }
    // In the other tools' formats the results of the last game are the final ones, printed next.
    const bool last = now.finished >= now.scheduled && o.format != OutputFormat::Native;
    if (o.report_every > 0 && now.finished % o.report_every == 0 && !last)
        fmt::print("{}", o.format == OutputFormat::Native
                             ? interim_report(s, now.pairings, now.finished, now.scheduled, now.elapsed_seconds, now.played_this_run)
                             : foreign_results(o.format, s, now.pairings));
    std::fflush(stdout);
}

// Writes the summary, plot and JSON of a run (its PGN is written before).
void write_outputs(const MatchSettings& s, const MatchResult& result, MatchOptions* o) {
    if (o->format == OutputFormat::Native) fmt::print("{}", summary(s, result));
    else fmt::print("{}Finished match\n", foreign_results(o->format, s, result.pairings));
    if (!o->plot_path.empty()) {
        write_plot(s, result, o->plot_path);
        fmt::print("Plot written to {}\n", o->plot_path);
    }
    if (result.stopped_by_sprt && result.pairings.size() == 1) fmt::print("SPRT decided: the run stopped early.\n");
    if (result.stopped_by_sprt && result.pairings.size() > 1) {
        const auto decided = std::count_if(result.pairings.begin(), result.pairings.end(),
                                           [](const PairingStats& p) { return p.decision != SprtDecision::Continue; });
        fmt::print("SPRT: {} of {} pairings decided and stopped early; the others played their games.\n", decided,
                   result.pairings.size());
    }
    if (!o->json_path.empty()) {
        // A new file renamed over the path: a reader (a Slurm driver) never sees half of it.
        common::replace_file(o->json_path, result_json(s, result) + '\n', own::result_json());
        fmt::print("Result written to {}\n", o->json_path);
    }
    if (!o->pgn_path.empty()) fmt::print("Games written to {}\n", o->pgn_path);
}

// Whether the result file at `json_path` holds this match played to its end (all its games,
// or stopped by its SPRT).
bool holds_finished_match(const std::string& json_path, const MatchSettings& s) {
    if (json_path.empty() || !std::filesystem::exists(json_path)) return false;
    if (common::names_a_special_file(json_path))
        throw common::InputError(fmt::format("--json '{}' is not a regular file (a directory, a FIFO, a device)", json_path));
    const nlohmann::json done = nlohmann::json::parse(common::read_file(json_path, common::MaxRecordFile, "--json"), nullptr, false);
    if (done.is_discarded() || !done.is_object() || !done.contains("settings") || !same_match(done["settings"], settings_json(s)))
        return false;
    const nlohmann::json played = done.value("played_games", nlohmann::json()), stopped = done.value("stopped_by_sprt", nlohmann::json());
    return (played.is_number_integer() && played.get<long long>() >= scheduled_games(s)) || (stopped.is_boolean() && stopped.get<bool>());
}

// Plays the match here, with resume, records, reports and the result files.
int run_locally(const MatchSettings& s, MatchOptions* o) {
    // A shard whose result file already holds its games (a Slurm task submitted again after
    // it had finished) has nothing to do.
    if (s.shard_count > 1 && holds_finished_match(o->json_path, s)) {
        if (!o->quiet) fmt::print("{} already holds this shard's {} games\n", o->json_path, scheduled_games(s));
        return 0;
    }
    // Finished games go to the state file as they come, so that an interrupted run
    // restarted with the same command continues where it stopped.
    if (!o->resume_path.empty()) {
        if (!std::filesystem::exists(o->resume_path)) throw common::InputError(fmt::format("no state file '{}'", o->resume_path));
        o->state_path = o->resume_path;
    }
    if (o->state_path.empty()) o->state_path = o->json_path.empty() ? "loa-match.state" : o->json_path + ".state";
    // The same command once more after the match finished (a long run resumed session after
    // session, one time too many) would start it over: its PGN emptied at once, its result
    // replaced. Without a state file to resume there is nothing left to play.
    if (!o->fresh && !std::filesystem::exists(o->state_path) && holds_finished_match(o->json_path, s))
        throw common::InputError(fmt::format("{} already holds this match, played to its end; `loa-match merge {}` "
                                             "prints its summary, --fresh plays it again",
                                             o->json_path, o->json_path));
    const common::FileLock claim(o->state_path);  // before the state file is read: no other run writes it
    check_result_path(o->json_path, settings_json(s), "--json", /*any_shard=*/false);
    if (!o->plot_path.empty()) check_plot_outputs(o->plot_path);  // before a game: not after the match
    StateFile state(o->state_path, s);
    if (o->fresh) state.remove();
    // The PGN gathers games: this run's records begin where the file ended when the run began
    // (kept in the state file, also through a resume without --pgn), and a resumed run
    // rewrites only what it wrote itself.
    const std::optional<PgnStarts> recorded = state.recorded_pgn_starts();
    if (recorded) state.set_pgn_starts(*recorded);
    const std::vector<GameRecord> saved = state.load_all();  // with half-played pairs: run_match plays them again
    const std::vector<GameRecord> resumed = whole_pairs(saved);
    if (!resumed.empty() && !o->quiet) fmt::print("Resuming from {}: {} games already played\n", o->state_path, resumed.size());
    const bool pgn = !o->pgn_path.empty();
    std::optional<common::FileLock> pgn_claim;  // no other run appends to it meanwhile
    if (pgn) {
        if (!common::names_a_special_file(o->pgn_path)) pgn_claim.emplace(o->pgn_path);
        PgnStart start = pgn_start_of_run(o->pgn_path, s.event, recorded.value_or(PgnStarts{}), !recorded, saved);
        // Written (the resumed games) only now: a run refused above leaves the PGN alone.
        restart_pgn_at(start, records_text(resumed, s.event));
        start.event = s.event;
        PgnStarts starts = recorded.value_or(PgnStarts{});
        starts.insert_or_assign(start.path, start);
        state.set_pgn_starts(starts);
        state.save_header();
    }

    const int total_per_pairing = 2 * ((s.games + 1) / 2);
    const int scheduled = scheduled_games(s);
    std::map<std::pair<int, int>, PairingStats> latest;  // for --report-every
    {
        // Resumed pairings are in the reports from the start, those whose SPRT had decided
        // too (they play no more games).
        MatchResult before;
        before.games = resumed;
        tally(s, before, SprtReplay::GivenOrder);
        for (const PairingStats& p : before.pairings)
            if (p.games.games() > 0) latest[{p.first, p.second}] = p;
    }
    int finished = static_cast<int>(resumed.size()), played_this_run = 0;  // whole pairs: a half-played one is played again
    const auto run_start = std::chrono::steady_clock::now();
    // The games in play, for watchers (loa serve's Watch tab), beside the state file.
    LiveFile live(o->state_path + ".live");
    MatchCallbacks callbacks;
    callbacks.on_game = [&](const GameRecord& g, const PairingStats& p) {
        try {
            state.append(g);
            if (pgn) append_pgn(o->pgn_path, records_text({g}, s.event));
        } catch (const common::InputError&) {
            // A failed write (a full disk) stops the run at once, as an interrupt would: the
            // games in play are dropped, every finished game is in the state file, and the
            // same command resumes once the cause is gone. The error is the run's answer.
            interrupt_requested.store(true);
            throw;
        }
        live.finished(g.index);
        ++finished;
        ++played_this_run;
        latest[{p.first, p.second}] = p;
        std::vector<PairingStats> pairings;
        for (const auto& [key, stats] : latest) pairings.push_back(stats);
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - run_start;
        print_after_game(s, *o, g, p, {pairings, finished, scheduled, elapsed.count(), played_this_run, total_per_pairing / s.shard_count});
    };
    callbacks.on_start = [&](int index, const std::string& white, const std::string& black) {
        if (o->quiet || o->format == OutputFormat::Native) return;
        fmt::print("{}\n", started_game_line(index + 1, scheduled, white, black));
        std::fflush(stdout);
    };
    callbacks.on_move = [&live](const GameInPlay& g) { live.update(g); };
    callbacks.interrupt = &interrupt_requested;
    callbacks.keep_games = false;  // the state file has every finished game: memory stays flat
    install_interrupt_handlers();
    MatchResult result = run_match(s, callbacks, saved);
    // The run kept only counts; the records, moves included, are read back from the state
    // file for the summary, the plot and the JSON.
    result.games = state.load();
    // The state file holds the games in the order they were counted (resumed ones first): kept
    // in the JSON, for the plot and any check to replay the SPRT as it was decided.
    for (const GameRecord& g : result.games) result.counting_order.push_back(g.index);
    if (result.interrupted) {
        // What a resume counts: the whole pairs, in this order. The live counts also held the
        // first games of pairs in play, which a resume plays again; the summary and the footer
        // count the same games. The decisions are the ones the run took (the same replay).
        recount(s, result, SprtReplay::GivenOrder);
    }
    // The result lists them in schedule order, as merge and the Slurm driver do (the counts and
    // the decisions taken while playing do not depend on it).
    sort_into_schedule_order(result.games);
    if (static_cast<int>(result.games.size()) != result.finished_games && !result.interrupted)
        fmt::print(stderr, "warning: the state file holds {} games, the run finished {}\n", result.games.size(),
                   result.finished_games);
    if (result.interrupted) {
        fmt::print("{}", summary(s, result));
        const int half_played = result.finished_games - static_cast<int>(result.games.size());
        fmt::print("Interrupted after {} of {} games; the games in play were dropped and every engine stopped.\n"
                   "{}Run the same command again to resume from {}.\n",
                   result.games.size(), result.scheduled_games,
                   half_played > 0 ? fmt::format("The first game{} of {} pair{} in play {} not counted: {} played again on resume.\n",
                                                 half_played == 1 ? "" : "s", half_played, half_played == 1 ? "" : "s",
                                                 half_played == 1 ? "is" : "are", half_played == 1 ? "it is" : "they are")
                                   : "",
                   o->state_path);
        return 130;
    }
    write_outputs(s, result, o);
    // The run is complete: its result is in the outputs. A run limited by --max-pairs keeps
    // its state, for the next round to resume from (even when it played its whole shard).
    if (s.max_pairs == 0) state.remove();
    return 0;
}

// Options of the match that a Slurm task does not get from the driver's command line (with
// their arity), beside those no task of any command gets: the outputs (each task writes its
// own result file), and what each task is given instead.
const std::map<std::string, int> MatchDriverOnlyOptions = {
    {"--json", 1},  {"--pgn", 1},   {"--plot", 1},         {"--state", 1}, {"--resume", 1},     {"--fresh", 0},
    {"-q", 0},      {"--quiet", 0}, {"--report-every", 1}, {"--sprt", 1},  {"--max-pairs", 1}, {"--slurm-round", 1}};

// The match as a Slurm job array of shards (matches/slurm_driver.hpp), followed here with the
// same progress lines, and merged into the same outputs as a local run.
int run_on_slurm(const MatchSettings& s, MatchOptions* o) {
    if (s.shard_count > 1) throw common::InputError("--slurm splits the match itself: leave out --shard");
    if (!o->resume_path.empty()) throw common::InputError("--slurm: run the same command again to resume, without --resume");
    if (s.max_pairs > 0) throw common::InputError("--slurm sets each task's --max-pairs itself: leave it out");
    check_result_path(o->json_path, settings_json(s), "--json", /*any_shard=*/false);
    if (!o->plot_path.empty()) check_plot_outputs(o->plot_path);
    install_interrupt_handlers();
    SlurmDriver driver(o->slurm, {"loa-match", "json.state", (o->json_path.empty() ? "loa-match" : o->json_path) + ".slurm", 0});
    if (o->fresh) driver.discard_earlier_run("--fresh", "scancel them first");
    // With an SPRT the run goes in rounds: each task plays `round_pairs` more of its game
    // pairs (--max-pairs), the merged LLR is checked, and no round starts once it is decided.
    const int scheduled = scheduled_games(s);
    const int most_pairs = (scheduled / 2 + driver.tasks() - 1) / driver.tasks();  // of one task
    const int round_pairs = !s.sprt ? most_pairs : o->slurm_round > 0 ? o->slurm_round : std::max(1, (most_pairs + 9) / 10);
    int limit = 0;  // pairs a task plays by the end of this round (0: all)
    SlurmRun& run = driver.start(o->args, MatchDriverOnlyOptions, [&](int task) {
        std::vector<std::string> extra = {"--shard", fmt::format("{}/{}", task, driver.tasks()), "--json",
                                          driver.task_file(task, "json"), "-q"};
        if (limit > 0) extra.insert(extra.end(), {"--max-pairs", std::to_string(limit)});
        return extra;
    });
    if (!o->quiet) fmt::print("Slurm: {} tasks, their files in {}\n", driver.tasks(), driver.dir());
    std::fflush(stdout);
    // The PGN is written once, at the end. Where the run's records begin is kept in the run
    // directory, so that a driver killed while writing them (or before it cleaned up) and
    // started again rewrites its own records instead of adding them twice.
    std::optional<PgnStart> pgn_start;
    std::optional<common::FileLock> pgn_claim;
    if (!o->pgn_path.empty()) {
        if (!common::names_a_special_file(o->pgn_path)) pgn_claim.emplace(o->pgn_path);
        const std::string start_file = driver.dir() + "/pgn-start";
        PgnStarts recorded;
        if (const auto text = common::read_file_if_exists(start_file, common::MaxListFile, "--slurm-dir"))
            recorded = pgn_starts_from_json(nlohmann::json::parse(*text, nullptr, false));
        const PgnStart end = pgn_end(o->pgn_path, s.event);
        if (const auto it = recorded.find(end.path); it != recorded.end()) {
            pgn_start = it->second;
        } else {
            pgn_start = end;
            recorded.insert_or_assign(end.path, end);
            common::replace_file(start_file, pgn_starts_json(recorded).dump() + '\n', common::in_own_directory("the run directory's PGN start"));
        }
    }

    // Progress from the tasks' state files: every game once (a resumed task writes some again).
    std::set<int> seen;
    std::vector<PairingStats> pairings = pairings_of(s);
    std::map<int, std::vector<GameRecord>> pending;
    const int per_round = static_cast<int>(pairings.size());
    const int total_per_pairing = 2 * ((s.games + 1) / 2);
    const auto run_start = std::chrono::steady_clock::now();
    int finished = 0;
    auto report = [&](const GameRecord& g) {
        if (!seen.insert(g.index).second) return;
        PairingStats& p = pairings[static_cast<std::size_t>(g.pair % per_round)];
        add_game(p, g, s.engines[static_cast<std::size_t>(p.first)].name, pending[g.pair % per_round]);
        ++finished;
        const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - run_start;
        print_after_game(s, *o, g, p, {pairings, finished, scheduled, elapsed.count(), finished, total_per_pairing});
    };
    auto on_line = [&](int, const std::string& line) {
        const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
        if (!j.is_discarded() && j.contains("game")) report(game_from_json(j));  // not the settings line
    };
    auto on_done = [&](int task) {
        for (const GameRecord& g : merge_result_files({run.result_file(task)}).games) report(g);
    };
    const std::string round_file = driver.dir() + "/round";
    int round = 0;
    if (const auto text = common::read_file_if_exists(round_file, common::MaxListFile, "--slurm-dir"))  // a restarted driver
        round = common::parse_int(common::trim(*text)).value_or(0);                                         // goes on with its round
    MatchResult result;
    std::vector<std::string> files;
    for (int t = 1; t <= driver.tasks(); ++t) files.push_back(run.result_file(t));
    for (bool resumed_round = round > 0;; resumed_round = false) {
        if (!resumed_round) {
            ++round;
            if (s.sprt) run.start_round();  // the tasks' results of the last round go
            common::replace_file(round_file, fmt::format("{}\n", round), common::in_own_directory("the run directory's round"));
        }
        limit = s.sprt ? std::min(round * round_pairs, most_pairs) : 0;
        if (s.sprt && !o->quiet) fmt::print("Slurm: round {}, each task up to {} game pairs\n", round, limit);
        const auto games_so_far = [&] { return fmt::format("after {} of {} games", finished, scheduled); };
        if (!driver.follow(on_line, on_done, interrupt_requested, games_so_far, "merge their results")) return 130;
        result = MatchResult{};
        result.games = merge_result_files(files).games;
        result.scheduled_games = scheduled;
        result.finished_games = static_cast<int>(result.games.size());
        tally(s, result);
        if (!s.sprt) break;
        // The decision is taken on the merged games at the end of a round, and only there (a
        // replay in schedule order may cross a bound inside a round that the run never saw).
        for (PairingStats& p : result.pairings) {
            p.decision = SprtDecision::Continue;
            if (result.pairings.size() == 1) update_sprt(p, *s.sprt);
        }
        if (result.pairings[0].decision != SprtDecision::Continue && result.pairings.size() == 1) {
            result.stopped_by_sprt = limit < most_pairs;
            break;
        }
        if (limit >= most_pairs) break;
        if (o->report_every <= 0 && !o->quiet)
            fmt::print("{}", interim_report(s, result.pairings, result.finished_games, scheduled,
                                            std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count(),
                                            result.finished_games));
    }
    if (static_cast<int>(result.games.size()) != scheduled && !result.stopped_by_sprt)
        throw common::InputError(fmt::format("--slurm: the tasks' results hold {} games, not the {} scheduled", result.games.size(), scheduled));
    if (pgn_start) {
        check_own_records(*pgn_start, result.games);
        restart_pgn_at(*pgn_start, records_text(result.games, s.event));
    }
    write_outputs(s, result, o);
    run.clean_up();  // complete: its result is in the outputs (as a local run's state)
    return 0;
}

int run_match_command(MatchOptions* o) {
    o->format = parse_output_format(o->format_text);
    const MatchSettings s = build_settings(o);
    check_external_engines(s);
    return o->slurm.enabled() ? run_on_slurm(s, o) : run_locally(s, o);
}

}  // namespace

std::pair<int, int> parse_shard(const std::string& text) {
    const auto slash = text.find('/');
    const int i = common::parse_int(text.substr(0, slash)).value_or(0);
    const int n = slash == std::string::npos ? 0 : common::parse_int(text.substr(slash + 1)).value_or(0);
    if (n < 1 || i < 1 || i > n) throw common::InputError(fmt::format("shard: expected i/N with 1 <= i <= N, not '{}'", text));
    return {i - 1, n};
}

std::pair<int, int> parse_range(const std::string& text, int low, int high, const std::string& what) {
    const auto dots = text.find("..");
    const auto lo = common::parse_int(text.substr(0, dots));
    const auto hi = dots == std::string::npos ? lo : common::parse_int(text.substr(dots + 2));
    if (!lo || !hi || *lo < low || *hi < *lo || *hi > high)
        throw common::InputError(fmt::format("{}: bad '{}' (N or N1..N2, from {} to {})", what, text, low, high));
    return {*lo, *hi};
}

std::string first_steps() {
    return "loa-match: matches between LOA engines and search variants, with Elo, SPRT and game records.\n"
           "\n"
           "Two engines of this program at 20,000 nodes a move, 100 games on 2 cores:\n"
           "  loa-match --engine name=rhh,preset=full,nodes=20000 --engine name=hh,preset=full,history=absolute,nodes=20000 \\\n"
           "            --games 100 -j 2 --pgn games.pgn --json result.json\n"
           "An SPRT of a change against a baseline binary, at 5+0.05 s (fastchess's spelling works too):\n"
           "  loa-match --test preset=full --base cmd=./loa-base,args=uci,proto=uci --tc stc \\\n"
           "            --sprt elo0=0,elo1=10 --games 20000 -j 1 --json sprt.json\n"
           "  loa-match -engine cmd=./loa name=new args=uci -engine cmd=./loa-base name=base args=uci \\\n"
           "            -each tc=5+0.05 -rounds 10000 -repeat -concurrency 1 -sprt elo0=0 elo1=10\n"
           "\n"
           "Every option: loa-match --help. The default match of the main job: bash scripts/main.sh.\n";
}

Command add_match_command(CLI::App& app, const std::vector<std::string>& args) {
    auto o = std::make_shared<MatchOptions>();
    o->args = args;
    app.add_option("-e,--engine", o->engine_texts,
                   "Engine: name=X,<search keys>,depth=|nodes=|st=|tc=,eval=... (repeat; see 'loa variants')");
    app.add_option("--test", o->test_text, "Test-vs-base run: the engine under test (named 'test' unless name= is given)");
    app.add_option("--base", o->base_text, "Test-vs-base run: the engine it is measured against (named 'base'); see scripts/build-baseline.sh");
    app.add_option("--tc", o->tc_text, "Time control of every engine without a limit of its own: stc (5+0.05), ltc (20+0.2) or BASE+INC seconds");
    app.add_option("--report-every", o->report_every, "Print the summary so far every N finished games (also with -q)")->check(CLI::Range(1, 100000000));
    app.add_option("-g,--games", o->games, "Games per pairing (rounded up to whole pairs)")->check(CLI::Range(1LL, MaxGamesPerPairing))->capture_default_str();
    app.add_option("-j,--concurrency", o->concurrency, "Games played at once (default: cores - 1)")->check(CLI::Range(1, 1024))->take_last();
    app.add_option("--openings", o->openings_file, "Openings file: a position string or a move list a line");
    app.add_option("--opening-plies", o->opening_plies, "Random plies of generated openings")->check(CLI::Range(0, 40))->capture_default_str();
    app.add_option("--opening-count", o->opening_count, "Generated openings (default: one per pair)")->check(CLI::Range(1, 1000000));
    app.add_option("--opening-balance", o->balance_score, "Keep generated openings whose depth-3 score is within this")->capture_default_str();
    app.add_option("--openings-order", o->order, "sequential or random (seeded)")->check(CLI::IsMember({"sequential", "random"}))->capture_default_str();
    app.add_option("--seed", o->seed, "Seed of opening generation and order")->capture_default_str();
    app.add_option("--start", o->start, "Start position: standard or eggs (Scrambled Eggs)")->check(CLI::IsMember({"standard", "eggs"}))->capture_default_str();
    app.add_option("--rules", o->rules_text, "Rules: a named set (olympiad, codingame, loabot, openspiel) and/or key=value list (plylimit=N adjudicates a draw)")->capture_default_str();
    app.add_option("--sprt", o->sprt_text, "SPRT per pairing, Elo from its first engine's side (--test, or a gauntlet's base): elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized|logistic");
    app.add_option("--resign", o->resign_text, "Resign adjudication: score=600,moves=3 (both engines agree)");
    app.add_option("--time-margin", o->time_margin, "Milliseconds a clock may overrun before the game is lost (or 0.5s)")->transform(common::milliseconds(true))->capture_default_str();
    app.add_option("--pgn", o->pgn_path, "Append the games to this PGN file (what it held before is kept)");
    app.add_option("--json", o->json_path, "Write the result as JSON");
    app.add_option("--shard", o->shard_text, "Play the i-th of N disjoint parts of the schedule: i/N")->capture_default_str();
    app.add_option("--event", o->event, "Event name in records and JSON")->capture_default_str();
    app.add_option("--plot", o->plot_path, "Draw Elo (and LLR) over the games into this PNG (gnuplot)");
    app.add_option("--state", o->state_path, "State file of finished games (default: <json>.state or loa-match.state)");
    app.add_option("--resume", o->resume_path, "Continue the interrupted run saved in this state file");
    app.add_flag("--fresh", o->fresh, "Ignore (and replace) an existing state file");
    app.add_flag("--gauntlet", o->gauntlet, "First engine against each other one (default: round robin)");
    app.add_flag("-q,--quiet", o->quiet, "Only the summary");
    app.add_option("--output-format", o->format_text,
                   "Lines printed: native, cutechess (cutechess-cli's) or fastchess (fastchess's), for scripts that read them")
        ->check(CLI::IsMember({"native", "cutechess", "fastchess"}))
        ->capture_default_str();
    add_slurm_options(app, o->slurm, {"Play the match as a Slurm job array of N tasks (shards), follow and merge them", "<json>.slurm", "Games"});
    app.add_option("--slurm-round", o->slurm_round, "With --sprt: game pairs each task plays per round (default: a tenth of its share)")
        ->check(CLI::Range(1, 10000000));
    app.add_option("--max-pairs", o->max_pairs, "Play only the first N game pairs of this shard; the same command with a larger N goes on (Slurm rounds)")
        ->check(CLI::Range(1, 100000000));
    return {nullptr, [o] { return run_match_command(o.get()); }};
}

}  // namespace matches::cli
