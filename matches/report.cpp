#include "matches/report.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "matches/state.hpp"

namespace matches {
namespace {

std::string signed_elo(double v) {
    if (!std::isfinite(v)) return v > 0 ? "+inf" : "-inf";
    return fmt::format("{:+.1f}", std::abs(v) < 0.05 ? 0.0 : v);
}


// Ratings of all engines from every pairing's counts.
std::vector<Rating> ratings(const MatchSettings& s, const MatchResult& r) {
    const std::size_t n = s.engines.size();
    std::vector<std::vector<double>> points(n, std::vector<double>(n, 0));
    std::vector<std::vector<int>> games(n, std::vector<int>(n, 0));
    PairSpread pairs{std::vector<std::vector<int>>(n, std::vector<int>(n, 0)), std::vector<std::vector<double>>(n, std::vector<double>(n, 0))};
    for (const PairingStats& p : r.pairings) {
        const auto a = static_cast<std::size_t>(p.first), b = static_cast<std::size_t>(p.second);
        const double pa = static_cast<double>(p.games.wins) + 0.5 * static_cast<double>(p.games.draws);
        points[a][b] += pa;
        points[b][a] += static_cast<double>(p.games.games()) - pa;
        games[a][b] += static_cast<int>(p.games.games());
        games[b][a] += static_cast<int>(p.games.games());
        if (p.pairs.pairs() > 0) {
            pairs.count[a][b] = pairs.count[b][a] = static_cast<int>(p.pairs.pairs());
            pairs.variance[a][b] = pairs.variance[b][a] = estimate(p.pairs, p.games).variance;
        }
    }
    // Error bars from the pairs, as each pairing's interval: the table and the pairings agree.
    return fit_ratings(points, games, 0, &pairs);
}

// The decision with the LLR that took it; when games were counted after it (in flight when a
// match stopped, or the rest of a tournament's schedule), the final LLR too: the tables above
// count every game.
std::string sprt_summary(const SprtSettings& sprt, const PairingStats& p, bool stopped_by_sprt) {
    std::string out = fmt::format("  SPRT ({} elo0={:g} elo1={:g} alpha={:g} beta={:g}, bounds [{:.2f}, {:.2f}]): ",
                                  to_string(sprt.model), sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta, sprt.lower_bound(),
                                  sprt.upper_bound());
    if (p.decision == SprtDecision::Continue) return out + fmt::format("LLR {:.2f} -> no decision yet\n", p.llr);
    out += fmt::format("{} at game {} with LLR {:.2f}\n", to_string(p.decision), p.decision_games, p.decision_llr);
    if (p.decision_games != p.games.games())
        out += fmt::format("    {} more games {} counted above: final LLR {:.2f}\n", p.games.games() - p.decision_games,
                           stopped_by_sprt ? "were in flight at the decision and are" : "were played after it and are", p.llr);
    return out;
}

// Time per move of each engine that played on a clock, by its own move number: how its time
// manager spreads the clock over a game (the early moves, the middle game, a long endgame).
std::string time_per_move_table(const MatchResult& r) {
    constexpr int BandMoves = 10, Bands = 6;  // moves 1-10, ..., 41-50, 51 and later
    struct Band {
        double total = 0, slowest = 0;
        int moves = 0;
    };
    std::map<std::string, std::array<Band, Bands>> engines;
    auto add = [&](const std::string& engine, const std::string& limit, const std::vector<double>& ms) {
        if (limit.find("tc=") == std::string::npos) return;
        auto& bands = engines[engine];
        for (std::size_t i = 0; i < ms.size(); ++i) {
            Band& b = bands[std::min<std::size_t>(i / BandMoves, Bands - 1)];
            b.total += ms[i];
            b.slowest = std::max(b.slowest, ms[i]);
            ++b.moves;
        }
    };
    for (const GameRecord& g : r.games) {
        add(g.black, g.black_limit, g.black_move_ms);
        add(g.white, g.white_limit, g.white_move_ms);
    }
    if (engines.empty()) return {};
    std::string out = "\nTime per move on the clock, by the engine's own move number (mean / slowest ms, moves):\n";
    out += fmt::format("  {:<16}", "engine");
    for (int b = 0; b < Bands; ++b)
        out += b + 1 < Bands ? fmt::format(" {:>19}", fmt::format("{}-{}", b * BandMoves + 1, (b + 1) * BandMoves))
                             : fmt::format(" {:>19}", fmt::format("{}+", b * BandMoves + 1));
    out += '\n';
    for (const auto& [engine, bands] : engines) {
        out += fmt::format("  {:<16}", engine);
        for (const Band& b : bands)
            out += b.moves == 0 ? fmt::format(" {:>19}", "-")
                                : fmt::format(" {:>19}", fmt::format("{:.0f}/{:.0f} {}", b.total / b.moves, b.slowest, b.moves));
        out += '\n';
    }
    return out;
}

}  // namespace

std::string finished_line(const GameRecord& g) {
    return fmt::format("Finished game {} ({} vs {}): {} {{{}}}", g.index + 1, g.white, g.black, g.result_text(),
                       g.termination);
}

std::string progress_line(const MatchSettings& s, const PairingStats& p, int total_games) {
    // The summary's estimate, from the game pairs once there are any (labelled, since W/D/L on
    // the line may hold the first game of a pair in play, which the pairs do not count yet).
    const bool paired = p.pairs.pairs() > 0;
    const EloEstimate e = paired ? estimate(p.pairs, p.games) : estimate(p.games);
    std::string line = fmt::format("Score of {} vs {}: {} - {} - {}  [{:.3f}] {}/{}  Elo {} [{}, {}] ({} {})", s.engine_name(p.first),
                                   s.engine_name(p.second), p.games.wins, p.games.losses, p.games.draws, p.games.score(),
                                   p.games.games(), total_games, signed_elo(e.elo), signed_elo(e.elo_low),
                                   signed_elo(e.elo_high), paired ? p.pairs.pairs() : p.games.games(),
                                   paired ? (p.pairs.pairs() == 1 ? "pair" : "pairs") : (p.games.games() == 1 ? "game" : "games"));
    if (s.sprt)
        line += fmt::format("  LLR {:.2f} [{:.2f}, {:.2f}]", p.llr, s.sprt->lower_bound(), s.sprt->upper_bound());
    return line;
}

std::string summary(const MatchSettings& s, const MatchResult& r) {
    std::string out;
    for (const PairingStats& p : r.pairings) {
        const EloEstimate e = p.pairs.pairs() ? estimate(p.pairs, p.games) : estimate(p.games);
        out += fmt::format("\n{} vs {}: {} games, {} game pairs\n", s.engine_name(p.first), s.engine_name(p.second), p.games.games(),
                           p.pairs.pairs());
        out += fmt::format("  {:<14} {:>6} {:>6} {:>6} {:>8}\n", "", "wins", "draws", "losses", "score");
        out += fmt::format("  {:<14} {:>6} {:>6} {:>6} {:>7.1f}%\n", s.engine_name(p.first), p.games.wins, p.games.draws,
                           p.games.losses, 100 * p.games.score());
        if (p.pairs.pairs() == 0) {
            // One game says nothing of a difference: the estimates need a whole pair.
            out += "  no game pair finished yet: no Elo, nElo or LOS\n";
            continue;
        }
        out += fmt::format("  Elo difference {} (95% interval {} to {}), nElo {:+.1f} +- {:.1f}\n", signed_elo(e.elo),
                           signed_elo(e.elo_low), signed_elo(e.elo_high), e.normalized_elo, e.nelo_error);
        out += fmt::format("  LOS {:.1f}%, draw ratio {:.1f}%\n", 100 * e.los, 100 * e.draw_ratio);
        out += fmt::format("  Pentanomial [0, 0.5, 1, 1.5, 2 points]: [{}, {}, {}, {}, {}]\n", p.pairs.count[0],
                           p.pairs.count[1], p.pairs.count[2], p.pairs.count[3], p.pairs.count[4]);
        if (s.sprt) out += sprt_summary(*s.sprt, p, r.stopped_by_sprt);
        // A gauntlet has no --test/--base, but a decided pairing still gets its plain words:
        // its SPRT is from the pairing's first engine's side, which is easy to misread.
        if (s.test_vs_base || (s.sprt && p.decision != SprtDecision::Continue)) out += "  " + verdict_line(s, p);
    }
    double slowest = 0, overshoot = 0;
    std::size_t moves = 0;
    for (const GameRecord& g : r.games) {
        slowest = std::max({slowest, g.black_max_move_ms, g.white_max_move_ms});
        overshoot = std::max(overshoot, g.max_overshoot_ms);
        moves += g.moves.size();
    }
    if (!r.games.empty())
        out += fmt::format("\n{} games, {} moves; slowest move {:.1f} ms; worst overshoot of a move's hard limit {:.2f} ms\n",
                           r.games.size(), moves, slowest, overshoot);
    out += time_per_move_table(r);
    if (s.engines.size() > 2) {
        out += fmt::format("\nRatings (Bradley-Terry maximum likelihood, anchored on {} = 0; 95% error from the game pairs):\n",
                           s.engine_name(0));
        out += fmt::format("  {:<4} {:<16} {:>8} {:>8} {:>7} {:>7}\n", "rank", "engine", "elo", "+-95%", "points", "games");
        const auto rs = ratings(s, r);
        std::vector<std::size_t> order(rs.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return rs[a].elo > rs[b].elo; });
        for (std::size_t k = 0; k < order.size(); ++k) {
            const Rating& x = rs[order[k]];
            out += fmt::format("  {:<4} {:<16} {:>8.1f} {:>8.1f} {:>7.1f} {:>7}\n", k + 1, s.engines[order[k]].name, x.elo,
                               x.error, x.points, x.games);
        }
    }
    return out;
}

