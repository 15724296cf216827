// A computer analysis of a whole game for the web board (loa/game_analysis.hpp): the page asks
// for one game, the server searches every position at a fixed budget on a session lent from the
// search pool (so it counts as one of the searches the server allows and claims its tables'
// memory), streams its progress as server-sent events and ends with every move's values and
// marks. Closing the stream (the page's cancel) stops the analysis at once.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "loa/game.hpp"
#include "loa/game_analysis.hpp"
#include "matches/web/game_api.hpp"

namespace matches::web {

struct AnalysisRequest {
    Game game;
    double movetime_ms = 100;  // a position's budget
    int depth = 0;             // > 0: a fixed depth instead (the same result every time)
};

// From the query: start, moves, rules (as a game request), movetime (10..10,000 ms, default 100)
// or depth (1..20). Throws InputError naming the bad field.
AnalysisRequest analysis_request(const std::map<std::string, std::string>& params, const RuleSet& rules,
                                 const RequestLimits& limits);

// The positions an analysis searches: one a move, and the last unless the game is over.
std::size_t analysis_positions(const Game& game);

// {"plies": [{"move", "best", "pv": [...], "score" and "score_after" (the mover's side, as
// format_score writes them), "expected_after" (the mover's expected result after the move),
// "white_expected": White's after the move (the graph's point), "judgement": "" | "inaccuracy" |
// "mistake" | "blunder", "only_move"}], "white_expected_start", "nodes", "seconds", "complete"}
nlohmann::json analysis_json(const Game& game, const GameAnalysis& analysis, bool complete);

// Runs the analysis with `variant` and `eval` (the server's), writing "start" {"positions"},
// "progress" {"done", "total"} after each position and "analysis" (analysis_json) at the end; a
// failed write (the page went away) stops it. `max_ms` bounds it: no search runs longer (a
// fixed depth has no time of its own), and past it no new position is searched ("complete":
// false).
void stream_analysis(const AnalysisRequest& request, const std::string& variant, const std::string& eval, double max_ms,
                     const std::function<bool(std::string_view)>& write);

}  // namespace matches::web
