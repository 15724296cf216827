#include "matches/spsa_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/bounded_io.hpp"
#include "common/error.hpp"
#include "common/file_lock.hpp"
#include "common/files.hpp"
#include "common/variant/keys.hpp"
#include "common/text.hpp"
#include "matches/file_digest.hpp"
#include "matches/game_runner.hpp"
#include "matches/own_files.hpp"
#include "matches/parallel.hpp"
#include "matches/player.hpp"
#include "matches/plot.hpp"

namespace matches {
namespace {

using common::InputError;
using Json = nlohmann::ordered_json;

constexpr std::size_t MaxLine = 1 << 20;  // a line of the run's file: a few hundred bytes a parameter

// The engine playing `values`: the base engine with the tuned keys on top.
EngineSpec engine_with(const SpsaSettings& s, const EngineSpec& base, const std::vector<double>& values, const char* name) {
    EngineSpec spec = parse_engine_spec(s.engine + "," + spsa_engine_keys(s.params, values, base.config), 0);
    spec.name = name;
    return spec;
}

std::vector<double> start_values(const SpsaSettings& s) {
    std::vector<double> v;
    for (const SpsaParam& p : s.params) v.push_back(p.start);
    return v;
}

// Why tuning `name` cannot change the base engine's play (empty when it can): a run would move
// theta on noise alone and print it as tuned.
std::string no_effect(const std::string& name, const EngineSpec& base) {
    const variant::VariantConfig& c = base.config;
    if (name.starts_with("tm_") && !base.time_control) return "the time manager's constants act on a clock (tc=) only";
    if ((name == "tm_max" || name == "tm_stable") && c.timeman != search::TimePolicy::Tournament)
        return "it belongs to timeman=tournament";
    if (name.starts_with("lmr_") && (!c.lmr || c.erps)) return "LMR is off in the engine (lmr=off or erps=on)";
    if (name.starts_with("mc_") && !c.multicut) return "multi-cut is off in the engine";
    if (name.starts_with("erps_") && !c.erps) return "ERPS is off in the engine";
    return {};
}

EngineSpec checked_base(const SpsaSettings& s) {
    const EngineSpec base = parse_engine_spec(s.engine, 0);
    if (base.external()) throw InputError("spsa: the engine must be in-process (no cmd=): the tuned values are its search keys");
    if (!base.depth && !base.nodes && base.move_time_ms <= 0 && !base.time_control)
        throw InputError(fmt::format("spsa: engine '{}' has no limit: give tc= (or nodes=, depth=, st=)", s.engine));
    if (s.params.empty()) throw InputError("spsa: no parameter to tune (--param NAME=start,min,max[,c_end[,r_end]])");
    std::set<std::string> keys;
    for (const SpsaParam& p : s.params) {
        // futility and futility.opening both set futility: one key, one parameter for each value.
        const std::string key = p.name.substr(0, p.name.find('.'));
        const std::string slot = p.name.find('.') == std::string::npos ? key + ".opening" : p.name;
        const std::string other = p.name.find('.') == std::string::npos ? key + ".endgame" : "";
        for (const std::string& taken : {slot, other})
            if (!taken.empty() && !keys.insert(taken).second)
                throw InputError(fmt::format("spsa: parameter '{}' is given twice (a margin and one of its halves count as both)", p.name));
    }
    if (s.pairs < 1 || s.threads < 1 || s.schedule.iterations < 1) throw InputError("spsa: iterations, pairs and -j must be positive");
    if (s.openings.empty()) throw InputError("spsa: no openings");
    for (const SpsaParam& p : s.params)
        if (const std::string why = no_effect(p.name, base); !why.empty())
            throw InputError(fmt::format("spsa: parameter '{}' would not change how the engine plays: {}", p.name, why));
    // The engine must take every value within the bounds: every corner of the box is checked
    // (keys can bound each other, mc_cuts <= mc_moves), so that a value it refuses fails now
    // rather than after hours of games. Each key takes a range, so the corners cover the box.
    constexpr std::size_t MaxCornerChecks = 12;  // 4096 engine strings
    if (s.params.size() > MaxCornerChecks)
        throw InputError(fmt::format("spsa: {} parameters; at most {} are tuned at once", s.params.size(), MaxCornerChecks));
    for (std::uint32_t corner = 0; corner < (1u << s.params.size()); ++corner) {
        std::vector<double> values;
        for (std::size_t i = 0; i < s.params.size(); ++i) values.push_back((corner >> i) & 1 ? s.params[i].max : s.params[i].min);
        try {
            (void)engine_with(s, base, values, "check");
        } catch (const InputError& e) {
            throw InputError(fmt::format("spsa: the engine refuses values within the bounds ({}): {}",
                                         spsa_engine_keys(s.params, values, base.config), e.what()));
        }
    }
    return base;
}

Json params_json(const std::vector<SpsaParam>& params) {
    Json out = Json::array();
    for (const SpsaParam& p : params)
        out.push_back({{"name", p.name}, {"start", p.start}, {"min", p.min}, {"max", p.max}, {"c_end", p.c_end}, {"r_end", p.r_end}});
    return out;
}

// Equal within the rounding of a decimal round trip (JSON keeps doubles exactly; this is for
// a file written by hand or another library).
bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(a) + std::abs(b)); }

