#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "common/cli_checks.hpp"
#include "common/error.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "loa/evaluation.hpp"
#include "matches/cli/commands.hpp"
#include "matches/own_files.hpp"
#include "matches/tune.hpp"

namespace matches::cli {

Command add_tune_command(CLI::App& app) {
    struct Options {
        TuneSettings settings;
        std::string out, start, freeze, rules = "olympiad";
        bool flat = false, fixed_stm = false;
    };
    auto o = std::make_shared<Options>();
    CLI::App* tune = app.add_subcommand("tune", "Fit the evaluation weights to game results (Texel's method, logistic regression)");
    tune->add_option("records", o->settings.record_files, "Game records written by --pgn")->required()->check(CLI::ExistingFile);
    tune->add_option("--out", o->out, "Write the tuned weights (JSON, for eval=FILE.json / loa --weights)");
    tune->add_option("--start", o->start, "Starting weights (JSON; default: the built-in evaluation)");
    tune->add_option("--per-game", o->settings.per_game, "Positions taken from each game (0: all)")->check(common::positive_number(true))->capture_default_str();
    tune->add_option("--min-ply", o->settings.min_ply, "Earliest ply taken")->check(common::positive_number(true))->capture_default_str();
    tune->add_option("--seed", o->settings.seed, "Seed of the sampling and of the held-out games")->capture_default_str();
    tune->add_option("--holdout", o->settings.holdout, "Share of games kept out of the fit to check it")->check(CLI::Range(0.0, 0.9))->capture_default_str();
    tune->add_option("--freeze", o->freeze, "Features kept at their starting weight: name,name,...");
    tune->add_flag("--flat", o->flat, "One weight a feature for the whole game (default: opening and endgame weights)");
    tune->add_flag("--fixed-side-to-move", o->fixed_stm, "Keep the side-to-move bonus");
    tune->add_option("--l2", o->settings.l2, "Pull towards the starting weights")->check(common::positive_number(true))->capture_default_str();
    tune->add_option("--iterations", o->settings.max_iterations, "Most Newton steps")->check(CLI::Range(1, 1000))->capture_default_str();
    tune->add_option("--rules", o->rules, "Rules the games were played under")->capture_default_str();
    return {tune, [o] {
                if (!o->out.empty()) common::check_replaceable(o->out, own::weights_file());
                if (!o->start.empty()) o->settings.start = loa::load_weights_file(o->start);
                o->settings.rules = loa::parse_rules(o->rules);
                o->settings.tapered = !o->flat;
                o->settings.tune_side_to_move = !o->fixed_stm;
                for (const std::string_view name : common::split(o->freeze, ',')) {
                    if (name.empty()) continue;
                    const auto f = loa::feature_from_name(name);
                    if (!f) throw common::InputError(fmt::format("tune: unknown feature '{}' in --freeze", name));
                    if (std::find(o->settings.frozen.begin(), o->settings.frozen.end(), *f) == o->settings.frozen.end())
                        o->settings.frozen.push_back(*f);
                }
                fmt::print("Collecting quiet positions from {} file(s)...\n", o->settings.record_files.size());
                std::fflush(stdout);
                const auto samples = collect_samples(o->settings);
                const TuneReport report = fit_weights(o->settings, samples);
                fmt::print("{}", tune_summary(o->settings, report));
                if (!o->out.empty()) {
                    common::replace_file(o->out, loa::weights_to_json(report.weights) + '\n', own::weights_file());
                    fmt::print("Weights written to {}\n", o->out);
                }
                return 0;
            }};
}

}  // namespace matches::cli
