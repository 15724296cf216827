#include "matches/match.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "common/error.hpp"
#include "loa/game.hpp"

namespace matches {
namespace {

struct Job {
    int pairing;      // index into the pairing list
    int pair;         // pair number within the pairing
    int global_pair;  // position in the whole schedule
    bool half_played = false;  // a resumed pair whose first game the interrupted run had counted
};

double points_for(const GameRecord& g, const std::string& name) {
    if (g.outcome == loa::Outcome::Draw) return 0.5;
    const bool black_won = g.outcome == loa::Outcome::BlackWins;
    return (black_won ? g.black : g.white) == name ? 1.0 : 0.0;
}

}  // namespace

void add_game(PairingStats& stats, const GameRecord& game, const std::string& first_name,
              std::vector<GameRecord>& pending) {
    const double p = points_for(game, first_name);
    if (p == 1.0) ++stats.games.wins;
    else if (p == 0.5) ++stats.games.draws;
    else ++stats.games.losses;
    const auto partner = std::find_if(pending.begin(), pending.end(), [&](const GameRecord& g) { return g.pair == game.pair; });
    if (partner == pending.end()) {
        pending.push_back(game);
        return;
    }
    const double pair_points = p + points_for(*partner, first_name);
    ++stats.pairs.count[static_cast<std::size_t>(pair_points * 2 + 0.5)];
    pending.erase(partner);
}

std::vector<PairingStats> pairings_of(const MatchSettings& s) {
    std::vector<PairingStats> out;
    const int n = static_cast<int>(s.engines.size());
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (s.format == Format::RoundRobin || i == 0) {
                PairingStats p;
                p.first = i;
                p.second = j;
                out.push_back(p);
            }
    return out;
}

void sort_into_schedule_order(std::vector<GameRecord>& games) {
    std::sort(games.begin(), games.end(), [](const GameRecord& x, const GameRecord& y) { return x.index < y.index; });
}

void tally(const MatchSettings& s, MatchResult& result, SprtReplay replay) {
    result.pairings = pairings_of(s);
    // The counts are the same in any order; the SPRT decisions are not (the first crossing).
    if (replay == SprtReplay::ScheduleOrder) sort_into_schedule_order(result.games);
    std::map<int, std::vector<GameRecord>> pending;
    const int per_round = static_cast<int>(result.pairings.size());
    for (const GameRecord& g : result.games) {
        const int p = g.pair % per_round;
        PairingStats& stats = result.pairings[static_cast<std::size_t>(p)];
        add_game(stats, g, s.engines[static_cast<std::size_t>(stats.first)].name, pending[p]);
        if (s.sprt) update_sprt(stats, *s.sprt);
    }
    if (replay == SprtReplay::GivenOrder) sort_into_schedule_order(result.games);
}

void update_sprt(PairingStats& stats, const SprtSettings& sprt) {
    stats.llr = sprt_llr(stats.pairs, sprt);
    if (stats.decision != SprtDecision::Continue) return;
    stats.decision = sprt_decision(stats.llr, sprt);
    if (stats.decision == SprtDecision::Continue) return;
    stats.decision_llr = stats.llr;
    // The games of the whole pairs the LLR was computed on: a first game of a pair still in
    // flight is counted in W/D/L but not in the LLR, and a resume replays only whole pairs.
    stats.decision_games = 2 * stats.pairs.pairs();
}

namespace {

long long pairing_count(const MatchSettings& s) {
    const auto n = static_cast<long long>(s.engines.size());
    return s.format == Format::Gauntlet ? n - 1 : n * (n - 1) / 2;
}

// The engines of pairing `p` in pairings_of()'s order, counted without listing them all.
std::pair<std::size_t, std::size_t> pairing_engines(const MatchSettings& s, long long p) {
    if (s.format == Format::Gauntlet) return {0, static_cast<std::size_t>(p + 1)};
    const auto n = static_cast<long long>(s.engines.size());
    long long first = 0;
    while (p >= n - 1 - first) p -= n - 1 - first++;
    return {static_cast<std::size_t>(first), static_cast<std::size_t>(first + 1 + p)};
}

}  // namespace

void check_schedule_size(const MatchSettings& s) {
    if (s.engines.size() > MaxEngines)
        throw common::InputError(fmt::format("a match of {} engines: at most {}", s.engines.size(), MaxEngines));
    const long long pairings = pairing_count(s);
    const long long games = 2 * ((static_cast<long long>(s.games) + 1) / 2) * pairings;
    if (games > MaxScheduledGames)
        throw common::InputError(fmt::format("a match of {} games ({} pairings of {}) is more than the {} a match may have",
                                             games, pairings, s.games, MaxScheduledGames));
}

void check_scheduled(const MatchSettings& s, const GameRecord& g) {
    check_schedule_size(s);
    const long long pairings = pairing_count(s);
    const long long total = 2 * ((static_cast<long long>(s.games) + 1) / 2) * pairings;
    if (g.index < 0 || g.index >= total)
        throw common::InputError(fmt::format("game {} is not in the match's schedule of {} games", g.index + 1, total));
    if (g.pair != g.index / 2)
        throw common::InputError(fmt::format("game {} is given pair {}; it belongs to pair {}", g.index + 1, g.pair + 1, g.index / 2 + 1));
    if (s.shard_count > 1 && g.pair % s.shard_count != s.shard_index)
        throw common::InputError(fmt::format("game {} belongs to shard {}/{}, not to this one ({}/{})", g.index + 1,
                                             g.pair % s.shard_count + 1, s.shard_count, s.shard_index + 1, s.shard_count));
    const auto [first_engine, second_engine] = pairing_engines(s, g.pair % pairings);
    const std::string& first = s.engines[first_engine].name;
    const std::string& second = s.engines[second_engine].name;
    const std::string& black = g.index % 2 == 0 ? first : second;
    const std::string& white = g.index % 2 == 0 ? second : first;
    if (g.black != black || g.white != white)
        throw common::InputError(fmt::format("game {} was played by '{}' (Black) and '{}' (White); the schedule has '{}' and '{}'",
                                             g.index + 1, g.black, g.white, black, white));
    // The moves under the match's rules: none after the end, and a game the rules ended has the
    // rules' result (an adjudicated one ended before them).
    loa::Game game(g.start, s.rules);
    for (const loa::Move m : g.moves) {
        if (game.over()) throw common::InputError(fmt::format("game {} has moves after its end ({})", g.index + 1, loa::describe(game.result())));
        game.play(m);
    }
    if (g.rules_ending && (!game.over() || game.result().outcome != g.outcome))
        throw common::InputError(fmt::format("game {}: its result {} is not what the rules give after its moves ({})", g.index + 1,
                                             g.result_text(), game.over() ? loa::describe(game.result()) : "the game goes on"));
    if (!g.rules_ending && game.over())
        throw common::InputError(fmt::format("game {} is said to end by adjudication, but the rules ended it ({})", g.index + 1,
                                             loa::describe(game.result())));
}

int scheduled_games(const MatchSettings& s) {
    check_schedule_size(s);
    const int pairs = (s.games + 1) / 2 * static_cast<int>(pairing_count(s));
    // Pairs number g with g % shard_count == shard_index.
    int in_shard = pairs / s.shard_count + (s.shard_index < pairs % s.shard_count ? 1 : 0);
    if (s.max_pairs > 0) in_shard = std::min(in_shard, s.max_pairs);
    return 2 * in_shard;
}

MatchResult run_match(const MatchSettings& s, const MatchCallbacks& callbacks, const std::vector<GameRecord>& already_played) {
    if (s.engines.size() < 2) throw common::InputError("a match needs at least two engines");
    if (s.openings.empty()) throw common::InputError("a match needs at least one opening");
    check_schedule_size(s);
    for (const EngineSpec& e : s.engines)
        if (e.external() && e.proto == "uci" && e.position_command == PositionCommand::StartPos)
            for (const Opening& o : s.openings)
                if (!(o.start == loa::Position::start()))
                    throw common::InputError(fmt::format(
                        "engine '{}': position=startpos, but opening '{}' does not start from the standard position", e.name, o.label));
    MatchResult result;
    result.pairings = pairings_of(s);
    // Resumed games: pairs with both games done are kept; a half-played pair is replayed.
    std::map<int, int> done_in_pair;
    for (const GameRecord& g : already_played) ++done_in_pair[g.pair];
    std::vector<GameRecord> finished;
    int finished_count = 0;
    for (const GameRecord& g : already_played)
        if (done_in_pair[g.pair] == 2) {
            finished.push_back(g);
            ++finished_count;
        }
    {
        // The state file holds the games in the order the run counted them: replayed in that
        // order, every pairing's SPRT decision is the one the interrupted run took.
        MatchResult resumed;
        resumed.games = finished;
        tally(s, resumed, SprtReplay::GivenOrder);
        result.pairings = resumed.pairings;
    }
    if (!callbacks.keep_games) std::vector<GameRecord>().swap(finished);  // counted: the caller has them
    auto decided = [&](int pairing) {
        return s.sprt && result.pairings[static_cast<std::size_t>(pairing)].decision != SprtDecision::Continue;
    };

    const int pairs_per_pairing = (s.games + 1) / 2;
    // Interleave pairings so that every pairing advances at the same pace.
    std::vector<Job> jobs;
    int global = 0, in_shard = 0;
    for (int pair = 0; pair < pairs_per_pairing; ++pair)
        for (int p = 0; p < static_cast<int>(result.pairings.size()); ++p, ++global)
            if (global % s.shard_count == s.shard_index) {
                if (s.max_pairs > 0 && ++in_shard > s.max_pairs) continue;
                result.scheduled_games += 2;
                if (done_in_pair[global] == 2) continue;
                const bool half_played = done_in_pair[global] == 1;
                // A pairing that had decided plays no new pairs. A pair it had half played was
                // in flight at its decision (none starts after one), and the uninterrupted run
                // would have finished and counted it: it is played again. (A pair in flight
                // with neither game finished is not in the state file: it is lost, at most
                // one a worker; the decision does not depend on it.)
                if (decided(p) && !half_played) {
                    result.stopped_by_sprt = true;
                    continue;
                }
                jobs.push_back({p, pair, global, half_played});
            }
    // As when a run decides while playing: a single pairing's decision stops the run.
    if (s.sprt && result.pairings.size() == 1 && decided(0)) result.stopped_by_sprt = true;

    std::mutex lock;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    std::map<int, std::vector<GameRecord>> pending;  // by pairing: games waiting for their partner

    std::exception_ptr failure;
    std::atomic<int> workers_started{0};
    auto play_jobs = [&] {
        const int worker = workers_started++;
        std::vector<std::unique_ptr<Player>> players;
        for (const EngineSpec& e : s.engines) {
            players.push_back(make_player(e, s.rules));
            players.back()->set_interrupt(callbacks.interrupt);
        }
        auto interrupted = [&] { return callbacks.interrupt && callbacks.interrupt->load(); };
        for (;;) {
            if (stop.load() || interrupted()) return;
            const std::size_t k = next.fetch_add(1);
            if (k >= jobs.size()) return;
            const Job job = jobs[k];
            if (s.sprt && !job.half_played) {
                // A pairing that has decided plays no more pairs (those in flight are finished
                // and counted); in a gauntlet or round robin the others go on. Checked under
                // the lock, so that a pair never starts after its pairing's decision (a resume
                // would not play it).
                const std::lock_guard guard(lock);
                if (decided(job.pairing)) {
                    result.stopped_by_sprt = true;
                    continue;
                }
            }
            const PairingStats& pairing = result.pairings[static_cast<std::size_t>(job.pairing)];
            const Opening& opening = s.openings[static_cast<std::size_t>(job.pair) % s.openings.size()];
            Player& a = *players[static_cast<std::size_t>(pairing.first)];
            Player& b = *players[static_cast<std::size_t>(pairing.second)];
            for (int game = 0; game < 2; ++game) {
                Player& black = game == 0 ? a : b;
                Player& white = game == 0 ? b : a;
                std::function<void(const loa::Game&)> on_move;
                if (callbacks.on_move)
                    on_move = [&, index = 2 * job.global_pair + game](const loa::Game& g) {
                        callbacks.on_move({worker, index, black.spec().name, white.spec().name, &g});
                    };
                GameRecord record = play_game(black, white, opening, s.rules, s.adjudication, on_move);
                record.pair = job.global_pair;
                record.index = 2 * job.global_pair + game;
                if (interrupted()) return;  // abandoned, or finished after the interrupt: played again on resume
                const std::lock_guard guard(lock);
                PairingStats& stats = result.pairings[static_cast<std::size_t>(job.pairing)];
                add_game(stats, record, s.engines[static_cast<std::size_t>(stats.first)].name, pending[job.pairing]);
                if (s.sprt) {
                    update_sprt(stats, *s.sprt);
                    if (stats.decision != SprtDecision::Continue && result.pairings.size() == 1) {
                        stop = true;
                        result.stopped_by_sprt = true;
                    }
                }
                if (callbacks.on_game) callbacks.on_game(record, stats);
                ++finished_count;
                if (callbacks.keep_games) finished.push_back(std::move(record));
            }
        }
    };
    auto worker = [&] {
        try {
            play_jobs();
        } catch (...) {
            const std::lock_guard guard(lock);
            if (!failure) failure = std::current_exception();
            stop = true;
        }
    };
    const int threads = std::max(0, std::min<int>(s.concurrency, static_cast<int>(jobs.size())));
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
    result.interrupted = callbacks.interrupt && callbacks.interrupt->load();
    result.finished_games = finished_count;
    if (!callbacks.keep_games) return result;  // the live counts: the same in any order
    result.games = std::move(finished);
    const std::vector<PairingStats> live = result.pairings;
    tally(s, result);  // sorts the games into schedule order and checks the counts by a recount
    // The decisions are the ones taken while playing (games may finish in another order than
    // the schedule's, so a replay in schedule order could cross a bound the run never crossed).
    for (std::size_t i = 0; i < live.size(); ++i) {
        result.pairings[i].decision = live[i].decision;
        result.pairings[i].decision_llr = live[i].decision_llr;
        result.pairings[i].decision_games = live[i].decision_games;
    }
    return result;
}

}  // namespace matches
