// A small HTTP/1.1 server for the web board, written so that no client can hold it. One thread
// does the waiting on clients: it polls every connection at once, reads each request whole
// (with a deadline for the whole request) and writes each plain response back (with a deadline
// for the whole response); a worker thread is taken only by a complete request, and only for
// as long as its handler runs. A client that sends or reads a byte at a time costs a socket
// until its deadline, never a worker. Streamed responses (server-sent events) are written by
// their worker, which a search holds anyway; a client that does not take one of its writes
// within a while is dropped. Connections, requests waiting for a worker, request heads and
// bodies, and the bytes all connections hold together (wherever they are) are bounded, and so
// is one connection's share of those bytes; while the bytes held leave less than a share free,
// clients that do not take their responses are dropped, so that they cannot refuse the others. A
// connection is closed gracefully: shut for writing, then its client's input dropped until
// the client closes, so that the kernel does not reset it and lose the answer.
//
// What it speaks: GET and POST (others 405), Content-Length bodies (a request with a
// Transfer-Encoding is refused with 411), keep-alive and pipelining, responses with a body or
// streamed in chunks (HTTP/1.0 clients: until the connection closes), "Expect: 100-continue".
// Routes are regular expressions over the decoded path.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace http {

struct Request {
    std::string method;
    std::string path;                           // decoded
    std::map<std::string, std::string> params;  // decoded query parameters (the last of a repeated name)
    std::map<std::string, std::string> headers; // by lower-case name
    std::string body;
    std::vector<std::string> matches;  // the route's regex: the whole path, then its groups

    // The header's value, "" when absent; `name` in any case.
    std::string header(std::string_view name) const;
};

// Writes a piece of a streamed response; false when the client is gone (or the server stops):
// the producer should return then.
using StreamWriter = std::function<bool(std::string_view)>;

struct Response {
    int status = 200;
    std::string content_type = "text/plain";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    // Set: the response is streamed (chunked) from this producer instead of `body`.
    std::function<void(const StreamWriter&)> stream;
    // Released once the response has been written (or its connection dropped), after its
    // request and its text are freed: what the handler holds for the request's sake (the
    // memory it claimed to read and answer it).
    std::shared_ptr<void> keep;

    void set_content(std::string text, std::string type) {
        body = std::move(text);
        content_type = std::move(type);
    }
};

using Handler = std::function<void(const Request&, Response&)>;
// Runs before routing: returns true when it has answered the request itself.
using Guard = std::function<bool(const Request&, Response&)>;
// Answers a request the server refuses (`status` 4xx or 5xx, `message`).
using ErrorHandler = std::function<void(Response&, int status, const std::string& message)>;
// Answers a request whose handler threw.
using ExceptionHandler = std::function<void(Response&, std::exception_ptr)>;

struct Limits {
    int workers = 8;                         // requests handled at once
    std::size_t max_connections = 256;       // open at once; more are closed as they come
    std::size_t max_waiting = 256;           // complete requests waiting for a worker; more get 503
    std::size_t max_head_bytes = 16 * 1024;
    std::size_t max_body_bytes = 8 * 1024 * 1024;
    std::size_t max_buffered_bytes = 64 * 1024 * 1024;  // requests being read and responses being written, together
    // One connection's share of it: its request, or its response (a larger one is refused with
    // 500). 0: a quarter of max_buffered_bytes, and at least a whole request.
    std::size_t max_connection_bytes = 0;
    double request_seconds = 10;  // from the first byte of a request to its last
    double idle_seconds = 2;      // a kept-alive connection waits this long for its next request
    double write_seconds = 10;    // a plain response must be taken within this (plus a second a MB),
                                  // each write of a streamed one too
    // While less than one connection's share is free, a client that has taken no byte of its
    // response for this long is dropped (the others are served rather than refused).
    double stalled_seconds = 1;
};

class Server {
public:
    explicit Server(Limits limits);
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    void get(const std::string& pattern, Handler handler);
    void post(const std::string& pattern, Handler handler);
    void set_guard(Guard guard) { guard_ = std::move(guard); }
    void set_error_handler(ErrorHandler handler) { error_handler_ = std::move(handler); }
    void set_exception_handler(ExceptionHandler handler) { exception_handler_ = std::move(handler); }

    // Binds `host`:`port` (0: any free port); returns the port, or -1 (the reason in `error`).
    int bind(const std::string& host, int port, std::string& error);
    // Serves until stop(); after bind(). Returns when every worker has finished.
    void serve();
    // From any thread, also before serve() (which then returns at once). Streams in progress
    // see their writes fail and end.
    void stop();
    bool stopping() const { return stopping_.load(); }

private:
    struct Connection;
    using Clock = std::chrono::steady_clock;
    struct Route {
        std::string method;
        std::regex pattern;
        Handler handler;
    };

    void io_loop();
    // Takes the waiting connections; true when accepting must pause (no descriptor or memory left).
    bool accept_connections(std::vector<std::unique_ptr<Connection>>& open);
    // Shuts `c` for writing and drops its client's input until the client closes (or a deadline).
    void linger(Connection& c);
    bool drop_input(Connection& c);  // false when the client has closed, or is gone
    void wait_for_request(Connection& c);
    // Reads what `c` has sent (no more than its request needs); true when it holds a complete
    // request, or one to refuse.
    bool read_request(Connection& c);
    bool parse_head(Connection& c, std::size_t end, std::size_t separator);
    // Writes what `c` has to send (a pass's share at most); false when the client is gone.
    bool write_pending(Connection& c);
    // Drops the clients that take no byte of their responses while less than a connection's
    // share is free, the largest first, until it is.
    void drop_stalled_writers(std::vector<std::unique_ptr<Connection>>& open);
    std::size_t connection_share() const;
    void queue_response(Connection& c, Response& res, bool keep_alive);
    void refuse(Connection& c, int status, const std::string& message);
    void work();
    void handle(Connection& c);
    void stream(Connection& c, Response& res);
    bool send_blocking(Connection& c, std::string_view data);
    void give_back(std::unique_ptr<Connection> c);
    void wake_io();

    Limits limits_;
    std::vector<Route> routes_;
    Guard guard_;
    ErrorHandler error_handler_;
    ExceptionHandler exception_handler_;

    int listen_fd_ = -1;
    int wake_pipe_[2] = {-1, -1};
    std::atomic<bool> stopping_{false};

    std::mutex mutex_;
    std::condition_variable work_ready_;
    std::deque<std::unique_ptr<Connection>> ready_;      // complete requests, for the workers
    std::vector<std::unique_ptr<Connection>> returned_;  // answered by a worker: back to the I/O thread
    std::size_t with_workers_ = 0;                        // connections a worker has or waits for
    std::atomic<std::size_t> buffered_{0};                // bytes all connections hold (requests, responses)
};

// Decodes %XX (and '+' as a space when `plus_is_space`); nullopt on a malformed escape.
std::optional<std::string> url_decode(std::string_view text, bool plus_is_space);

}  // namespace http
