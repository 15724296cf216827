// The web board's view of a game as JSON: the page sends the start and the moves, the server
// replays them under the rules and answers with everything the page draws (pieces, legal
// moves, move list, result). The server keeps no game: every request carries its own, so a
// reload, a second tab or undo need nothing on the server side.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "loa/error.hpp"
#include "loa/game.hpp"

namespace matches::web {
using namespace ::loa;  // the board speaks the game's types throughout

// A request over one of the board's limits: answered 413, with the limit named.
struct TooLarge : InputError {
    using InputError::InputError;
};

// What a request names and the server does not have (a file of the records directory, a game
// of a match): answered 404, not 400.
struct NotFound : InputError {
    using InputError::InputError;
};

// What one request may hold: the games of a records file, and the plies of all its games
// together. They bound what a request makes the server parse and answer: a legal game of
// 1.3 million plies (repetition off) once took 260 MB to answer, and 8 MB of empty records
// 600 MB. The plies are those of 2,500 games of 100 plies; a real game of LOA has a few hundred.
struct RequestLimits {
    std::size_t games = 10'000;
    std::size_t plies = 250'000;
};

// The JSON of a request's body. Throws InputError when it is not JSON, and TooLarge when it
// holds more values than a game of `limits` needs (its moves and a few fields): checked while
// parsing, before the rest is read into memory.
nlohmann::json parse_request_json(std::string_view text, const RequestLimits& limits);

// {"start": position text or "startpos" (default), "moves": "b1-d3 a2xb1 ..." or a list,
//  "rules": rule string (default `rules`)}. Throws InputError naming the bad field or move, and
// TooLarge when the moves are more than `limits` allows.
Game game_from_request(const nlohmann::json& request, const RuleSet& rules, const RequestLimits& limits = {});

// {"position", "side_to_move": "b"|"w", "pieces": {"b1": "b", ...}, "moves": ["b1-d3", ...],
//  "last_move": {"from", "to"} or null, "legal": [{"from", "to", "text", "capture"}],
//  "over", "result": "1-0"|"0-1"|"1/2-1/2"|"*", "winner", "termination", "description",
//  "connected": the colours whose pieces form one group ("b", "w"; both after a simultaneous
//  connection), "rules"}
nlohmann::json game_json(const Game& game);

// The game as a PGN record (matches/records.hpp), for the page's download: the request of
// game_from_request plus "black", "white" (players' names), "time_control" (PGN's, e.g.
// "300+2"), "time_forfeit": "b"|"w" (that side's flag fell: the other wins, unless the game
// had already ended by the rules), "resigned": "b"|"w" (that side resigned), "draw_agreed":
// true, "date" ("YYYY.MM.DD"), "event"; for two clocks "black_time_control" and
// "white_time_control" instead of "time_control"; "clocks": the mover's time left after each
// move (ms), written as "{[%clk H:MM:SS]}" comments. Throws InputError on bad fields.
std::string game_pgn(const nlohmann::json& request, const RuleSet& rules, const RequestLimits& limits = {});

// How a game ended off the board: a flag fall or a resignation (whose: "b" or "w"), or an
// agreed draw; at most one of them.
struct OffBoardEnding {
    std::string time_forfeit, resigned;
    bool draw_agreed = false;
    bool any() const { return !time_forfeit.empty() || !resigned.empty() || draw_agreed; }
};
// The ending named by `object`'s "time_forfeit", "resigned" and "draw_agreed" (each optional);
// `where` prefixes the names in errors ("ending."). Throws InputError.
OffBoardEnding off_board_ending(const nlohmann::json& object, const std::string& where = "");

// `object[key]`: one time (ms, 0 or more) a move of a game of `moves` moves, or nothing (absent
// or null: empty). Throws InputError naming `key`.
std::vector<double> clock_times(const nlohmann::json& object, const char* key, std::size_t moves);

// JSON text for an answer. Text from a request (a move, a name) may be any bytes: invalid
// UTF-8 is replaced, never thrown on (a throw while answering an error would end the server).
std::string json_text(const nlohmann::json& j);

}  // namespace matches::web