std::vector<double> doubles(const Json& j, std::size_t count, const std::string& what) {
    if (!j.is_array() || j.size() != count) throw InputError(fmt::format("{}: expected {} numbers", what, count));
    std::vector<double> v;
    for (const auto& x : j) {
        if (!x.is_number()) throw InputError(fmt::format("{}: expected numbers", what));
        v.push_back(x.get<double>());
    }
    return v;
}

int count_field(const Json& j, const char* key, const std::string& what) {
    if (!j.contains(key) || !j[key].is_number_integer() || j[key].get<long long>() < 0 || j[key].get<long long>() > 1'000'000)
        throw InputError(fmt::format("{}: bad or missing '{}'", what, key));
    return j[key].get<int>();
}

std::string iteration_line(const SpsaIteration& it) {
    Json j = {{"k", it.k}, {"flips", it.flips}, {"plus", it.plus},   {"minus", it.minus},
              {"wins", it.wins}, {"draws", it.draws}, {"losses", it.losses}, {"theta", it.theta}};
    return j.dump() + '\n';
}

// A resolved engine's "key=value,..." as a map.
std::map<std::string, std::string> key_values(const std::string& text) {
    std::map<std::string, std::string> out;
    for (const auto& [key, value] : common::parse_key_values(text, "spsa header")) out.emplace(key, value);
    return out;
}

// Why a saved header is not this run's (empty when it is): every setting must be equal, but
// the engine is compared as it resolves, where a key only one side knows (added by a later
// build, at its default) is no difference, and the openings by their digest (the file may
// have moved). The engine text as typed is not compared.
std::string header_difference(const Json& saved, const Json& now) {
    if (!saved.is_object() || saved.value("format", "") != now["format"] || saved.value("version", 0) != now["version"])
        return "it is not an SPSA run's file of this version";
    for (const auto& [key, value] : now.items()) {
        if (key == "engine" || key == "openings") continue;
        if (!saved.contains(key)) return fmt::format("it has no '{}'", key);
        if (key == "plays") {
            if (!saved[key].is_string()) return "its engine is not text";
            const auto before = key_values(saved[key].get<std::string>()), after = key_values(value.get<std::string>());
            for (const auto& [k, v] : after)
                if (const auto it = before.find(k); it != before.end() && it->second != v)
                    return fmt::format("the engine plays {}={} where the saved run had {}={}", k, v, k, it->second);
            continue;
        }
        if (saved[key] != value) return fmt::format("its {} is {}, this run's {}", key, saved[key].dump(), value.dump());
    }
    return {};
}

