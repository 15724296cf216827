#include "matches/scheduler.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "matches/game_runner.hpp"
#include "matches/parallel.hpp"
#include "matches/player.hpp"

namespace matches {

Schedule make_schedule(const MatchSettings& s, const std::vector<PairingStats>& pairings,
                       const std::map<int, int>& done_in_pair) {
    auto done = [&](int global_pair) {
        const auto it = done_in_pair.find(global_pair);
        return it == done_in_pair.end() ? 0 : it->second;
    };
    Schedule schedule;
    const int pairs_per_pairing = (s.games + 1) / 2;
    int global = 0, in_shard = 0;
    for (int pair = 0; pair < pairs_per_pairing; ++pair)
        for (int p = 0; p < static_cast<int>(pairings.size()); ++p, ++global)
            if (global % s.shard_count == s.shard_index) {
                if (s.max_pairs > 0 && ++in_shard > s.max_pairs) continue;
                schedule.scheduled_games += 2;
                if (done(global) == 2) continue;
                const bool half_played = done(global) == 1;
                // A pairing that had decided plays no new pairs. A pair it had half played was
                // in flight at its decision (none starts after one), and the uninterrupted run
                // would have finished and counted it: it is played again. (A pair in flight
                // with neither game finished is not in the state file: it is lost, at most
                // one a worker; the decision does not depend on it.)
                if (s.sprt && pairings[static_cast<std::size_t>(p)].decision != SprtDecision::Continue && !half_played) {
                    schedule.stopped_by_sprt = true;
                    continue;
                }
                schedule.jobs.push_back({p, pair, global, half_played});
            }
    return schedule;
}

namespace {

// The workers of one play_schedule call and what they share.
class Workers {
public:
    Workers(const MatchSettings& s, const MatchCallbacks& callbacks, const std::vector<Job>& jobs,
            std::vector<PairingStats>& pairings, bool& stopped_by_sprt)
        : s_(s), callbacks_(callbacks), jobs_(jobs), pairings_(pairings), stopped_by_sprt_(stopped_by_sprt) {}

    Played run() {
        const int threads = std::max(0, std::min<int>(s_.concurrency, static_cast<int>(jobs_.size())));
        run_threads(threads, [this](int t) { work(t); }, [this] { stop_ = true; });
        if (failure_) std::rethrow_exception(failure_);
        return std::move(played_);
    }

private:
    bool interrupted() const { return callbacks_.interrupt && callbacks_.interrupt->load(); }
    bool decided(int pairing) const {
        return s_.sprt && pairings_[static_cast<std::size_t>(pairing)].decision != SprtDecision::Continue;
    }

    void work(int worker) {
        try {
            play_jobs(worker);
        } catch (...) {
            const std::lock_guard guard(lock_);
            if (!failure_) failure_ = std::current_exception();
            stop_ = true;
        }
    }

    void play_jobs(int worker) {
        std::vector<std::unique_ptr<Player>> players;
        for (const EngineSpec& e : s_.engines) {
            players.push_back(make_player(e, s_.rules));
            players.back()->set_interrupt(callbacks_.interrupt);
        }
        for (;;) {
            if (stop_.load() || interrupted()) return;
            const std::size_t k = next_.fetch_add(1);
            if (k >= jobs_.size()) return;
            const Job& job = jobs_[k];
            if (s_.sprt && !job.half_played) {
                // A pairing that has decided plays no more pairs (those in flight are finished
                // and counted); in a gauntlet or round robin the others go on. Checked under
                // the lock, so that a pair never starts after its pairing's decision (a resume
                // would not play it).
                const std::lock_guard guard(lock_);
                if (decided(job.pairing)) {
                    stopped_by_sprt_ = true;
                    continue;
                }
            }
            if (!play_pair(worker, job, players)) return;
        }
    }

    // Plays both games of `job`; false when interrupted (the game in play is dropped: played
    // again on resume).
    bool play_pair(int worker, const Job& job, std::vector<std::unique_ptr<Player>>& players) {
        const PairingStats& pairing = pairings_[static_cast<std::size_t>(job.pairing)];
        const Opening& opening = s_.openings[static_cast<std::size_t>(job.pair) % s_.openings.size()];
        Player& a = *players[static_cast<std::size_t>(pairing.first)];
        Player& b = *players[static_cast<std::size_t>(pairing.second)];
        for (int game = 0; game < 2; ++game) {
            Player& black = game == 0 ? a : b;
            Player& white = game == 0 ? b : a;
            std::function<void(const loa::Game&)> on_move;
            if (callbacks_.on_move)
                on_move = [&, index = 2 * job.global_pair + game](const loa::Game& g) {
                    callbacks_.on_move({worker, index, black.spec().name, white.spec().name, &g});
                };
            if (callbacks_.on_start) {
                const std::lock_guard guard(lock_);
                callbacks_.on_start(2 * job.global_pair + game, white.spec().name, black.spec().name);
            }
            GameRecord record = play_game(black, white, opening, s_.rules, s_.adjudication, on_move);
            record.pair = job.global_pair;
            record.index = 2 * job.global_pair + game;
            if (interrupted()) return false;  // abandoned, or finished after the interrupt
            count(job, std::move(record));
        }
        return true;
    }

    void count(const Job& job, GameRecord record) {
        const std::lock_guard guard(lock_);
        PairingStats& stats = pairings_[static_cast<std::size_t>(job.pairing)];
        add_game(stats, record, s_.engines[static_cast<std::size_t>(stats.first)].name, pending_[job.pairing]);
        if (s_.sprt) {
            update_sprt(stats, *s_.sprt);
            if (stats.decision != SprtDecision::Continue && pairings_.size() == 1) {
                stop_ = true;
                stopped_by_sprt_ = true;
            }
        }
        if (callbacks_.on_game) callbacks_.on_game(record, stats);
        ++played_.count;
        if (callbacks_.keep_games) played_.games.push_back(std::move(record));
    }

    const MatchSettings& s_;
    const MatchCallbacks& callbacks_;
    const std::vector<Job>& jobs_;
    std::vector<PairingStats>& pairings_;  // under lock_ while the workers run
    bool& stopped_by_sprt_;                // under lock_

    std::mutex lock_;
    std::atomic<std::size_t> next_{0};
    std::atomic<bool> stop_{false};
    std::map<int, std::vector<GameRecord>> pending_;  // by pairing: games waiting for their partner
    Played played_;
    std::exception_ptr failure_;
};

}  // namespace

Played play_schedule(const MatchSettings& settings, const MatchCallbacks& callbacks, const std::vector<Job>& jobs,
                     std::vector<PairingStats>& pairings, bool& stopped_by_sprt) {
    return Workers(settings, callbacks, jobs, pairings, stopped_by_sprt).run();
}

}  // namespace matches
