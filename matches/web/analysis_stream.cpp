#include "matches/web/analysis_stream.hpp"

#include <atomic>
#include <cctype>
#include <chrono>

#include <fmt/format.h>

#include "common/search/report.hpp"
#include "common/text.hpp"
#include "loa/error.hpp"
#include "loa/notation.hpp"
#include "matches/web/query.hpp"

namespace matches::web {
namespace {

// The mark as the page's JSON names it: the judgement's name in lower case ("" for none).
std::string judgement_word(Judgement j) {
    std::string word(judgement_name(j));
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return word;
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

void stream_analysis(const AnalysisRequest& request, const std::string& variant, const std::string& eval, double max_ms,
                     const std::function<bool(std::string_view)>& write) {
    const std::size_t total = analysis_positions(request.game);
    if (!write(sse_event("start", {{"positions", total}}))) return;
    std::atomic<bool> stop{false};
    bool reader_gone = false;
    AnalysisSettings settings;
    settings.variant = variant;
    settings.eval = eval;
    settings.limits.stop = &stop;
    // A fixed depth has no time of its own: each search is capped at the allowance too.
    if (request.depth) settings.limits.depth = request.depth;
    settings.limits.hard_time_ms = request.depth ? max_ms : request.movetime_ms;
    const auto started = std::chrono::steady_clock::now();
    const GameAnalysis analysis = analyse_game(request.game, settings, [&](std::size_t done, std::size_t of) {
        reader_gone = reader_gone || !write(sse_event("progress", {{"done", done}, {"total", of}}));
        const std::chrono::duration<double, std::milli> elapsed = std::chrono::steady_clock::now() - started;
        if (reader_gone || elapsed.count() >= max_ms) stop = true;
    });
    if (reader_gone) return;
    // Past --max-search-seconds: the plies done so far, "complete": false.
    (void)write(sse_event("analysis", analysis_json(request.game, analysis, analysis.plies.size() == request.game.moves().size())));
}

}  // namespace matches::web