// Reads and checks the iterations of an existing file; returns them and the length of the
// file that holds whole lines (a last line without its newline was cut by a kill).
std::pair<std::vector<SpsaIteration>, std::uintmax_t> read_iterations(const SpsaSettings& s, const std::string& path,
                                                                      const std::string& header) {
    common::FileReader reader(path, common::MaxRecordFile, "spsa");
    std::istream& in = reader.stream();
    std::string line;
    const auto first = common::read_bounded_line(in, line, MaxLine);
    if (first == common::LineRead::End || (line.empty() && in.eof()))
        throw InputError(fmt::format("spsa: '{}' is empty (a run killed as it began?): remove it, or choose another --out", path));
    if (first == common::LineRead::Line && in.eof() && line == header)
        throw InputError(fmt::format("spsa: '{}' holds only a torn header (a run killed as it began?): remove it to start again", path));
    std::string why = "its first line is not an SPSA run's header";
    if (first == common::LineRead::Line && !in.eof()) {
        const Json saved = Json::parse(line, nullptr, false);
        why = saved.is_discarded() ? "its first line is not JSON" : header_difference(saved, Json::parse(header));
    }
    if (!why.empty())
        throw InputError(fmt::format("spsa: '{}' is not the file of a run with these settings ({}): choose another --out, or the "
                                     "same settings to resume it",
                                     path, why));
    std::uintmax_t whole = line.size() + 1;
    std::vector<SpsaIteration> done;
    std::vector<double> theta = start_values(s);
    const std::size_t n = s.params.size();
    for (;;) {
        const auto read = common::read_bounded_line(in, line, MaxLine);
        if (read == common::LineRead::End) break;
        if (in.eof()) break;  // no newline: cut short, played again
        const int k = static_cast<int>(done.size()) + 1;
        const std::string what = fmt::format("spsa: '{}', iteration {}", path, k);
        if (k > s.schedule.iterations) throw InputError(fmt::format("{}: the run has only {} iterations", what, s.schedule.iterations));
        if (read == common::LineRead::TooLong) throw InputError(what + ": line too long");
        Json j;
        try {
            j = Json::parse(line);
        } catch (const nlohmann::json::exception&) {
            throw InputError(what + ": not JSON");
        }
        if (!j.is_object()) throw InputError(what + ": not a JSON object");
        SpsaIteration it;
        it.k = count_field(j, "k", what);
        if (it.k != k) throw InputError(fmt::format("{}: numbered {}", what, it.k));
        it.wins = count_field(j, "wins", what);
        it.draws = count_field(j, "draws", what);
        it.losses = count_field(j, "losses", what);
        if (it.wins + it.draws + it.losses != 2 * s.pairs)
            throw InputError(fmt::format("{}: {} games, expected {}", what, it.wins + it.draws + it.losses, 2 * s.pairs));
        it.plus = doubles(j.value("plus", Json()), n, what + " plus");
        it.minus = doubles(j.value("minus", Json()), n, what + " minus");
        it.theta = doubles(j.value("theta", Json()), n, what + " theta");
        it.flips = spsa_flips(s.seed, k, n);
        if (j.value("flips", Json()) != Json(it.flips)) throw InputError(what + ": its signs are not the seed's");
        // The record must be what this run would have written: the same values played and the same update.
        const auto plus = spsa_perturbed(s.params, theta, it.flips, s.schedule, k, +1);
        const auto minus = spsa_perturbed(s.params, theta, it.flips, s.schedule, k, -1);
        const auto next = spsa_update(s.params, theta, it.flips, s.schedule, k, it.wins - it.losses);
        for (std::size_t i = 0; i < n; ++i)
            if (!close(plus[i], it.plus[i]) || !close(minus[i], it.minus[i]) || !close(next[i], it.theta[i]))
                throw InputError(fmt::format("{}: the values of '{}' are not those the run computes (the file was edited?)", what,
                                             s.params[i].name));
        theta = next;
        it.theta = next;
        done.push_back(std::move(it));
        whole += line.size() + 1;
    }
    return {std::move(done), whole};
}

// Every opening's index in the order the run plays them: shuffled by the seed, so that a run
// over the first few hundred openings of a file does not see only its first lines.
std::vector<std::size_t> opening_order(const SpsaSettings& s) {
    std::vector<std::size_t> order(s.openings.size());
    std::iota(order.begin(), order.end(), 0);
    std::mt19937_64 rng(s.seed ^ 0x5B5A'0B3Eu);
    std::shuffle(order.begin(), order.end(), rng);
    return order;
}

}  // namespace

std::string spsa_header(const SpsaSettings& s) {
    const EngineSpec base = parse_engine_spec(s.engine, 0);
    Json j = {{"format", "loa-match spsa"},
              {"version", 1},
              {"engine", s.engine},
              {"plays", fmt::format("{},eval={},rps={}", variant::to_string(base.config), file_fingerprint(base.eval),
                                    base.rps.empty() ? "none" : file_fingerprint(base.rps))},
              {"limit", base.limit_text()},
              {"params", params_json(s.params)},
              {"iterations", s.schedule.iterations},
              {"alpha", s.schedule.alpha},
              {"gamma", s.schedule.gamma},
              {"a_ratio", s.schedule.a_ratio},
              {"pairs", s.pairs},
              {"seed", s.seed},
              {"openings", s.openings_name},
              {"openings_digest", openings_digest(s.openings)},
              {"rules", loa::to_string(s.rules)}};
    return j.dump();
}

