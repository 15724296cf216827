#include <map>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/files.hpp"
#include "matches/cli/commands.hpp"
#include "matches/merge.hpp"
#include "matches/own_files.hpp"
#include "matches/pgn_output.hpp"
#include "matches/plot.hpp"
#include "matches/records.hpp"
#include "matches/report.hpp"
#include "matches/state.hpp"

namespace matches::cli {
namespace {

// loa-match merge: one result from the result files of shards or partial runs of one match.
int merge_results(const std::vector<std::string>& files, const std::string& json_path, const std::string& pgn_path,
                  const std::string& plot_path) {
    MergedGames merged = merge_result_files(files);
    // Before anything is written.
    check_result_path(json_path, merged.settings, "--json", /*any_shard=*/true);
    if (!plot_path.empty()) check_plot_outputs(plot_path);
    const std::optional<PgnStart> pgn_start = pgn_path.empty() ? std::nullopt : std::optional(pgn_end(pgn_path, merged.event));
    MatchSettings s = settings_from_json(merged.settings);
    s.event = merged.event;
    MatchResult result;
    result.games = std::move(merged.games);
    result.scheduled_games = static_cast<int>(result.games.size());
    tally(s, result);
    keep_recorded_decisions(merged.single_run, s, result);
    fmt::print("Merged {} files: {} games\n{}", files.size(), result.games.size(), summary(s, result));
    if (!json_path.empty()) {
        common::replace_file(json_path, result_json(s, result) + '\n', own::result_json());
        fmt::print("Result written to {}\n", json_path);
    }
    if (!pgn_path.empty()) {
        append_pgn(pgn_start->path, records_text(result.games, s.event));
        fmt::print("Games written to {}\n", pgn_path);
    }
    if (!plot_path.empty()) {
        write_plot(s, result, plot_path);
        fmt::print("Plot written to {}\n", plot_path);
    }
    return 0;
}

}  // namespace

Command add_merge_command(CLI::App& app) {
    struct Options {
        std::vector<std::string> files;
        std::string json, pgn, plot;
    };
    auto o = std::make_shared<Options>();
    CLI::App* merge = app.add_subcommand("merge", "Combine the result files of shards (or runs) of one match");
    merge->add_option("files", o->files, "Result files written with --json")->required()->check(CLI::ExistingFile);
    merge->add_option("--json", o->json, "Write the merged result");
    merge->add_option("--pgn", o->pgn, "Append the merged games to this PGN file");
    merge->add_option("--plot", o->plot, "Draw the merged match");
    return {merge, [o] { return merge_results(o->files, o->json, o->pgn, o->plot); }};
}

}  // namespace matches::cli
