
#include <fmt/format.h>

#include "common/cli_checks.hpp"
#include "common/error.hpp"
#include "common/files.hpp"
#include "matches/cli/commands.hpp"
#include "matches/own_files.hpp"
#include "matches/realization_learning.hpp"

namespace matches::cli {

Command add_learn_rps_command(CLI::App& app) {
    struct Options {
        RealizationLearning settings;
        std::string out, rules = "olympiad";
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "learn-rps", "Learn the realization probabilities of move categories from game records (for erps=on, rps=FILE)");
    cmd->add_option("records", o->settings.record_files, "Game records written by --pgn")->required()->check(CLI::ExistingFile);
    cmd->add_option("--out", o->out, "Write the probabilities (JSON, for the engine key rps=FILE)")->required();
    cmd->add_option("--min-ply", o->settings.min_ply, "Earliest ply counted (-1: from the end of each game's opening)")
        ->check(CLI::Range(-1, 1000))
        ->capture_default_str();
    cmd->add_option("--smoothing", o->settings.smoothing, "Prior weight (in available moves) of the mean probability")
        ->check(common::positive_number(true))
        ->capture_default_str();
    cmd->add_option("--rules", o->rules, "Rules the games were played under")->capture_default_str();
    return {cmd, [o] {
                if (!o->out.empty()) common::check_replaceable(o->out, own::realization_file());
                o->settings.rules = loa::parse_rules(o->rules);
                const auto p = learn_realization(o->settings);
                fmt::print("{}", realization_summary(p));
                common::replace_file(o->out, loa::realization_to_json(p) + '\n', own::realization_file());
                fmt::print("Probabilities written to {}\n", o->out);
                return 0;
            }};
}

}  // namespace matches::cli