SpsaResult run_spsa(const SpsaSettings& s, const std::string& path) {
    const EngineSpec base = checked_base(s);
    check_engine_files(base);
    const std::string header = spsa_header(s);
    const common::FileLock claim(path);  // no other run appends to it meanwhile
    SpsaResult result;
    result.start = start_values(s);
    result.theta = result.start;
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (std::filesystem::exists(status)) {
        if (!std::filesystem::is_regular_file(status))
            throw InputError(fmt::format("spsa: '{}' is not a regular file: the run's record goes to a file of its own", path));
        auto [done, length] = read_iterations(s, path, header);
        const auto size = std::filesystem::file_size(path);
        if (length > size) throw InputError(fmt::format("spsa: '{}' changed while it was read", path));
        if (size != length) common::truncate_file(path, length);  // an iteration cut short (this run's file: its header says so)
        result.iterations = std::move(done);
        result.resumed = static_cast<int>(result.iterations.size());
        if (!result.iterations.empty()) result.theta = result.iterations.back().theta;
        for (const SpsaIteration& it : result.iterations)
            if (s.on_iteration) s.on_iteration(it.k, it.theta, it.wins, it.draws, it.losses);
    } else {
        // Created whole or not at all (common::create_file): a run stopped while it wrote the
        // header (a full disk) leaves no empty file that the next run would have to refuse.
        common::create_file(path, header + '\n');
    }

    const std::vector<std::size_t> order = opening_order(s);
    const std::size_t n = s.params.size();
    for (int k = result.resumed + 1; k <= s.schedule.iterations; ++k) {
        SpsaIteration it;
        it.k = k;
        it.flips = spsa_flips(s.seed, k, n);
        it.plus = spsa_perturbed(s.params, result.theta, it.flips, s.schedule, k, +1);
        it.minus = spsa_perturbed(s.params, result.theta, it.flips, s.schedule, k, -1);
        const EngineSpec plus = engine_with(s, base, it.plus, "spsa+");
        const EngineSpec minus = engine_with(s, base, it.minus, "spsa-");
        // Game 2p: plus has Black; game 2p + 1: the same opening, colours swapped.
        std::mutex lock;
        parallel_for(static_cast<std::size_t>(2 * s.pairs), std::min(s.threads, 2 * s.pairs), [&] {
            return [&](std::size_t g) {
                const std::size_t pair = g / 2;
                const Opening& opening =
                    s.openings[order[(static_cast<std::size_t>(k - 1) * static_cast<std::size_t>(s.pairs) + pair) % order.size()]];
                const bool plus_black = g % 2 == 0;
                const auto black = make_player(plus_black ? plus : minus, s.rules);
                const auto white = make_player(plus_black ? minus : plus, s.rules);
                const GameRecord game = play_game(*black, *white, opening, s.rules, Adjudication{});
                const int score = spsa_game_score(game.outcome, plus_black);
                const std::lock_guard guard(lock);
                ++(score > 0 ? it.wins : score < 0 ? it.losses : it.draws);
                if (game.termination.find("on time") != std::string::npos) ++result.time_losses;
            };
        });
        it.theta = spsa_update(s.params, result.theta, it.flips, s.schedule, k, it.wins - it.losses);
        common::append_to_file(path, iteration_line(it));
        result.theta = it.theta;
        result.iterations.push_back(it);
        if (s.on_iteration) s.on_iteration(k, it.theta, it.wins, it.draws, it.losses);
    }
    return result;
}

void write_spsa_plot(const SpsaSettings& s, const SpsaResult& r, const std::string& png_path) {
    if (r.iterations.empty()) throw InputError("spsa: plot: no iteration to plot");
    const std::string data_path = png_path + ".dat";
    {
        std::ostringstream data;
        data << own::PlotDataMark << "iteration";
        for (const SpsaParam& p : s.params) data << ' ' << p.name;
        data << "\n0";
        for (const double v : r.start) data << fmt::format(" {:.4f}", v);
        data << '\n';
        for (const SpsaIteration& it : r.iterations) {
            data << it.k;
            for (const double v : it.theta) data << fmt::format(" {:.4f}", v);
            data << '\n';
        }
        common::replace_file(data_path, data.str(), own::plot_data());
    }
    const std::string script_path = png_path + ".gp";
    {
        // One panel a parameter, its bounds as the y range, its start as a grey line.
        const int count = static_cast<int>(s.params.size());
        const int columns = count > 4 ? 2 : 1;
        const int rows = (count + columns - 1) / columns;
        std::ostringstream gp;
        // noenhanced: a key's underscore is a character, not a subscript.
        gp << own::PlotScriptMark << fmt::format("set terminal pngcairo noenhanced size {},{} font 'sans,9'\n", 520 * columns, std::max(300, 220 * rows));
        gp << "set output " << gnuplot_string(png_path) << "\n";
        gp << fmt::format("set multiplot layout {},{} title {}\n", rows, columns,
                          gnuplot_string(fmt::format("SPSA: theta over {} iterations of {} game pair{}", r.iterations.size(), s.pairs,
                                                                     s.pairs == 1 ? "" : "s")));
        gp << "set grid\nset key off\nset xlabel 'iteration'\n";
        for (int i = 0; i < count; ++i) {
            const SpsaParam& p = s.params[static_cast<std::size_t>(i)];
            gp << fmt::format("set title {}\nset yrange [{}:{}]\n", gnuplot_string(p.name), p.min, p.max);
            gp << fmt::format("plot {} using 1:{} with lines linewidth 2 linecolor rgb '#08519c', {} with lines linecolor rgb 'gray'\n",
                              gnuplot_string(data_path), i + 2, p.start);
        }
        gp << "unset multiplot\n";
        common::replace_file(script_path, gp.str(), own::plot_script());
    }
    run_gnuplot(script_path);
}

}  // namespace matches