namespace {

// What an accepted hypothesis says of the pairing's first engine. It depends on where the bounds
// lie: [0, 10] asks "stronger?", a non-regression test such as [-10, 0] asks "weaker?" (an
// ablation's question). Bounds that both lie beyond 0 ask "by how much?": H0 of [5, 15] still
// allows +5, so it says "not stronger by 15", and H1 of [-15, -5] "not weaker by 15".
std::string decision_words(const SprtSettings& sprt, SprtDecision d) {
    if (d == SprtDecision::AcceptH1) {
        if (sprt.elo0 >= 0) return "stronger";
        return sprt.elo1 < 0 ? fmt::format("not weaker by {:g}", -sprt.elo0) : "not weaker";
    }
    if (sprt.elo1 <= 0) return "weaker";
    return sprt.elo0 > 0 ? fmt::format("not stronger by {:g}", sprt.elo1) : "not stronger";
}

}  // namespace

std::string verdict_line(const MatchSettings& s, const PairingStats& p) {
    const EloEstimate e = p.pairs.pairs() ? estimate(p.pairs, p.games) : estimate(p.games);
    const std::string& test = s.engine_name(p.first);
    const std::string& base = s.engine_name(p.second);
    std::string out = fmt::format("Verdict: {} vs {}: {} Elo [{}, {}] in {} games; ", test, base, signed_elo(e.elo),
                                  signed_elo(e.elo_low), signed_elo(e.elo_high), p.games.games());
    if (s.sprt) {
        switch (p.decision) {
            case SprtDecision::AcceptH1:
            case SprtDecision::AcceptH0:
                return out + fmt::format("SPRT accepted {}: {} is {} (elo0 = {:g}, elo1 = {:g})\n",
                                         p.decision == SprtDecision::AcceptH1 ? "H1" : "H0", test,
                                         decision_words(*s.sprt, p.decision), s.sprt->elo0, s.sprt->elo1);
            case SprtDecision::Continue:
                return out + fmt::format("no SPRT decision (LLR {:.2f} within [{:.2f}, {:.2f}])\n", p.llr,
                                         s.sprt->lower_bound(), s.sprt->upper_bound());
        }
    }
    if (e.elo_low > 0) return out + fmt::format("{} is stronger (95% interval above 0)\n", test);
    if (e.elo_high < 0) return out + fmt::format("{} is weaker (95% interval below 0)\n", test);
    return out + "no significant difference (95% interval contains 0)\n";
}

