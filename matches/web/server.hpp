// `loa serve`: the web board's HTTP server. It serves the page (built into the binary) and a
// small JSON API; the page holds the game and the server answers from the rules and the
// engine, so no rules or search logic lives in JavaScript.
//   GET  /                        the page (also /app.js, /style.css)
//   POST /api/game                {start, moves, rules} -> the game as JSON (game_api.hpp)
//   POST /api/pgn                 {start, moves, rules, black, white, ...} -> {"pgn": record}
//   GET  /api/search?...          a search as server-sent events (search_stream.hpp)
//   POST /api/ponderhit           {id}: a pondering search becomes the timed search of its move
//   GET  /api/operator            the operator's saved games (operator_games.hpp)
//   POST /api/operator            a new operator's game; POST /api/operator/ID saves it,
//   GET  /api/operator/ID         reads it back
//   GET  /api/config              presets, rules sets, defaults
//   GET  /api/files               the --records directory's files
//   GET  /api/records/NAME        the games of a PGN file (POST /api/records: of the body)
//   GET  /api/match/NAME          a match's standings, from its state file or result JSON
//   GET  /api/treesize/NAME       a tree-size result JSON
// Errors are 4xx with {"error": "..."}; the server never stops on a bad request.
// Only pages of its own may use it: a request that names another host or port (Host), or comes
// from a page of another origin (Origin, Sec-Fetch-Site), is refused with 403.
// Memory: one budget (max_memory_mb) for the searches' tables and for what the requests that
// parse a body or a file take while they read and answer it (memory_budget.hpp).
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace matches::web {

struct ServerSettings {
    std::string host = "127.0.0.1";
    int port = 8080;  // 0: any free port
    std::string records_dir;  // empty: no files are served
    std::string variant = "full";
    std::string eval;  // the engine's evaluation, Session's Eval option (empty: loa::DefaultEval)
    int max_searches = 2;              // engine searches at once (each holds a session)
    double max_search_ms = 300'000;    // an analysis ends after this at the latest
    // Memory: what one search's tables may claim (hash, every thread's evaluation cache, the
    // solver) or one request reading a body or a file, and what all of them running together
    // may claim; an idle session holds none.
    int max_request_mb = 256;
    int max_memory_mb = 1024;
    // The games of a records file and the plies of all its games (a game's) one request may
    // hold (game_api.hpp).
    std::size_t max_request_games = 10'000;
    std::size_t max_request_plies = 250'000;
    int max_threads = 0;  // search threads one request may use; 0: this machine's cores
    std::size_t max_body_bytes = 8 * 1024 * 1024;  // an opened records file included
    double request_seconds = 10;  // a request must arrive whole within this (http_server.hpp)
    // Host names the server answers to besides the address it listens on and the loopback
    // names (localhost, 127.0.0.1, [::1]), with its port; or "name:port", that name with that
    // port (a forwarded one: ssh -L 9999:localhost:8080). A request naming any other host or
    // port is refused, so that a web page cannot reach the board through a name of its own
    // (DNS rebinding), nor a page of another local server (another port) use it.
    std::vector<std::string> allowed_hosts;
};

class Server {
public:
    explicit Server(const ServerSettings& settings);  // throws InputError on bad settings
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    // Binds the socket; returns the port (the chosen one when settings.port is 0). Throws
    // InputError when the address cannot be bound.
    int bind();
    void serve();  // until stop(); after bind()
    void stop();   // from any thread

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace matches::web
