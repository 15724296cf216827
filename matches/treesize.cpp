#include "matches/treesize.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/search/report.hpp"
#include "common/search/search.hpp"
#include "common/text.hpp"
#include "loa/game.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "matches/plot.hpp"
#include "matches/records.hpp"

namespace matches {

using common::InputError;

bool TreeVariant::ordering_only() const {
    return !config.tt && config.null_move == search::NullMove::Off && !config.lmr && !config.extensions;
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
    v.config = search::parse_search_config(rest);
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
    std::atomic<std::size_t> next{0}, done{0};
    std::mutex lock;
    std::exception_ptr failure;
    auto worker = [&] {
        try {
            // One searcher per variant on this thread; tables are cleared for every position.
            std::vector<std::unique_ptr<search::Searcher<loa::SearchGame>>> searchers;
            for (const TreeVariant& v : s.variants)
                searchers.push_back(std::make_unique<search::Searcher<loa::SearchGame>>(
                    loa::SearchGame::from_spec(loa::RuleSet{}, s.eval), v.config));
            for (std::size_t k; (k = next.fetch_add(1)) < jobs;) {
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
                    run.scores.push_back(it.score);
                    run.best_moves.push_back(it.pv.empty() ? "none" : loa::move_to_compact(it.pv.front()));
                    run.time_ms.push_back(it.time_ms);
                }
                run.tt_hits.assign(static_cast<std::size_t>(s.max_depth), result.stats.tt_hits);
                run.first_move_cutoff_rate.assign(static_cast<std::size_t>(s.max_depth), result.stats.first_move_cutoff_rate());
                r.runs[v][p] = std::move(run);
                const std::size_t finished = ++done;
                if (progress && (finished % 50 == 0 || finished == jobs)) {
                    const std::lock_guard guard(lock);
                    fmt::print(stderr, "\rtreesize: {}/{} searches", finished, jobs);
                    if (finished == jobs) fmt::print(stderr, "\n");
                }
            }
        } catch (...) {
            const std::lock_guard guard(lock);
            if (!failure) failure = std::current_exception();
            next = jobs;
        }
    };
    std::vector<std::thread> pool;
    for (int t = 0; t < std::max(1, s.concurrency); ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
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
    int score_differences = 0;  // positions whose score differs from the baseline's
};

DepthSummary summarise(const TreeSizeSettings& s, const TreeSizeResult& r, std::size_t v, int depth) {
    const auto d = static_cast<std::size_t>(depth - 1);
    std::vector<double> mine, base;
    DepthSummary out;
    const auto b = static_cast<std::size_t>(s.baseline);
    for (std::size_t p = 0; p < s.positions.size(); ++p) {
        mine.push_back(static_cast<double>(r.runs[v][p].nodes[d]));
        base.push_back(static_cast<double>(r.runs[b][p].nodes[d]));
        out.time_ms += r.runs[v][p].time_ms[d];
        out.score_differences += r.runs[v][p].scores[d] != r.runs[b][p].scores[d];
    }
    for (std::size_t p = 0; p < mine.size(); ++p) out.total += mine[p];
    double base_total = 0;
    for (const double x : base) base_total += x;
    out.ratio = base_total > 0 ? out.total / base_total : 0;
    std::tie(out.low, out.high) = bootstrap_ratio(mine, base, s.bootstrap_samples, s.seed + static_cast<std::uint64_t>(depth));
    return out;
}

}  // namespace

std::string treesize_table(const TreeSizeSettings& s, const TreeSizeResult& r) {
    std::string out;
    const TreeVariant& baseline = s.variants[static_cast<std::size_t>(s.baseline)];
    std::size_t width = 8;
    for (const TreeVariant& v : s.variants) width = std::max(width, v.name.size());
    for (int depth = s.min_depth; depth <= s.max_depth; ++depth) {
        out += fmt::format("\nDepth {} ({} positions; ratio = nodes / nodes of {}, 95% bootstrap interval)\n", depth,
                           s.positions.size(), baseline.name);
        out += fmt::format("  {:<{}} {:>14} {:>7} {:>17} {:>10}  {}\n", "variant", width, "nodes", "ratio", "95% interval",
                           "time_s", "scores vs baseline");
        for (std::size_t v = 0; v < s.variants.size(); ++v) {
            const DepthSummary d = summarise(s, r, v, depth);
            std::string check;
            const bool comparable = s.variants[v].ordering_only() && baseline.ordering_only();
            if (d.score_differences == 0) check = comparable ? "identical (required)" : "identical";
            else check = fmt::format("{} differ{}", d.score_differences, comparable ? " -- ERROR: ordering-only" : "");
            out += fmt::format("  {:<{}} {:>14.0f} {:>7.3f} {:>8.3f}..{:<7.3f} {:>10.1f}  {}\n", s.variants[v].name, width,
                               d.total, d.ratio, d.low, d.high, d.time_ms / 1000, check);
        }
    }
    return out;
}

