#include "matches/output_format.hpp"

#include <cmath>

#include <fmt/format.h>

#include "common/error.hpp"

namespace matches {
namespace {


// An even score prints as 0.0, not as the logarithm's -0.0.
double no_negative_zero(double v) { return v == 0 ? 0.0 : v; }

// fastchess's time control text: "10+0.1", "0.5/move", "6 plies", "20000 nodes".
std::string fastchess_limit(const EngineSpec& e) {
    if (e.time_control) return fmt::format("{:g}+{:g}", e.time_control->base_ms / 1000, e.time_control->increment_ms / 1000);
    if (e.move_time_ms > 0) return fmt::format("{:g}/move", e.move_time_ms / 1000);
    if (e.depth) return fmt::format("{} plies", e.depth);
    if (e.nodes) return fmt::format("{} nodes", e.nodes);
    return "";
}

// fastchess writes one value when both engines agree and "a - b" when they do not.
std::string one_or_both(const std::string& a, const std::string& b) { return a == b ? a : a + " - " + b; }

std::string sprt_bounds_line(const MatchSettings& s, const PairingStats& p) {
    return fmt::format("LLR: {:.2f} ({:.2f}, {:.2f}) [{:.2f}, {:.2f}]\n", p.llr, s.sprt->lower_bound(), s.sprt->upper_bound(),
                       s.sprt->elo0, s.sprt->elo1);
}

}  // namespace

OutputFormat parse_output_format(std::string_view text) {
    if (text == "native") return OutputFormat::Native;
    if (text == "cutechess") return OutputFormat::Cutechess;
    if (text == "fastchess") return OutputFormat::Fastchess;
    throw common::InputError(fmt::format("output format: native, cutechess or fastchess, not '{}'", text));
}

std::string started_game_line(int number, int total, const std::string& white, const std::string& black) {
    return fmt::format("Started game {} of {} ({} vs {})", number, total, white, black);
}

std::string cutechess_score_line(const MatchSettings& s, const PairingStats& p) {
    return fmt::format("Score of {} vs {}: {} - {} - {}  [{:.3f}] {}", s.engine_name(p.first), s.engine_name(p.second), p.games.wins,
                       p.games.losses, p.games.draws, p.games.score(), p.games.games());
}

std::string cutechess_results(const MatchSettings& s, const std::vector<PairingStats>& pairings) {
    std::string out;
    for (const PairingStats& p : pairings) {
        if (pairings.size() > 1) out += cutechess_score_line(s, p) + "\n";
        // cutechess-cli's margin is the half width of the 95% interval of the game counts.
        const EloEstimate e = estimate(p.games);
        out += fmt::format("Elo difference: {:.1f} +/- {:.1f}, LOS: {:.1f} %, DrawRatio: {:.1f} %\n", no_negative_zero(e.elo),
                           (e.elo_high - e.elo_low) / 2, 100 * e.los, 100 * e.draw_ratio);
        if (s.sprt) {
            std::string line = fmt::format("SPRT: llr {:.3g} ({:.1f}%), lbound {:.3g}, ubound {:.3g}", p.llr,
                                           100 * p.llr / s.sprt->upper_bound(), s.sprt->lower_bound(), s.sprt->upper_bound());
            if (p.decision == SprtDecision::AcceptH0) line += " - H0 was accepted";
            if (p.decision == SprtDecision::AcceptH1) line += " - H1 was accepted";
            out += line + "\n";
        }
    }
    return out;
}

std::string fastchess_results(const MatchSettings& s, const std::vector<PairingStats>& pairings) {
    const std::string dashes(50, '-');
    std::string out;
    for (const PairingStats& p : pairings) {
        const EngineSpec& a = s.engines[static_cast<std::size_t>(p.first)];
        const EngineSpec& b = s.engines[static_cast<std::size_t>(p.second)];
        // The pentanomial estimate once there are pairs, as fastchess reports by default.
        const bool paired = p.pairs.pairs() > 0;
        const EloEstimate e = paired ? estimate(p.pairs, p.games) : estimate(p.games);
        const auto& c = p.pairs.count;  // by pair score 0, 0.5, 1, 1.5, 2: fastchess's Ptnml(0-2)
        const double points = static_cast<double>(p.games.wins) + 0.5 * static_cast<double>(p.games.draws);
        const double games = static_cast<double>(p.games.games());
        const double pairs_ratio = c[0] + c[1] > 0 ? static_cast<double>(c[3] + c[4]) / static_cast<double>(c[0] + c[1]) : INFINITY;
        auto threads = [](const EngineSpec& x) { return x.external() ? std::string("NULL") : fmt::format("{}t", x.config.threads); };
        auto hash = [](const EngineSpec& x) { return x.external() || !x.config.tt ? std::string("NULL") : fmt::format("{}MB", x.config.tt_mb); };
        std::string book;
        if (s.openings_source.starts_with("file ")) {
            std::string file = s.openings_source.substr(5, s.openings_source.rfind(" order=") - 5);
            book = ", " + file.substr(file.find_last_of('/') + 1);
        }
        out += dashes + "\n";
        out += fmt::format("Results of {} vs {} ({}, {}, {}{}):\n", a.name, b.name, one_or_both(fastchess_limit(a), fastchess_limit(b)),
                           one_or_both(threads(a), threads(b)), one_or_both(hash(a), hash(b)), book);
        out += fmt::format("Elo: {:.2f} +/- {:.2f}, nElo: {:.2f} +/- {:.2f}\n", no_negative_zero(e.elo), (e.elo_high - e.elo_low) / 2,
                           no_negative_zero(e.normalized_elo), e.nelo_error);
        out += fmt::format("LOS: {:.2f} %, DrawRatio: {:.2f} %, PairsRatio: {:.2f}\n", 100 * e.los, 100 * e.draw_ratio, pairs_ratio);
        out += fmt::format("Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1f} ({:.2f} %)\n", p.games.games(), p.games.wins,
                           p.games.losses, p.games.draws, points, games > 0 ? 100 * points / games : 0.0);
        out += fmt::format("Ptnml(0-2): [{}, {}, {}, {}, {}]\n", c[0], c[1], c[2], c[3], c[4]);
        if (s.sprt) out += sprt_bounds_line(s, p);
        out += dashes + "\n";
    }
    return out;
}

std::string foreign_results(OutputFormat format, const MatchSettings& s, const std::vector<PairingStats>& pairings) {
    return format == OutputFormat::Fastchess ? fastchess_results(s, pairings) : cutechess_results(s, pairings);
}

}  // namespace matches
