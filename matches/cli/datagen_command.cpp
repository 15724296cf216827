// loa-match datagen: self-play training data for a learned evaluation (matches/datagen.hpp).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include <fmt/format.h>

#include "loa/position_text.hpp"
#include "matches/cli/commands.hpp"
#include "matches/datagen.hpp"

namespace matches::cli {

Command add_datagen_command(CLI::App& app) {
    struct Options {
        std::string engine = "name=datagen,preset=full,nodes=5000", openings, start = "startpos", rules, out;
        DatagenSettings s;
    };
    auto o = std::make_shared<Options>();
    CLI::App* datagen = app.add_subcommand(
        "datagen",
        "Self-play training data: each position with the search's score, its best move and the game's result "
        "(text, one position a line; see docs/datagen.md). Seeded, and resumed when run again on its file");
    datagen->add_option("--engine", o->engine, "The engine playing both sides, in-process, with depth= or nodes=")->capture_default_str();
    datagen->add_option("--out", o->out, "The data file (appended to; a run on an existing file of the same settings resumes it)")->required();
    datagen->add_option("-g,--games", o->s.games, "Games the file holds when the run ends (a file holding more is left as it is)")->check(CLI::Range(1, 100'000'000))->capture_default_str();
    datagen->add_option("--openings", o->openings, "Openings file (a position or a move list a line; default: the start)");
    datagen->add_option("--start", o->start, "The start position the openings' moves are from (startpos, eggs or text)")->capture_default_str();
    datagen->add_option("--random-plies", o->s.random_plies, "Uniformly random legal plies after the opening, seeded per game")
        ->check(CLI::Range(0, 200))->capture_default_str();
    datagen->add_option("--skip-plies", o->s.skip_plies, "Positions left out after the random plies")->check(CLI::Range(0, 500))->capture_default_str();
    datagen->add_option("--max-score", o->s.max_abs_score, "Positions whose |score| is above this are left out (proven ones always)")
        ->check(CLI::Range(1, 100'000))->capture_default_str();
    datagen->add_flag("--keep-captures", o->s.keep_captures, "Keep positions whose best move is a capture");
    datagen->add_option("--max-plies", o->s.max_plies, "A game still going after this many plies is a draw")->check(CLI::Range(1, 10'000))->capture_default_str();
    datagen->add_option("--seed", o->s.seed, "Seed of the random plies")->capture_default_str();
    datagen->add_option("-j,--concurrency", o->s.threads, "Games at once (the file is the same for any number)")->check(CLI::Range(1, 1024))->capture_default_str();
    datagen->add_option("--rules", o->rules, "Rules: a named set or key=value list (default olympiad)");
    return {datagen, [o] {
                DatagenSettings& s = o->s;
                s.engine = parse_engine_spec(o->engine, 0);
                check_engine_files(s.engine);
                s.rules = o->rules.empty() ? loa::RuleSet{} : loa::parse_rules(o->rules);
                const loa::Position start = loa::position_from_argument(o->start);
                if (o->openings.empty()) {
                    s.openings = {Opening{o->start, start, {}}};
                    s.openings_name = o->start;
                } else {
                    s.openings = load_openings(o->openings, start, s.rules);
                    s.openings_name = std::filesystem::path(o->openings).filename().string();  // the digest names the content
                }
                const auto began = std::chrono::steady_clock::now();
                // Progress: one line rewritten on a terminal, a line every 5% of the games in a log.
                const bool terminal = isatty(STDERR_FILENO) != 0;
                const int every = std::max(1, s.games / 20);
                int last_step = -1;
                bool progress_shown = false;
                s.on_progress = [&](int done, std::uint64_t written) {
                    // (games are written in batches: a step is printed when one is passed)
                    if (!terminal && done / every == last_step && done != s.games) return;
                    last_step = done / every;
                    progress_shown = terminal;
                    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
                    fmt::print(stderr, "{}datagen: {}/{} games, {} positions written this run, {:.0f} s{}", terminal ? "\r" : "", done, s.games,
                               written, seconds, terminal ? "" : "\n");
                };
                const DatagenCounts c = generate_training_data(s, o->out);
                const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
                if (progress_shown) fmt::print(stderr, "\n");
                fmt::print("datagen: {} games played in {:.1f} s ({} were in the file already), {}: Black won {}, White {}, draws {} ({} at "
                           "the ply cap)\n",
                           c.games, seconds, c.resumed_games, o->out, c.black_wins, c.white_wins, c.draws, c.adjudicated);
                fmt::print("positions: {} searched, {} written; left out: {} in the first {} plies after the random ones, {} with a "
                           "capture as the best move, {} decisive (the opening and random plies are not searched)\n",
                           c.positions, c.written, c.skipped_early, s.skip_plies, c.skipped_capture, c.skipped_decisive);
                if (seconds > 0 && c.positions > 0) fmt::print("{:.0f} positions searched a second\n", static_cast<double>(c.positions) / seconds);
                return 0;
            }};
}

}  // namespace matches::cli
