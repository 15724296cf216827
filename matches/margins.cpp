#include "matches/margins.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "common/search/margin_probe.hpp"
#include "loa/evaluation.hpp"
#include "loa/search_game.hpp"
#include "matches/parallel.hpp"
#include "loa/searchers.hpp"

namespace matches {
namespace {

// Bands of pieces on the board, from the sparse endgame to the opening.
constexpr std::pair<int, int> PieceBands[] = {{2, 8}, {9, 12}, {13, 16}, {17, 20}, {21, 24}};
constexpr int SuggestionStep = 10;
constexpr int LargestSuggestion = 3000;

bool in_band(const MarginNode& n, const MarginBand* band) {
    return band == nullptr || (n.pieces >= band->min_pieces && n.pieces <= band->max_pieces);
}

// Nearest-rank percentile of sorted values.
int percentile(const std::vector<int>& sorted, double p) {
    if (sorted.empty()) return 0;
    const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
    return sorted[std::clamp<std::size_t>(rank, 1, sorted.size()) - 1];
}

std::vector<search::TaperedMargin> standard_margins(int max_depth) {
    const search::SearchConfig on = variant::parse_variant("ab,futility=on,ext_futility=on,razoring=on");
    const search::TaperedMargin all[] = {on.futility_margin, on.ext_futility_margin, on.razor_margin};
    return std::vector<search::TaperedMargin>(all, all + max_depth);
}

}  // namespace

double margin_coverage(const std::vector<MarginNode>& nodes, int depth, search::TaperedMargin margin, const MarginBand* band) {
    const auto d = static_cast<std::size_t>(depth - 1);
    int counted = 0, covered = 0;
    for (const MarginNode& n : nodes) {
        if (!in_band(n, band) || n.forced_win[d]) continue;
        ++counted;
        if (n.lift[d] <= margin.at(n.phase, loa::MaxPhase)) ++covered;
    }
    return counted ? static_cast<double>(covered) / counted : 1.0;
}

std::optional<search::TaperedMargin> suggest_margin(const std::vector<MarginNode>& nodes, const std::vector<MarginBand>& bands,
                                                    int depth, double coverage) {
    auto enough = [&](search::TaperedMargin m) {
        return std::all_of(bands.begin(), bands.end(),
                           [&](const MarginBand& b) { return margin_coverage(nodes, depth, m, &b) >= coverage; });
    };
    // Coverage grows with either margin: for each opening margin, the least endgame margin
    // that is enough, by bisection.
    std::optional<search::TaperedMargin> best;
    for (int opening = SuggestionStep; opening <= LargestSuggestion; opening += SuggestionStep) {
        if (best && opening + SuggestionStep >= best->opening + best->endgame) break;
        if (!enough({opening, LargestSuggestion})) continue;
        int lo = 1, hi = LargestSuggestion / SuggestionStep;  // in steps; hi is enough
        while (lo < hi) {
            const int mid = (lo + hi) / 2;
            if (enough({opening, mid * SuggestionStep})) hi = mid;
            else lo = mid + 1;
        }
        const search::TaperedMargin m{opening, hi * SuggestionStep};
        if (!best || m.opening + m.endgame < best->opening + best->endgame) best = m;
    }
    return best;
}

MarginStudy run_margin_study(const MarginSettings& s, bool progress) {
    if (s.max_depth < 1 || s.max_depth > 3) throw common::InputError("margins: the depth is 1 (futility), 2 or 3 (razoring)");
    if (!(s.coverage > 0 && s.coverage <= 1)) throw common::InputError("margins: the coverage is a share in (0, 1]");
    const search::SearchConfig config = variant::alpha_beta(variant::parse_variant(s.variant));
    if (config.frontier_pruning() || config.multicut)
        throw common::InputError("margins: the variant that values the moves must not prune at the frontier itself");
    const loa::SearchGame game = loa::SearchGame::from_spec(loa::RuleSet{}, s.eval);

    std::vector<std::optional<MarginNode>> probed(s.positions.size());
    std::atomic<std::size_t> done{0};
    std::mutex print_lock;
    parallel_for(s.positions.size(), s.concurrency, [&] {
        return [&, searcher = std::make_unique<search::Searcher<loa::SearchGame>>(game, config)](std::size_t p) {
            const loa::Position& pos = s.positions[p];
            if (game.status(pos) == search::Status::Ongoing) {
                if (const auto lift = search::frontier_lift(*searcher, pos, s.max_depth)) {
                    MarginNode n;
                    n.pieces = loa::popcount(pos.occupied());
                    n.phase = loa::game_phase(pos);
                    for (const search::FrontierLift& at : *lift) {
                        n.lift.push_back(at.lift);
                        n.forced_win.push_back(at.forced_win);
                    }
                    probed[p] = std::move(n);
                }
            }
            const std::size_t finished = ++done;
            if (progress && (finished % 20 == 0 || finished == s.positions.size())) {
                const std::lock_guard guard(print_lock);
                fmt::print(stderr, "\rmargins: {}/{} positions", finished, s.positions.size());
                if (finished == s.positions.size()) fmt::print(stderr, "\n");
            }
        };
    });

    MarginStudy study;
    for (auto& n : probed)
        if (n) study.nodes.push_back(std::move(*n));
    for (const auto& [lo, hi] : PieceBands) {
        MarginBand band;
        band.min_pieces = lo;
        band.max_pieces = hi;
        for (int d = 1; d <= s.max_depth; ++d) {
            std::vector<int> lifts;
            int forced = 0;
            for (const MarginNode& n : study.nodes) {
                if (!in_band(n, &band)) continue;
                // A node whose every quiet move loses by force has no lift (-Infinity): any
                // margin covers it, and it stays out of the percentiles.
                const auto k = static_cast<std::size_t>(d - 1);
                if (n.forced_win[k]) ++forced;
                else if (n.lift[k] > -search::Infinity) lifts.push_back(n.lift[k]);
            }
            std::sort(lifts.begin(), lifts.end());
            std::vector<int> row;
            for (const double p : MarginPercentiles) row.push_back(percentile(lifts, p));
            band.percentiles.push_back(std::move(row));
            band.forced_wins.push_back(forced);
            if (d == 1) band.nodes = static_cast<int>(std::count_if(study.nodes.begin(), study.nodes.end(),
                                                                  [&](const MarginNode& n) { return in_band(n, &band); }));
        }
        if (band.nodes > 0) study.bands.push_back(std::move(band));
    }
    for (int d = 1; d <= s.max_depth; ++d) study.suggested.push_back(suggest_margin(study.nodes, study.bands, d, s.coverage));
    study.standard = standard_margins(s.max_depth);
    return study;
}

std::string margin_table(const MarginSettings& s, const MarginStudy& study) {
    static const char* const DepthNames[] = {"depth 1 (futility)", "depth 2 (extended futility)", "depth 3 (razoring)"};
    std::string out = fmt::format("margins: {} positions with a quiet move of {}; moves valued by {}, eval {}\n", study.nodes.size(),
                                  s.positions.size(), s.variant, s.eval);
    out += "lift: how far the best quiet move lifts a node above its static evaluation (centi-units)\n";
    for (int d = 1; d <= s.max_depth; ++d) {
        const auto k = static_cast<std::size_t>(d - 1);
        const auto& suggested = study.suggested[k];
        auto covered = [&](const std::optional<search::TaperedMargin>& m, const MarginBand* b) {
            return m ? fmt::format("{:.1f}%", 100 * margin_coverage(study.nodes, d, *m, b)) : std::string("-");
        };
        out += fmt::format("\n{}\n{:>8} {:>6} {:>7} {:>6} {:>6} {:>6} {:>7} {:>6} {:>9} {:>9}\n", DepthNames[k], "pieces", "nodes",
                           "forced", "p50", "p90", "p99", "p99.9", "max", "standard", "suggested");
        for (const MarginBand& b : study.bands) {
            const auto& p = b.percentiles[k];
            out += fmt::format("{:>8} {:>6} {:>7} {:>6} {:>6} {:>6} {:>7} {:>6} {:>9} {:>9}\n",
                               fmt::format("{}-{}", b.min_pieces, b.max_pieces), b.nodes, b.forced_wins[k], p[0], p[1], p[2], p[3],
                               p[4], covered(study.standard[k], &b), covered(suggested, &b));
        }
        out += fmt::format("standard margin {} covers {} of the nodes; suggested {} (the least covering {:.1f}% of every band) covers {}\n",
                           search::to_string(study.standard[k]), covered(study.standard[k], nullptr),
                           suggested ? search::to_string(*suggested) : std::string("none"), 100 * s.coverage,
                           covered(suggested, nullptr));
    }
    return out;
}

std::string margin_json(const MarginSettings& s, const MarginStudy& study) {
    static const char* const Keys[] = {"futility", "ext_futility", "razoring"};
    nlohmann::ordered_json j;
    j["positions"] = s.positions.size();
    j["nodes"] = study.nodes.size();
    j["variant"] = s.variant;
    j["eval"] = s.eval;
    j["coverage"] = s.coverage;
    j["percentiles"] = MarginPercentiles;
    for (int d = 1; d <= s.max_depth; ++d) {
        const auto k = static_cast<std::size_t>(d - 1);
        const auto& suggested = study.suggested[k];
        auto covered = [&](const std::optional<search::TaperedMargin>& m, const MarginBand* b) {
            return m ? nlohmann::ordered_json(margin_coverage(study.nodes, d, *m, b)) : nlohmann::ordered_json(nullptr);
        };
        nlohmann::ordered_json x;
        x["depth"] = d;
        x["standard"] = search::to_string(study.standard[k]);
        x["standard_coverage"] = covered(study.standard[k], nullptr);
        x["suggested"] = suggested ? nlohmann::ordered_json(search::to_string(*suggested)) : nlohmann::ordered_json(nullptr);
        x["suggested_coverage"] = covered(suggested, nullptr);
        for (const MarginBand& b : study.bands) {
            nlohmann::ordered_json band;
            band["pieces"] = {b.min_pieces, b.max_pieces};
            band["nodes"] = b.nodes;
            band["forced_wins"] = b.forced_wins[k];
            band["lift_percentiles"] = b.percentiles[k];
            band["standard_coverage"] = covered(study.standard[k], &b);
            band["suggested_coverage"] = covered(suggested, &b);
            x["bands"].push_back(std::move(band));
        }
        j[Keys[k]] = std::move(x);
    }
    return j.dump(2) + "\n";
}

}  // namespace matches
