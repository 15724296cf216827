// loa-match spsa: tunes numeric search keys by SPSA in self-play (matches/spsa.hpp, docs/spsa.md).
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "loa/position_text.hpp"
#include "matches/cli/commands.hpp"
#include "matches/engine_spec.hpp"
#include "matches/own_files.hpp"
#include "matches/spsa_run.hpp"

namespace matches::cli {
namespace {

// "name=value,..." of theta rounded as the engine plays it: what an SPRT of the result takes.
std::string tuned_keys(const SpsaSettings& s, const std::vector<double>& theta) {
    return spsa_engine_keys(s.params, theta, parse_engine_spec(s.engine, 0).config);
}

// The engine string without its name= (the SPRT command names its two engines itself).
std::string without_name(const std::string& engine) {
    std::string out;
    for (const auto& [key, value] : common::parse_key_values(engine, "engine"))
        if (key != "name") out += fmt::format("{}{}{}{}", out.empty() ? "" : ",", key, value.empty() ? "" : "=", value);
    return out;
}

// --json and --plot (with its .dat and .gp) must not replace the run's own file.
void check_not_the_run_file(const std::string& output, const std::string& run_file, const char* option) {
    namespace fs = std::filesystem;
    std::error_code e1, e2;
    if (output == run_file || (fs::exists(output, e1) && fs::equivalent(output, run_file, e2)))
        throw common::InputError(fmt::format("spsa: {} '{}' is the run's file (--out): give it another name", option, output));
}

std::string theta_text(const SpsaSettings& s, const std::vector<double>& theta) {
    std::string out;
    for (std::size_t i = 0; i < s.params.size(); ++i) out += fmt::format("{}{}={:.2f}", i ? " " : "", s.params[i].name, theta[i]);
    return out;
}

}  // namespace

Command add_spsa_command(CLI::App& app) {
    struct Options {
        std::vector<std::string> params;
        std::string tc = "stc", openings, start = "startpos", rules, out, json, plot;
        int report_every = 0;
        SpsaSettings s;
    };
    auto o = std::make_shared<Options>();
    CLI::App* spsa = app.add_subcommand(
        "spsa",
        "Tune numeric search keys by SPSA (fishtest's form): each iteration plays game pairs between theta + c_k and "
        "theta - c_k and moves theta by the result. Resumed when run again on its --out file (docs/spsa.md)");
    spsa->add_option("--engine", o->s.engine, "Both sides: an in-process engine string; the tuned keys go on top")->capture_default_str();
    spsa->add_option("--param", o->params,
                     "NAME=start,min,max[,c_end[,r_end]]: a search key taking an integer (lmr_min_moves, aspiration, tm_max, ...) "
                     "or a margin half (futility.opening); c_end defaults to (max - min) / 20 (at least 0.5), r_end to 0.002. Repeat for each")
        ->required();
    spsa->add_option("--tc", o->tc, "Time control when the engine string has no limit: stc, ltc or BASE+INC seconds")->capture_default_str();
    spsa->add_option("--iterations", o->s.schedule.iterations, "Iterations (the schedule's N: c and a reach c_end and r_end at the last)")
        ->check(CLI::Range(1, 1'000'000))->capture_default_str();
    spsa->add_option("--pairs", o->s.pairs, "Game pairs an iteration (one sign vector, one update)")->check(CLI::Range(1, 1000))->capture_default_str();
    spsa->add_option("--alpha", o->s.schedule.alpha, "Decay exponent of the step a_k")->check(CLI::Range(0.0, 1.0))->capture_default_str();
    spsa->add_option("--gamma", o->s.schedule.gamma, "Decay exponent of the perturbation c_k")->check(CLI::Range(0.0, 1.0))->capture_default_str();
    spsa->add_option("--a-ratio", o->s.schedule.a_ratio, "The stability constant A as a share of the iterations")
        ->check(CLI::Range(0.0, 10.0))->capture_default_str();
    spsa->add_option("--openings", o->openings, "Openings file (a position or a move list a line), played in a seeded order")->required();
    spsa->add_option("--start", o->start, "The start position the openings' moves are from (startpos, eggs or text)")->capture_default_str();
    spsa->add_option("--seed", o->s.seed, "Seed of the signs and of the openings' order")->capture_default_str();
    spsa->add_option("-j,--concurrency", o->s.threads, "Games at once (the run is the same for any number)")->check(CLI::Range(1, 1024))->capture_default_str();
    spsa->add_option("--rules", o->rules, "Rules: a named set or key=value list (default olympiad)");
    spsa->add_option("--out", o->out, "The run's record and state (JSON lines; run again on it to resume)")->required();
    spsa->add_option("--json", o->json, "Write the result: start, final theta, the engine keys that play it, the games");
    spsa->add_option("--plot", o->plot, "Write a PNG of each parameter over the iterations (gnuplot; data beside it)");
    spsa->add_option("--report-every", o->report_every, "Print theta every this many iterations (default: 50 reports a run)")
        ->check(CLI::Range(0, 1'000'000));
    return {spsa, [o] {
                if (!o->json.empty()) common::check_replaceable(o->json, own::spsa_json());
                SpsaSettings& s = o->s;
                for (const std::string& p : o->params) s.params.push_back(parse_spsa_param(p));
                if (!has_limit(s.engine)) s.engine += ",tc=" + o->tc;
                s.rules = o->rules.empty() ? loa::RuleSet{} : loa::parse_rules(o->rules);
                const loa::Position start = loa::position_from_argument(o->start);
                s.openings = load_openings(o->openings, start, s.rules);
                s.openings_name = std::filesystem::path(o->openings).filename().string();  // the digest names the content
                const int every = o->report_every > 0 ? o->report_every : std::max(1, s.schedule.iterations / 50);
                const auto began = std::chrono::steady_clock::now();
                int wins = 0, draws = 0, losses = 0;
                s.on_iteration = [&](int k, const std::vector<double>& theta, int w, int d, int l) {
                    wins += w, draws += d, losses += l;
                    if (k % every != 0 && k != s.schedule.iterations) return;
                    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
                    fmt::print("spsa: {}/{} iterations, plus engine +{}={}-{}, {:.0f} s: {}\n", k, s.schedule.iterations, wins, draws, losses,
                               seconds, theta_text(s, theta));
                    std::fflush(stdout);
                };
                fmt::print("spsa: {} parameters, {} iterations of {} pairs, engine '{}', {} openings, -j {}\n", s.params.size(),
                           s.schedule.iterations, s.pairs, s.engine, s.openings.size(), s.threads);
                if (!o->json.empty()) check_not_the_run_file(o->json, o->out, "--json");
                if (!o->plot.empty())
                    for (const std::string& file : {o->plot, o->plot + ".dat", o->plot + ".gp"}) check_not_the_run_file(file, o->out, "--plot");
                const SpsaResult r = run_spsa(s, o->out);
                const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
                const int played = static_cast<int>(r.iterations.size()) - r.resumed;
                fmt::print("\nspsa: {} iterations ({} read from {}, {} played in {:.0f} s), {} games; {} of this run's {} lost on time\n",
                           r.iterations.size(), r.resumed, o->out, played, seconds, 2 * s.pairs * static_cast<int>(r.iterations.size()),
                           r.time_losses, 2 * s.pairs * played);
                fmt::print("{:<20} {:>9} {:>9} {:>9} {:>9}\n", "parameter", "start", "final", "min", "max");
                for (std::size_t i = 0; i < s.params.size(); ++i)
                    fmt::print("{:<20} {:>9.2f} {:>9.2f} {:>9g} {:>9g}\n", s.params[i].name, r.start[i], r.theta[i], s.params[i].min,
                               s.params[i].max);
                const std::string keys = tuned_keys(s, r.theta);
                const std::string engine = without_name(s.engine);
                fmt::print("tuned engine keys: {}\n(an SPRT decides whether they are better: loa-match --test 'name=tuned,{},{}' --base "
                           "'name=base,{}' --openings ... --sprt elo0=0,elo1=10)\n",
                           keys, engine, keys, engine);
                if (!o->json.empty()) {
                    nlohmann::ordered_json j = {{"engine", s.engine},
                                                {"iterations", r.iterations.size()},
                                                {"of", s.schedule.iterations},
                                                {"pairs", s.pairs},
                                                {"wins", wins},
                                                {"draws", draws},
                                                {"losses", losses},
                                                {"time_losses_this_run", r.time_losses},
                                                {"tuned_keys", keys}};
                    for (std::size_t i = 0; i < s.params.size(); ++i)
                        j["params"].push_back({{"name", s.params[i].name}, {"start", r.start[i]}, {"final", r.theta[i]},
                                               {"played", std::lround(r.theta[i])}, {"min", s.params[i].min}, {"max", s.params[i].max}});
                    common::replace_file(o->json, j.dump(2) + "\n", own::spsa_json());
                }
                if (!o->plot.empty()) write_spsa_plot(s, r, o->plot);
                return 0;
            }};
}

}  // namespace matches::cli
