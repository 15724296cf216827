#include "matches/web/analysis_stream.hpp"

#include <atomic>

#include <fmt/format.h>

#include "common/search/report.hpp"
#include "common/text.hpp"
#include "loa/error.hpp"
#include "loa/notation.hpp"
#include "matches/web/query.hpp"

namespace matches::web {
namespace {

std::string_view judgement_word(Judgement j) {
    switch (j) {
        case Judgement::Inaccuracy: return "inaccuracy";
        case Judgement::Mistake: return "mistake";
        case Judgement::Blunder: return "blunder";
        case Judgement::None: break;
    }
    return "";
}

}  // namespace

AnalysisRequest analysis_request(const std::map<std::string, std::string>& params, const RuleSet& rules,
                                 const RequestLimits& limits) {
    nlohmann::json game_request = nlohmann::json::object();
    for (const char* key : {"start", "moves", "rules"})
        if (params.contains(key)) game_request[key] = query_param(params, key);
    AnalysisRequest r{game_from_request(game_request, rules, limits)};
    if (r.game.moves().empty()) throw InputError("a game to analyse needs moves");
    r.movetime_ms = static_cast<double>(query_number(params, "movetime", 10, 10'000).value_or(100));
    r.depth = static_cast<int>(query_number(params, "depth", 1, 20).value_or(0));
    if (r.depth && params.contains("movetime")) throw InputError("'movetime' and 'depth' exclude each other");
    return r;
}

std::size_t analysis_positions(const Game& game) { return game.moves().size() + (game.over() ? 0 : 1); }

nlohmann::json analysis_json(const Game& game, const GameAnalysis& analysis, bool complete) {
    nlohmann::json plies = nlohmann::json::array();
    Colour mover = game.start_position().side_to_move();
    double white_start = 0.5;
    for (std::size_t i = 0; i < analysis.plies.size(); ++i) {
        const PlyAnalysis& a = analysis.plies[i];
        if (i == 0) white_start = mover == Colour::White ? a.expected_before : 1 - a.expected_before;
        nlohmann::json pv = nlohmann::json::array();
        for (const Move m : a.pv) pv.push_back(move_to_text(m));
        plies.push_back({{"move", move_to_text(a.played)},
                         {"best", move_to_text(a.best)},
                         {"pv", pv},
                         {"score", search::format_score(a.score)},
                         {"score_after", search::format_score(a.score_after)},
                         {"expected_after", a.expected_after},
                         {"white_expected", mover == Colour::White ? a.expected_after : 1 - a.expected_after},
                         {"judgement", judgement_word(a.judgement)},
                         {"only_move", a.only_move}});
        mover = ~mover;
    }
    return {{"plies", plies},
            {"white_expected_start", white_start},
            {"nodes", analysis.nodes},
            {"seconds", analysis.seconds},
            {"complete", complete}};
}

void stream_analysis(const AnalysisRequest& request, const std::string& variant, const std::string& eval,
                     const std::function<bool(std::string_view)>& write) {
    const std::size_t total = analysis_positions(request.game);
    if (!write(sse_event("start", {{"positions", total}}))) return;
    std::atomic<bool> stop{false};
    AnalysisSettings settings;
    settings.variant = variant;
    settings.eval = eval;
    settings.limits.stop = &stop;
    if (request.depth) settings.limits.depth = request.depth;
    else settings.limits.hard_time_ms = request.movetime_ms;
    const GameAnalysis analysis = analyse_game(request.game, settings, [&](std::size_t done, std::size_t of) {
        if (!write(sse_event("progress", {{"done", done}, {"total", of}}))) stop = true;
    });
    if (stop) return;  // nobody is reading
    (void)write(sse_event("analysis", analysis_json(request.game, analysis, analysis.plies.size() == request.game.moves().size())));
}

}  // namespace matches::web
