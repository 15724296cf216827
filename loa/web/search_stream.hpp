// Engine searches for the web board. A fixed pool of sessions (each with its own tables) is
// lent to one request at a time, so the page can never run more searches than the server
// allows; a search streams its iterations as server-sent events and stops as soon as the
// page stops reading (closed, reloaded, or the user pressed stop).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loa/engine/session.hpp"

namespace loa::web {

// A pooled session and the settings it was last given.
struct Pooled {
    engine::Session session;
    std::string variant, rules;
};

class SessionPool {
public:
    SessionPool(int sessions, std::string variant);

    // A session lent to one request; returned to the pool when the lease ends.
    class Lease {
    public:
        Lease(SessionPool& pool, Pooled& session) : pool_(&pool), session_(&session) {}
        Lease(Lease&& other) noexcept : pool_(other.pool_), session_(other.session_) { other.session_ = nullptr; }
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        Lease& operator=(Lease&&) = delete;
        ~Lease();
        engine::Session& session() { return session_->session; }
        // Sets the variant and rules, only where they change: a change rebuilds the tables.
        void configure(const std::string& variant, const std::string& rules);

    private:
        SessionPool* pool_;
        struct Pooled* session_;
    };

    // A free session, waiting up to `patience` for one (a search whose page went away keeps
    // its session until the next heartbeat notices); nullopt: every session is searching.
    std::optional<Lease> acquire(std::chrono::milliseconds patience);
    int size() const { return static_cast<int>(sessions_.size()); }
    const std::string& variant() const { return variant_; }

private:
    std::mutex mutex_;
    std::condition_variable returned_;
    std::vector<std::unique_ptr<Pooled>> sessions_;
    std::vector<Pooled*> free_;
    std::string variant_;
};

struct SearchRequest {
    Game game;
    std::string variant;      // empty: the server's
    double movetime_ms = 0;   // 0: until stopped (analysis), within the server's cap
    int depth = 0;            // > 0: stop after this depth
};

// From the query of GET /api/search: start, moves, rules, variant, movetime (ms), depth.
// Throws InputError naming the bad parameter.
SearchRequest search_request(const std::map<std::string, std::string>& params, const RuleSet& rules);

// Runs the search on `session` and writes events through `write` until it ends:
//   event: info      data: {"depth", "seldepth", "score", "nodes", "nps", "time_ms", "pv": [...]}
//   event: bestmove  data: {"move", "score", "depth", "nodes", "pv"}
//   event: error     data: {"error"} (a failure after the stream began; none is expected)
// A comment line is written every half second while an iteration runs, so that a page that
// went away is noticed (`write` returns false) and the search stopped. Analysis ends after
// `max_ms` at the latest.
void stream_search(SessionPool::Lease& lease, const SearchRequest& request, double max_ms,
                   const std::function<bool(std::string_view)>& write);

}  // namespace loa::web
