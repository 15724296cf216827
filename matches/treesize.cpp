#include "matches/treesize.hpp"

#include "common/files.hpp"
#include "matches/own_files.hpp"

#include <cerrno>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <random>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/search/report.hpp"
#include "loa/searchers.hpp"
#include "common/text.hpp"
#include "loa/game.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "matches/parallel.hpp"
#include "matches/plot.hpp"
#include "matches/records.hpp"

namespace matches {

using common::InputError;

bool TreeVariant::ordering_only() const {
    // Every switch that changes which nodes are searched, not only their order, rules it out.
    return !config.tt && config.null_move == search::NullMove::Off && !config.lmr && !config.extensions &&
           !config.frontier_pruning() && !config.multicut && !config.erps;
}

TreeVariant parse_tree_variant(const std::string& text) {
    TreeVariant v;
    std::string rest;
    for (const auto& [key, value] : common::parse_key_values(text, "variant")) {
        if (key == "name") {
            v.name = std::string(value);
            continue;
        }
        if (!rest.empty()) rest += ',';
        rest += std::string(key);
        if (!value.empty()) rest += "=" + std::string(value);
    }
    v.spec = rest;
    v.config = variant::parse_variant(rest);
    if (v.name.empty()) v.name = rest;
    return v;
}

std::vector<TreeVariant> study_variants(const std::string& study) {
    std::vector<std::string> specs;
    if (study == "history" || study == "history-tt" || study == "history-nott") {
        const char* incs[] = {"1", "d", "d2", "2d"};
        std::vector<const char*> bases;
        if (study != "history-nott") bases.insert(bases.end(), {"pvs+tt+killers", "pvs+tt"});
        if (study != "history-tt") bases.insert(bases.end(), {"pvs+killers", "pvs"});
        for (const char* base : bases) {
            const std::string b = std::string("name=") + base;
            specs.push_back(fmt::format("{},preset={}", b + "/none", base));
            for (const char* inc : incs) specs.push_back(fmt::format("{}/hh-{},preset={},history=absolute,hh_inc={}", b, inc, base, inc));
            specs.push_back(fmt::format("{}/bf,preset={},history=butterfly,bf_inc=1", b, base));
            for (const char* update : {"all", "cutnodes"})
                for (const char* inc : incs)
                    specs.push_back(fmt::format("{}/rhh-{}-{},preset={},history=relative,hh_inc={},bf_inc={},rhh_update={}", b,
                                                update, inc, base, inc, inc, update));
        }
    } else if (study == "combinations") {
        const char* tokens[] = {"tt", "killers", "rhh", "asp", "pvs", "ref"};
        for (int mask = 0; mask < 64; ++mask) {
            std::string preset = "ab";
            for (int k = 0; k < 6; ++k)
                if (mask & (1 << k)) preset += std::string("+") + tokens[k];
            specs.push_back(fmt::format("name={},preset={}", preset, preset));
        }
    } else {
        throw InputError(fmt::format("treesize: unknown study '{}' (history, history-tt, history-nott or combinations)", study));
    }
    std::vector<TreeVariant> out;
    for (const std::string& s : specs) out.push_back(parse_tree_variant(s));
    return out;
}

TreeSizeResult run_treesize(const TreeSizeSettings& s, bool progress) {
    TreeSizeResult r;
    r.runs.assign(s.variants.size(), std::vector<TreeRun>(s.positions.size()));
    const std::size_t jobs = s.variants.size() * s.positions.size();
    std::atomic<std::size_t> done{0};
    std::mutex print_lock;
    for (const TreeVariant& v : s.variants) variant::alpha_beta(v.config);  // refuses MCTS, before any search
    parallel_for(jobs, s.concurrency, [&] {
        // One searcher per variant on this thread; tables are cleared for every position.
        std::vector<std::unique_ptr<search::Searcher<loa::SearchGame>>> searchers;
        for (const TreeVariant& v : s.variants)
            searchers.push_back(std::make_unique<search::Searcher<loa::SearchGame>>(
                loa::SearchGame::from_spec(loa::RuleSet{}, s.eval, s.rps), v.config));
        return [&, searchers = std::move(searchers)](std::size_t k) {
            const std::size_t v = k % s.variants.size(), p = k / s.variants.size();
            auto& searcher = *searchers[v];
            searcher.new_game();
            search::SearchLimits limits;
            limits.depth = s.max_depth;
            const auto result = searcher.search(s.positions[p], limits);
            TreeRun run;
            for (int d = 1; d <= s.max_depth; ++d) {
                // A search that proved a win or loss early stops deepening: later depths
                // cost nothing more and keep its result.
                const auto& it = result.iterations[static_cast<std::size_t>(std::min<int>(d, static_cast<int>(result.iterations.size())) - 1)];
                run.nodes.push_back(it.nodes);
                run.qnodes.push_back(it.stats.qnodes);
                run.tt_hits.push_back(it.stats.tt_hits);
                run.first_move_cutoff_rate.push_back(it.stats.first_move_cutoff_rate());
                run.scores.push_back(it.score);
                run.best_moves.push_back(it.pv.empty() ? "none" : loa::move_to_compact(it.pv.front()));
                run.time_ms.push_back(it.time_ms);
            }
            r.runs[v][p] = std::move(run);
            const std::size_t finished = ++done;
            if (progress && (finished % 50 == 0 || finished == jobs)) {
                const std::lock_guard guard(print_lock);
                fmt::print(stderr, "\rtreesize: {}/{} searches", finished, jobs);
                if (finished == jobs) fmt::print(stderr, "\n");
            }
        };
    });
    return r;
}

std::pair<double, double> bootstrap_ratio(const std::vector<double>& a, const std::vector<double>& b, int samples,
                                          std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::size_t> pick(0, a.size() - 1);
    std::vector<double> ratios;
    ratios.reserve(static_cast<std::size_t>(samples));
    for (int i = 0; i < samples; ++i) {
        double sa = 0, sb = 0;
        for (std::size_t k = 0; k < a.size(); ++k) {
            const std::size_t j = pick(rng);
            sa += a[j];
            sb += b[j];
        }
        ratios.push_back(sb > 0 ? sa / sb : 0);
    }
    std::sort(ratios.begin(), ratios.end());
    const auto at = [&](double q) { return ratios[static_cast<std::size_t>(q * (ratios.size() - 1))]; };
    return {at(0.025), at(0.975)};
}

namespace {

struct DepthSummary {
    double total = 0, ratio = 1, low = 1, high = 1, time_ms = 0;
    double qnodes = 0;            // quiescence nodes in the total
    double full_width_ratio = 1;  // nodes outside quiescence / the baseline's: where move ordering acts
    int score_differences = 0;    // positions whose score differs from the baseline's
};

DepthSummary summarise(const TreeSizeSettings& s, const TreeSizeResult& r, std::size_t v, int depth) {
    const auto d = static_cast<std::size_t>(depth - 1);
    const auto b = static_cast<std::size_t>(s.baseline);
    std::vector<double> mine, base;
    DepthSummary out;
    double base_total = 0, base_qnodes = 0;
    for (std::size_t p = 0; p < s.positions.size(); ++p) {
        const TreeRun &run = r.runs[v][p], &base_run = r.runs[b][p];
        mine.push_back(static_cast<double>(run.nodes[d]));
        base.push_back(static_cast<double>(base_run.nodes[d]));
        out.total += mine.back();
        base_total += base.back();
        out.qnodes += static_cast<double>(run.qnodes[d]);
        base_qnodes += static_cast<double>(base_run.qnodes[d]);
        out.time_ms += run.time_ms[d];
        out.score_differences += run.scores[d] != base_run.scores[d];
    }
    out.ratio = base_total > 0 ? out.total / base_total : 0;
    const double base_full_width = base_total - base_qnodes;
    out.full_width_ratio = base_full_width > 0 ? (out.total - out.qnodes) / base_full_width : 0;
    std::tie(out.low, out.high) = bootstrap_ratio(mine, base, s.bootstrap_samples, s.seed + static_cast<std::uint64_t>(depth));
    return out;
}

}  // namespace

// What a run's raw data is in JSON: the same field names both ways.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TreeRun, nodes, qnodes, scores, best_moves, time_ms, tt_hits, first_move_cutoff_rate)

namespace {

nlohmann::ordered_json experiment_identity(const TreeSizeSettings& s) {
    nlohmann::ordered_json j;
    for (const TreeVariant& v : s.variants) j["variants"].push_back(v.spec);
    j["depths"] = {s.min_depth, s.max_depth};
    j["eval"] = s.eval;
    j["positions"] = s.positions.size();
    return j;
}

}  // namespace

std::string treesize_runs_json(const TreeSizeSettings& s, const TreeSizeResult& r, const std::vector<std::size_t>& indices) {
    // s: the whole experiment; r: the runs of positions `indices` only, in that order.
    nlohmann::json j;
    j["experiment"] = nlohmann::json(experiment_identity(s));
    j["runs"] = nlohmann::json::array();
    for (std::size_t k = 0; k < indices.size(); ++k)
        for (std::size_t v = 0; v < s.variants.size(); ++v) {
            nlohmann::json x = r.runs[v][k];
            x["position"] = indices[k];
            x["variant"] = v;
            x["position_text"] = s.positions[indices[k]].to_text();
            j["runs"].push_back(std::move(x));
        }
    return j.dump() + "\n";
}

void merge_treesize_runs(const TreeSizeSettings& s, const std::string& path, TreeSizeResult& into, std::vector<bool>& filled) {
    const nlohmann::json j = nlohmann::json::parse(common::read_file(path, common::MaxRecordFile, "treesize"), nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("runs"))
        throw common::InputError(fmt::format("treesize: '{}' is not a file of tree-size runs", path));
    if (j.value("experiment", nlohmann::json()) != nlohmann::json(experiment_identity(s)))
        throw common::InputError(fmt::format("treesize: '{}' holds runs of another experiment", path));
    into.runs.resize(s.variants.size(), std::vector<TreeRun>(s.positions.size()));
    filled.resize(s.variants.size() * s.positions.size(), false);
    try {
        for (const auto& x : j.at("runs")) {
            const std::size_t p = x.at("position").get<std::size_t>(), v = x.at("variant").get<std::size_t>();
            if (p >= s.positions.size() || v >= s.variants.size() || x.at("position_text").get<std::string>() != s.positions[p].to_text())
                throw common::InputError(fmt::format("treesize: '{}': run of position {} does not match the positions file", path, p + 1));
            TreeRun& run = into.runs[v][p];
            x.get_to(run);
            if (run.nodes.size() != static_cast<std::size_t>(s.max_depth))
                throw common::InputError(fmt::format("treesize: '{}': a run without its {} depths", path, s.max_depth));
            filled[v * s.positions.size() + p] = true;
        }
    } catch (const nlohmann::json::exception& e) {
        throw common::InputError(fmt::format("treesize: '{}': {}", path, e.what()));
    }
}

std::string treesize_table(const TreeSizeSettings& s, const TreeSizeResult& r) {
    std::string out;
    const TreeVariant& baseline = s.variants[static_cast<std::size_t>(s.baseline)];
    std::size_t width = 8;
    for (const TreeVariant& v : s.variants) width = std::max(width, v.name.size());
    for (int depth = s.min_depth; depth <= s.max_depth; ++depth) {
        out += fmt::format(
            "\nDepth {} ({} positions; ratio = nodes / nodes of {}, 95% bootstrap interval; q% = share of quiescence "
            "nodes; fw ratio = the ratio without them)\n",
            depth, s.positions.size(), baseline.name);
        out += fmt::format("  {:<{}} {:>14} {:>7} {:>17} {:>5} {:>8} {:>10}  {}\n", "variant", width, "nodes", "ratio",
                           "95% interval", "q%", "fw ratio", "time_s", "scores vs baseline");
        for (std::size_t v = 0; v < s.variants.size(); ++v) {
            const DepthSummary d = summarise(s, r, v, depth);
            std::string check;
            const bool comparable = s.variants[v].ordering_only() && baseline.ordering_only();
            if (d.score_differences == 0) check = comparable ? "identical (required)" : "identical";
            else check = fmt::format("{} differ{}", d.score_differences, comparable ? " -- ERROR: ordering-only" : "");
            out += fmt::format("  {:<{}} {:>14.0f} {:>7.3f} {:>8.3f}..{:<7.3f} {:>5.1f} {:>8.3f} {:>10.1f}  {}\n",
                               s.variants[v].name, width, d.total, d.ratio, d.low, d.high,
                               d.total > 0 ? 100 * d.qnodes / d.total : 0.0, d.full_width_ratio, d.time_ms / 1000, check);
        }
    }
    return out;
}

std::string treesize_csv(const TreeSizeSettings& s, const TreeSizeResult& r) {
    std::string out = "variant,position,depth,nodes,qnodes,time_ms,tt_hits,first_move_cutoff_rate,best_move,score\n";
    for (std::size_t v = 0; v < s.variants.size(); ++v)
        for (std::size_t p = 0; p < s.positions.size(); ++p)
            for (int depth = s.min_depth; depth <= s.max_depth; ++depth) {
                const auto d = static_cast<std::size_t>(depth - 1);
                const TreeRun& run = r.runs[v][p];
                out += fmt::format("\"{}\",{},{},{},{},{:.2f},{},{:.4f},{},{}\n", s.variants[v].name, p + 1, depth,
                                   run.nodes[d], run.qnodes[d], run.time_ms[d], run.tt_hits[d], run.first_move_cutoff_rate[d], run.best_moves[d],
                                   run.scores[d]);
            }
    return out;
}

std::string treesize_json(const TreeSizeSettings& s, const TreeSizeResult& r) {
    nlohmann::ordered_json j;
    j["positions"] = s.positions.size();
    j["baseline"] = s.variants[static_cast<std::size_t>(s.baseline)].name;
    j["eval"] = s.eval;
    for (const TreeVariant& v : s.variants)
        j["variants"].push_back({{"name", v.name}, {"spec", v.spec}, {"config", variant::to_string(v.config)}});
    for (int depth = s.min_depth; depth <= s.max_depth; ++depth) {
        nlohmann::ordered_json row;
        row["depth"] = depth;
        for (std::size_t v = 0; v < s.variants.size(); ++v) {
            const DepthSummary d = summarise(s, r, v, depth);
            row["variants"].push_back({{"name", s.variants[v].name},
                                       {"nodes", d.total},
                                       {"ratio", d.ratio},
                                       {"ratio_low", d.low},
                                       {"ratio_high", d.high},
                                       {"qnodes", d.qnodes},
                                       {"full_width_ratio", d.full_width_ratio},
                                       {"time_ms", d.time_ms},
                                       {"score_differences", d.score_differences},
                                       {"ordering_only", s.variants[v].ordering_only()}});
        }
        j["depths"].push_back(row);
    }
    return j.dump(2);
}

TreeSizeTotals treesize_totals(const TreeSizeSettings& s, const TreeSizeResult& r) {
    TreeSizeTotals t;
    for (const TreeVariant& v : s.variants) t.names.push_back(v.name);
    t.baseline = static_cast<std::size_t>(s.baseline);
    t.positions = s.positions.size();
    for (int depth = s.min_depth; depth <= s.max_depth; ++depth) {
        t.depths.push_back(depth);
        auto& row = t.nodes.emplace_back();
        const auto d = static_cast<std::size_t>(depth - 1);
        for (const auto& runs : r.runs) {  // totals only: no bootstrap needed for a picture
            double total = 0;
            for (const TreeRun& run : runs) total += static_cast<double>(run.nodes[d]);
            row.push_back(total);
        }
    }
    return t;
}

TreeSizeTotals treesize_totals_from_json(const std::string& path) {
    const std::string text = common::read_file(path, common::MaxRecordFile, "treesize");
    try {
        const auto j = nlohmann::json::parse(text);
        TreeSizeTotals t;
        t.positions = j.at("positions").get<std::size_t>();
        for (const auto& v : j.at("variants")) t.names.push_back(v.at("name").get<std::string>());
        const auto baseline = std::find(t.names.begin(), t.names.end(), j.at("baseline").get<std::string>());
        if (baseline == t.names.end()) throw InputError("the baseline is not among the variants");
        t.baseline = static_cast<std::size_t>(baseline - t.names.begin());
        for (const auto& d : j.at("depths")) {
            t.depths.push_back(d.at("depth").get<int>());
            const auto& rows = d.at("variants");
            if (rows.size() != t.names.size())
                throw InputError(
                    fmt::format("depth {} lists {} variants, not {}", t.depths.back(), rows.size(), t.names.size()));
            auto& row = t.nodes.emplace_back();
            for (std::size_t v = 0; v < rows.size(); ++v) {
                if (rows[v].at("name").get<std::string>() != t.names[v])
                    throw InputError(fmt::format("depth {}: variants out of order", t.depths.back()));
                row.push_back(rows[v].at("nodes").get<double>());
            }
        }
        if (t.depths.empty()) throw InputError("no depth");
        return t;
    } catch (const nlohmann::json::exception& e) {
        throw InputError(fmt::format("{}: not a treesize result: {}", path, e.what()));
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: not a treesize result: {}", path, e.what()));
    }
}

namespace {

// The y axis of the ratio panel. A wide spread of ratios is drawn on a log scale (halving and
// doubling look alike) with tics a person can read off; a narrow one linearly, with gnuplot's
// own tics.
std::string ratio_axis(const TreeSizeTotals& t) {
    double low = 1, high = 1;
    for (const auto& row : t.nodes)
        for (const double nodes : row)
            if (row[t.baseline] > 0 && nodes > 0) {
                low = std::min(low, nodes / row[t.baseline]);
                high = std::max(high, nodes / row[t.baseline]);
            }
    const std::string title = "nodes / nodes of " + t.names[t.baseline];
    if (high / low <= 2.5) {
        const double margin = 0.03 * (high - low);
        return fmt::format("set title {}\nset ylabel 'ratio'\nunset logscale y\nset yrange [{:g}:{:g}]\nset ytics auto\n",
                           gnuplot_string(title), low - margin, high + margin);
    }
    std::string tics;
    for (const double tic : {0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1.0, 1.5, 2.0, 3.0, 5.0, 7.0, 10.0,
                             20.0, 50.0, 100.0})
        if (tic >= low / 1.1 && tic <= high * 1.1) tics += fmt::format("{}{:g}", tics.empty() ? "" : ", ", tic);
    return fmt::format("set title {}\nset ylabel 'ratio'\nset yrange [{:g}:{:g}]\nset ytics ({})\nset mytics 1\n",
                       gnuplot_string(title + " (log scale)"), low / 1.1, high * 1.1, tics);
}

}  // namespace

void treesize_plot(const TreeSizeTotals& t, const std::string& png_path) {
    const std::string data_path = png_path + ".dat";
    {
        std::ostringstream data;
        data << own::PlotDataMark << "depth";
        for (const std::string& name : t.names) data << " \"" << name << '"';
        data << '\n';
        for (std::size_t d = 0; d < t.depths.size(); ++d) {
            data << t.depths[d];
            for (const double nodes : t.nodes[d]) data << ' ' << nodes;
            data << '\n';
        }
        common::replace_file(data_path, data.str(), own::plot_data());
    }
    const std::string script_path = png_path + ".gp";
    {
        std::ostringstream gp;
        // Left: nodes against depth (log scale). Right: the ratio to the baseline, where
        // variants whose node lines overlap on the log scale come apart.
        const std::size_t base_column = t.baseline + 2;
        const auto plot_lines = [&](bool ratio) {
            gp << "plot ";
            for (std::size_t v = 0; v < t.names.size(); ++v) {
                gp << (v ? ", " : "") << gnuplot_string(data_path) << " using 1:";
                if (ratio) gp << "($" << v + 2 << "/$" << base_column << ")";
                else gp << v + 2;
                gp << " with linespoints lt " << v + 1 << " title " << gnuplot_string(t.names[v]);
            }
            gp << '\n';
        };
        // Tall enough for the key to list every variant in one column beside the panels.
        const std::size_t height = std::max<std::size_t>(650, 14 * t.names.size() + 120);
        gp << own::PlotScriptMark << "set terminal pngcairo noenhanced size 1400," << height << " font 'sans,9'\nset output " << gnuplot_string(png_path) << "\n";
        gp << "set multiplot layout 1,2 title 'Tree size over " << t.positions << " positions'\n";
        gp << "set xlabel 'depth'\nset grid\nset xtics 1\n";
        for (std::size_t v = 0; v < t.names.size(); ++v)
            gp << "set linetype " << v + 1 << " pointtype " << v % 14 + 1 << '\n';
        gp << "set title 'total nodes'\nset logscale y\nset ylabel 'nodes'\nunset key\n";
        plot_lines(false);
        gp << ratio_axis(t);
        gp << "set key outside right top\n";
        plot_lines(true);
        gp << "unset multiplot\n";
        common::replace_file(script_path, gp.str(), own::plot_script());
    }
    run_gnuplot(script_path);
}

std::vector<loa::Position> sample_positions(const std::string& records_path, int per_game, int min_ply, int max_ply,
                                            std::uint64_t seed, std::optional<std::pair<int, int>> before_end) {
    common::FileReader reader(records_path, common::MaxRecordFile, "positions --pgn");
    std::istream& in = reader.stream();
    std::mt19937_64 rng(seed);
    std::vector<loa::Position> out;
    std::set<loa::Key> seen;
    // Games in the order they were scheduled ("Round" pair.game), not the order they finished
    // in: with -j 2 the file's order varies from run to run, the sample must not.
    std::vector<ParsedRecord> records = read_records(in);
    reader.check();
    auto round_of = [](const ParsedRecord& r) {
        const auto it = r.tags.find("Round");
        if (it == r.tags.end()) return std::pair<long, long>{0, 0};
        const std::size_t dot = it->second.find('.');
        return std::pair<long, long>{std::atol(it->second.c_str()),
                                     dot == std::string::npos ? 0 : std::atol(it->second.c_str() + dot + 1)};
    };
    std::stable_sort(records.begin(), records.end(),
                     [&](const ParsedRecord& a, const ParsedRecord& b) { return round_of(a) < round_of(b); });
    for (const ParsedRecord& rec : records) {
        loa::Game game(loa::Position::from_text(rec.start_text()));
        std::vector<loa::Position> candidates;
        std::vector<loa::Position> before;  // every position before the last move, with before_end
        for (const std::string& m : rec.moves) {
            if (before_end) before.push_back(game.position());
            game.play(m);
            if (!before_end && game.ply() >= min_ply && game.ply() <= max_ply && !game.over())
                candidates.push_back(game.position());
        }
        if (before_end && game.over() && game.result().outcome != loa::Outcome::Draw) {
            // before[size - k] is the position k plies before the end (k = 1: the deciding move's).
            for (int k = before_end->first; k <= before_end->second && k <= static_cast<int>(before.size()); ++k)
                candidates.push_back(before[before.size() - static_cast<std::size_t>(k)]);
        }
        std::shuffle(candidates.begin(), candidates.end(), rng);
        int taken = 0;
        for (const loa::Position& p : candidates) {
            if (taken == per_game) break;
            if (seen.insert(p.key()).second) {
                out.push_back(p);
                ++taken;
            }
        }
    }
    return out;
}

std::vector<loa::Position> load_positions(const std::string& path) {
    common::FileReader reader(path, common::MaxListFile, "positions file");
    std::istream& in = reader.stream();
    std::vector<loa::Position> out;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string_view text = common::trim(line);
        if (text.empty() || text.front() == '#') continue;
        try {
            out.push_back(loa::parse_position(text));
        } catch (const InputError& e) {
            throw InputError(fmt::format("{} line {}: {}", path, number, e.what()));
        }
    }
    reader.check();
    if (out.empty()) throw InputError(fmt::format("'{}' holds no position", path));
    return out;
}

}  // namespace matches
