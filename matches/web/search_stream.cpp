#include "matches/web/search_stream.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <deque>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/search/report.hpp"
#include "common/text.hpp"
#include "loa/error.hpp"
#include "loa/notation.hpp"
#include "matches/web/game_api.hpp"
#include "matches/web/query.hpp"

namespace matches::web {
using namespace ::loa;  // the board speaks the game's types throughout

SessionPool::SessionPool(int sessions, std::string variant, const std::string& eval, MemoryBudget& budget)
    : variant_(std::move(variant)), budget_(budget) {
    for (int i = 0; i < sessions; ++i) {
        sessions_.push_back(std::make_unique<Pooled>());
        sessions_.back()->session.set_option("Eval", eval);  // validated (a file read) here, once a session
        sessions_.back()->session.set_option("Variant", variant_);  // validated here, once
        sessions_.back()->variant = variant_;
        sessions_.back()->rules = to_string(RuleSet{});
        free_.push_back(sessions_.back().get());
    }
}

void SessionPool::Lease::configure(const std::string& variant, const std::string& rules) {
    const std::string wanted = variant.empty() ? pool_->variant_ : variant;
    if (wanted != session_->variant) {
        session_->variant.clear();  // unknown until set_option succeeds
        session_->session.set_option("Variant", wanted);
        session_->variant = wanted;
    }
    if (rules != session_->rules) {
        session_->rules.clear();
        session_->session.set_option("Rules", rules);
        session_->rules = rules;
    }
}

std::optional<SessionPool::Lease> SessionPool::acquire(std::chrono::milliseconds patience, double claim_mb) {
    const auto deadline = std::chrono::steady_clock::now() + patience;
    Pooled* s = nullptr;
    {
        std::unique_lock lock(mutex_);
        // As many may wait as there are sessions: more would only hold the server's workers.
        if (free_.empty() && waiting_ >= sessions_.size()) return std::nullopt;
        ++waiting_;
        const bool got = returned_.wait_until(lock, deadline, [&] { return !free_.empty(); });
        --waiting_;
        if (!got) return std::nullopt;
        s = free_.back();
        free_.pop_back();
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    auto claim = budget_.claim(claim_mb, std::max(left, std::chrono::milliseconds(0)));
    if (!claim) {
        {
            const std::lock_guard guard(mutex_);
            free_.push_back(s);
        }
        returned_.notify_all();
        return std::nullopt;
    }
    return std::optional<Lease>(std::in_place, *this, *s, std::move(*claim));
}

SessionPool::Lease::~Lease() {
    if (!session_) return;
    session_->session.release();  // idle sessions hold no tables
    {
        const std::lock_guard guard(pool_->mutex_);
        pool_->free_.push_back(session_);
    }
    pool_->returned_.notify_all();
}

namespace {

nlohmann::json pv_json(const std::vector<Move>& pv) {
    nlohmann::json out = nlohmann::json::array();
    for (const Move m : pv) out.push_back(move_to_text(m));
    return out;
}

nlohmann::json info_json(const engine::IterationInfo& it) {
    const double nps = it.time_ms > 0 ? static_cast<double>(it.nodes) * 1000.0 / it.time_ms : 0.0;
    nlohmann::json info = {{"depth", it.depth},
                           {"seldepth", it.seldepth},
                           {"score", search::format_score(it.score)},
                           {"nodes", it.nodes},
                           {"nps", static_cast<std::uint64_t>(nps)},
                           {"time_ms", static_cast<std::uint64_t>(it.time_ms)},
                           {"pv", pv_json(it.pv)}};
    if (it.multipv > 0) info["multipv"] = it.multipv;  // a line of a MultiPV search (1: the best)
    return info;
}


}  // namespace

SearchRequest search_request(const std::map<std::string, std::string>& params, const RuleSet& rules) {
    nlohmann::json game_request = nlohmann::json::object();
    for (const char* key : {"start", "moves", "rules"})
        if (params.contains(key)) game_request[key] = query_param(params, key);
    SearchRequest r{game_from_request(game_request, rules), query_param(params, "variant")};
    if (r.game.over()) throw InputError(fmt::format("the game is over ({})", describe(r.game.result())));
    r.movetime_ms = static_cast<double>(query_number(params, "movetime", 10, 600'000).value_or(0));
    r.depth = static_cast<int>(query_number(params, "depth", 1, 64).value_or(0));
    r.multipv = static_cast<int>(query_number(params, "multipv", 1, MaxWebMultiPv).value_or(1));
    const bool black = r.game.position().side_to_move() == Colour::Black;
    constexpr long long Day = 86'400'000;
    const auto time_left = query_number(params, black ? "btime" : "wtime", 0, Day);
    const auto increment = query_number(params, black ? "binc" : "winc", 0, Day);
    const auto other_time = query_number(params, black ? "wtime" : "btime", 0, Day);
    const auto other_increment = query_number(params, black ? "winc" : "binc", 0, Day);
    if (!time_left && (increment || other_time || other_increment))
        throw InputError(fmt::format("a clock needs '{}': the time left of the side to move", black ? "btime" : "wtime"));
    if (time_left) {
        if (r.movetime_ms > 0) throw InputError("'movetime' and a clock exclude each other");
        r.time_left_ms = static_cast<double>(*time_left);
        r.increment_ms = static_cast<double>(increment.value_or(0));
    }
    r.ponder = query_number(params, "ponder", 0, 1).value_or(0) == 1;
    if (r.ponder && !time_left) throw InputError("'ponder' is for a game on the clock: give the side to move's time too");
    if (r.ponder && r.multipv > 1) throw InputError("'ponder' and 'multipv' exclude each other");
    return r;
}

std::unique_ptr<PonderSearches::Entry> PonderSearches::add(engine::Session& session) {
    const std::lock_guard guard(mutex_);
    const std::uint64_t id = next_++;
    searches_[id] = &session;
    return std::make_unique<Entry>(*this, id);
}

bool PonderSearches::hit(std::uint64_t id) {
    const std::lock_guard guard(mutex_);  // held, so that the search cannot end meanwhile
    const auto it = searches_.find(id);
    if (it == searches_.end()) return false;
    it->second->ponderhit();
    return true;
}

void PonderSearches::remove(std::uint64_t id) {
    const std::lock_guard guard(mutex_);
    searches_.erase(id);
}

void stream_search(SessionPool::Lease& lease, const SearchRequest& request, double max_ms,
                   const std::function<bool(std::string_view)>& write, PonderSearches* ponders) {
    engine::Session& session = lease.session();
    try {
        lease.configure(request.variant, to_string(request.game.rules()));
    } catch (const InputError& e) {  // checked before the stream began: not expected here
        (void)write(sse_event("error", {{"error", e.what()}}));
        return;
    }
    session.set_game(request.game);
    session.set_option("MultiPV", std::to_string(request.multipv));  // a pooled session keeps the last request's
    (void)write(sse_event("start", {{"memory_mb", session.memory_mb()}, {"memory", session.memory_text()}}));

    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::string> events;
    bool done = false;
    search::ClockLimits clock;
    clock.depth = request.depth;
    // The page's "time a move" is a fixed time, used whole (the engine's own move_time_ms is a
    // most, which starts no iteration it expects not to finish): the search runs unbounded and
    // this loop stops it when the time is up.
    const double limit_ms = request.movetime_ms > 0 ? std::min(request.movetime_ms, max_ms) : max_ms;
    if (request.movetime_ms > 0) {
        clock.infinite = true;
    } else if (request.time_left_ms >= 0) {  // the session plans the move (expected moves left)
        // The whole clock, not capped: the plan divides it by the moves left, and the loop
        // below still ends the search at max_ms.
        clock.time_left_ms = request.time_left_ms;
        clock.increment_ms = request.increment_ms;
        clock.ponder = request.ponder;
    } else {
        clock.infinite = true;
    }
    auto push = [&](std::string e, bool last) {
        const std::lock_guard guard(mutex);
        events.push_back(std::move(e));
        done = done || last;
        wake.notify_one();
    };
    session.start(
        clock,
        [&](const engine::IterationInfo& it) { push(sse_event("info", info_json(it)), false); },
        [&](const engine::Result& r) {
            // The move played came from an unfinished iteration: its line is the last info.
            if (r.unfinished) {
                nlohmann::json line = info_json(*r.unfinished);
                line["bound"] = r.unfinished_bound == search::Bound::Lower   ? "lower"
                                : r.unfinished_bound == search::Bound::Upper ? "upper"
                                                                             : "exact";
                push(sse_event("info", line), false);
            }
            push(sse_event("bestmove", {{"move", move_to_text(r.best_move)},
                                    {"score", search::format_score(r.score)},
                                    {"depth", r.depth},
                                    {"nodes", r.stats.nodes},
                                    {"pv", pv_json(r.pv)},
                                    {"memory_mb", session.memory_mb()}}),
                 true);
        },
        [&](const std::string& error) { push(sse_event("error", {{"error", error}}), true); });
    // Whatever happens below, the search thread is stopped and joined before the queue and
    // the lease it uses go away.
    struct JoinSearch {
        engine::Session& session;
        ~JoinSearch() {
            session.stop();
            session.wait();
        }
    } join_search{session};
    // Registered once its plan exists (a hit needs it), removed before the search is joined.
    std::unique_ptr<PonderSearches::Entry> pondering;
    if (request.ponder && ponders) {
        pondering = ponders->add(session);
        (void)write(sse_event("ponder", {{"id", pondering->id()}}));
    }
    const auto started = std::chrono::steady_clock::now();
    const auto elapsed_ms = [&] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    };
    bool reader_gone = false;
    for (;;) {
        std::deque<std::string> ready;
        bool finished = false;
        {
            // Woken by an event, at the time limit, or every half second for the heartbeat.
            const double until_limit = std::max(1.0, limit_ms - elapsed_ms());
            const auto wait = std::chrono::milliseconds(static_cast<long>(std::min(500.0, until_limit)));
            std::unique_lock lock(mutex);
            wake.wait_for(lock, wait, [&] { return !events.empty() || done; });
            ready.swap(events);
            finished = done;
        }
        if (ready.empty() && !finished) ready.push_back(": searching\n\n");
        // The clock is looked at after every write: a write may wait for a slow reader (a
        // while at most), and the search must not outlive its allowance by more than that.
        auto over_time = [&] { return elapsed_ms() >= limit_ms; };
        for (const std::string& e : ready) {
            if (!reader_gone && !write(e)) reader_gone = true;
            if (reader_gone || over_time()) session.stop();  // bestmove follows, then the loop ends
        }
        if (finished) break;
        if (reader_gone || over_time()) session.stop();
    }
}

}  // namespace matches::web