std::string interim_report(const MatchSettings& s, const std::vector<PairingStats>& pairings, int finished, int scheduled,
                           double elapsed_seconds, int played_this_run) {
    std::string eta = "?";
    if (finished >= scheduled) eta = "0:00:00";
    else if (played_this_run > 0) {
        const auto left = static_cast<long>(elapsed_seconds / played_this_run * (scheduled - finished));
        eta = fmt::format("{}:{:02}:{:02}", left / 3600, left / 60 % 60, left % 60);
    }
    const auto run = static_cast<long>(elapsed_seconds);
    std::string out = fmt::format("--- Report after {} of {} games ({}:{:02}:{:02} elapsed, {:.1f} games/min, about {} left) ---\n",
                                  finished, scheduled, run / 3600, run / 60 % 60, run % 60,
                                  elapsed_seconds > 0 ? 60 * played_this_run / elapsed_seconds : 0.0, eta);
    MatchResult partial;
    partial.pairings = pairings;
    out += summary(s, partial);
    return out + "---\n";
}

std::string result_json(const MatchSettings& s, const MatchResult& r) {
    nlohmann::ordered_json j;
    j["event"] = s.event;
    j["settings"] = settings_json(s);
    j["scheduled_games"] = r.scheduled_games;
    j["played_games"] = r.games.size();
    j["stopped_by_sprt"] = r.stopped_by_sprt;
    for (const EngineSpec& e : s.engines)
        j["engines"].push_back({{"name", e.name},
                                {"spec", e.text},
                                {"search", e.external() ? "external" : variant::to_string(e.config)},
                                {"eval", e.eval},
                                {"rps", e.rps},
                                {"limit", e.limit_text()}});
    for (const PairingStats& p : r.pairings) {
        const EloEstimate e = p.pairs.pairs() ? estimate(p.pairs, p.games) : estimate(p.games);
        nlohmann::ordered_json x;
        x["first"] = s.engine_name(p.first);
        x["second"] = s.engine_name(p.second);
        x["wins"] = p.games.wins;
        x["draws"] = p.games.draws;
        x["losses"] = p.games.losses;
        x["score"] = p.games.score();
        x["pentanomial"] = p.pairs.count;
        x["elo"] = e.elo;
        x["elo_low"] = e.elo_low;
        x["elo_high"] = e.elo_high;
        x["nelo"] = e.normalized_elo;
        x["nelo_error"] = e.nelo_error;
        x["los"] = e.los;
        x["draw_ratio"] = e.draw_ratio;
        if (s.sprt) {
            x["sprt"] = {{"elo0", s.sprt->elo0},      {"elo1", s.sprt->elo1},
                         {"alpha", s.sprt->alpha},    {"beta", s.sprt->beta},
                         {"model", to_string(s.sprt->model)},
                         {"llr", p.llr},              {"lower", s.sprt->lower_bound()},
                         {"upper", s.sprt->upper_bound()}, {"decision", to_string(p.decision)}};
            if (p.decision != SprtDecision::Continue) {
                x["sprt"]["decision_llr"] = p.decision_llr;
                x["sprt"]["decision_games"] = p.decision_games;
            }
        }
        j["pairings"].push_back(x);
    }
    if (s.engines.size() > 2) {
        const auto rs = ratings(s, r);
        for (std::size_t i = 0; i < rs.size(); ++i)
            j["ratings"].push_back({{"engine", s.engines[i].name}, {"elo", rs[i].elo}, {"error", rs[i].error},
                                    {"points", rs[i].points}, {"games", rs[i].games}});
    }
    // The order the run counted the games in, by game number: its SPRT decided in this order,
    // so a replay of the LLR (the plot, a check) reaches the same decision at the same game.
    if (!r.counting_order.empty()) {
        j["counting_order"] = nlohmann::ordered_json::array();
        for (const int index : r.counting_order) j["counting_order"].push_back(index + 1);
    }
    for (const GameRecord& g : r.games) j["games"].push_back(game_json(g));
    return j.dump(2);
}

}  // namespace matches
