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
#include "matches/web/memory_budget.hpp"

namespace matches::web {
using namespace ::loa;  // the board speaks the game's types throughout

// A pooled session and the settings it was last given.
struct Pooled {
    engine::Session session;
    std::string variant, rules;
};

// Memory: each lease claims what its search's tables take from the server's budget, which the
// requests that parse bodies and files share (memory_budget.hpp), and a returned session frees
// its tables, so that the searches and requests running together never claim more than the
// budget and idle sessions claim nothing.
class SessionPool {
public:
    // Every session evaluates with `eval` (a server setting, not a request's: a request must not
    // make the server read files of its choosing).
    SessionPool(int sessions, std::string variant, const std::string& eval, MemoryBudget& budget);

    // A session lent to one request; returned to the pool (its tables freed, its memory given
    // back to the budget) when the lease ends.
    class Lease {
    public:
        Lease(SessionPool& pool, Pooled& session, MemoryBudget::Claim claim)
            : pool_(&pool), session_(&session), claim_(std::move(claim)) {}
        Lease(Lease&& other) noexcept : pool_(other.pool_), session_(other.session_), claim_(std::move(other.claim_)) {
            other.session_ = nullptr;
        }
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        Lease& operator=(Lease&&) = delete;
        ~Lease();
        engine::Session& session() { return session_->session; }
        // Sets the variant and rules, only where they change: a change rebuilds the tables.
        void configure(const std::string& variant, const std::string& rules);

        double claim_mb() const { return claim_.mb(); }

    private:
        SessionPool* pool_;
        struct Pooled* session_;
        // Returned after the destructor's body has freed the session's tables.
        MemoryBudget::Claim claim_;
    };

    // A free session, then `claim_mb` of the budget, waiting up to `patience` for both (a search
    // whose page went away keeps its session until the next heartbeat notices); nullopt: every
    // session is searching, or the searches and requests running hold too much of the budget. No more
    // requests wait at once than there are sessions; the others get nullopt at once.
    std::optional<Lease> acquire(std::chrono::milliseconds patience, double claim_mb);
    int size() const { return static_cast<int>(sessions_.size()); }
    const std::string& variant() const { return variant_; }

private:
    std::mutex mutex_;
    std::condition_variable returned_;
    std::vector<std::unique_ptr<Pooled>> sessions_;
    std::vector<Pooled*> free_;
    std::string variant_;
    MemoryBudget& budget_;
    std::size_t waiting_ = 0;  // requests waiting for a session
};

struct SearchRequest {
    Game game;
    std::string variant;      // empty: the server's
    double movetime_ms = 0;   // 0: until stopped (analysis), within the server's cap
    int depth = 0;            // > 0: stop after this depth
    int multipv = 1;          // lines a depth (MultiPV; the alpha-beta search's)
    // A game on the clock: the side to move's time left and increment (ms), planned by the
    // engine's tournament time manager; time_left_ms < 0: no clock.
    double time_left_ms = -1;
    double increment_ms = 0;
    // Think on the opponent's time (UCI's go ponder): the game holds the move the engine
    // expects, the search has no time limit until POST /api/ponderhit makes it a timed one.
    bool ponder = false;
};

// The searches pondering now, each by the id its stream gave (event "ponder"): a hit turns
// one into the timed search of the move (UCI's ponderhit), its time counted from its start.
class PonderSearches {
public:
    // The registration of a running search, undone when it ends (before its session returns).
    class Entry {
    public:
        Entry(PonderSearches& searches, std::uint64_t id) : searches_(&searches), id_(id) {}
        Entry(const Entry&) = delete;
        Entry& operator=(const Entry&) = delete;
        ~Entry() { searches_->remove(id_); }
        std::uint64_t id() const { return id_; }

    private:
        PonderSearches* searches_;
        std::uint64_t id_;
    };

    std::unique_ptr<Entry> add(engine::Session& session);
    // false: no such search (it ended, or never was).
    bool hit(std::uint64_t id);

private:
    void remove(std::uint64_t id);
    std::mutex mutex_;
    std::map<std::uint64_t, engine::Session*> searches_;
    std::uint64_t next_ = 1;
};

// The most lines the board asks for (each costs a search of its own).
inline constexpr int MaxWebMultiPv = 8;

// From the query of GET /api/search: start, moves, rules, variant, movetime (ms), depth,
// multipv (lines, 1..MaxWebMultiPv), and a clock as UCI gives it: wtime, btime, winc, binc
// (ms; the side to move's are used, and its time is required once any is given; movetime
// and a clock exclude each other); ponder=1 (a clock required): think on the opponent's time.
// Throws InputError naming the bad parameter.
SearchRequest search_request(const std::map<std::string, std::string>& params, const RuleSet& rules);

// Runs the search on `session` and writes events through `write` until it ends:
//   event: start     data: {"memory_mb", "memory"} (what the search's tables claim, said)
//   event: ponder    data: {"id"} (a pondering search: the id POST /api/ponderhit names)
//   event: info      data: {"depth", "seldepth", "score", "nodes", "nps", "time_ms", "pv": [...]}
//                    (with multipv > 1 also "multipv": K, each depth's lines in a row, best first)
//   event: bestmove  data: {"move", "score", "depth", "nodes", "pv", "memory_mb"}
//   event: error     data: {"error"} (a failure after the stream began; none is expected)
// A comment line is written every half second while an iteration runs, so that a page that
// went away is noticed (`write` returns false) and the search stopped. Analysis ends after
// `max_ms` at the latest.
void stream_search(SessionPool::Lease& lease, const SearchRequest& request, double max_ms,
                   const std::function<bool(std::string_view)>& write, PonderSearches* ponders = nullptr);

}  // namespace matches::web