std::string treesize_csv(const TreeSizeSettings& s, const TreeSizeResult& r) {
    std::string out = "variant,position,depth,nodes,time_ms,run_tt_hits,run_first_move_cutoff_rate,best_move,score\n";
    for (std::size_t v = 0; v < s.variants.size(); ++v)
        for (std::size_t p = 0; p < s.positions.size(); ++p)
            for (int depth = s.min_depth; depth <= s.max_depth; ++depth) {
                const auto d = static_cast<std::size_t>(depth - 1);
                const TreeRun& run = r.runs[v][p];
                out += fmt::format("\"{}\",{},{},{},{:.2f},{},{:.4f},{},{}\n", s.variants[v].name, p + 1, depth, run.nodes[d],
                                   run.time_ms[d], run.tt_hits[d], run.first_move_cutoff_rate[d], run.best_moves[d],
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
        j["variants"].push_back({{"name", v.name}, {"spec", v.spec}, {"config", search::to_string(v.config)}});
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
                                       {"time_ms", d.time_ms},
                                       {"score_differences", d.score_differences},
                                       {"ordering_only", s.variants[v].ordering_only()}});
        }
        j["depths"].push_back(row);
    }
    return j.dump(2);
}

void treesize_plot(const TreeSizeSettings& s, const TreeSizeResult& r, const std::string& png_path) {
    const std::string data_path = png_path + ".dat";
    {
        std::ofstream data(data_path);
        data << "# depth";
        for (const TreeVariant& v : s.variants) data << " \"" << v.name << '"';
        data << '\n';
        for (int depth = s.min_depth; depth <= s.max_depth; ++depth) {
            data << depth;
            for (std::size_t v = 0; v < s.variants.size(); ++v) data << ' ' << summarise(s, r, v, depth).total;
            data << '\n';
        }
    }
    const std::string script_path = png_path + ".gp";
    {
        std::ofstream gp(script_path);
        gp << "set terminal pngcairo size 1000,650 font 'sans,9'\nset output '" << png_path << "'\n";
        gp << "set title 'Tree size: total nodes over " << s.positions.size() << " positions'\n";
        gp << "set logscale y\nset xlabel 'depth'\nset ylabel 'nodes'\nset grid\nset key outside right top\n";
        gp << "set xtics 1\nplot ";
        for (std::size_t v = 0; v < s.variants.size(); ++v)
            gp << (v ? ", " : "") << "'" << data_path << "' using 1:" << v + 2 << " with linespoints title '"
               << s.variants[v].name << "'";
        gp << '\n';
    }
    run_gnuplot(script_path);
}

std::vector<loa::Position> sample_positions(const std::string& records_path, int per_game, int min_ply, int max_ply,
                                            std::uint64_t seed) {
    std::ifstream in(records_path);
    if (!in) throw InputError(fmt::format("cannot read '{}'", records_path));
    std::mt19937_64 rng(seed);
    std::vector<loa::Position> out;
    std::set<loa::Key> seen;
    for (const ParsedRecord& rec : read_records(in)) {
        const std::string start =
            rec.tags.contains("Position") ? rec.tags.at("Position") : std::string(loa::StartPositionText);
        loa::Game game(loa::Position::from_text(start));
        std::vector<loa::Position> candidates;
        for (const std::string& m : rec.moves) {
            game.play(m);
            if (game.ply() >= min_ply && game.ply() <= max_ply && !game.over()) candidates.push_back(game.position());
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
    std::ifstream in(path);
    if (!in) throw InputError(fmt::format("cannot read positions file '{}'", path));
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
    if (out.empty()) throw InputError(fmt::format("'{}' holds no position", path));
    return out;
}

}  // namespace matches
