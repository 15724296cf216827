#include "matches/match.hpp"

#include <algorithm>
#include <iterator>
#include <map>

#include <fmt/format.h>

#include "common/error.hpp"
#include "loa/game.hpp"
#include "matches/scheduler.hpp"

namespace matches {
namespace {

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

namespace {

// What a match must have before a game is played.
void check_playable(const MatchSettings& s) {
    if (s.engines.size() < 2) throw common::InputError("a match needs at least two engines");
    if (s.openings.empty()) throw common::InputError("a match needs at least one opening");
    check_schedule_size(s);
    for (const EngineSpec& e : s.engines)
        if (e.external() && e.proto == "uci" && e.position_command == PositionCommand::StartPos)
            for (const Opening& o : s.openings)
                if (!(o.start == loa::Position::start()))
                    throw common::InputError(fmt::format(
                        "engine '{}': position=startpos, but opening '{}' does not start from the standard position", e.name, o.label));
}

// An interrupted run's games, reconciled with the schedule: pairs with both games done are
// kept and counted again, in the order the run counted them (so that every pairing's SPRT
// decision is the one the interrupted run took); a half-played pair is played again.
struct Resumed {
    std::map<int, int> done_in_pair;  // games finished, by pair of the whole schedule
    std::vector<GameRecord> games;    // of whole pairs
    std::vector<PairingStats> pairings;
};

Resumed reconcile(const MatchSettings& s, const std::vector<GameRecord>& already_played) {
    Resumed r;
    for (const GameRecord& g : already_played) ++r.done_in_pair[g.pair];
    for (const GameRecord& g : already_played)
        if (r.done_in_pair[g.pair] == 2) r.games.push_back(g);
    MatchResult counted;
    counted.games = r.games;
    tally(s, counted, SprtReplay::GivenOrder);
    r.pairings = std::move(counted.pairings);
    return r;
}

}  // namespace

void recount(const MatchSettings& s, MatchResult& result, SprtReplay replay) {
    const std::vector<PairingStats> live = result.pairings;
    tally(s, result, replay);
    for (std::size_t i = 0; i < live.size(); ++i) {
        result.pairings[i].decision = live[i].decision;
        result.pairings[i].decision_llr = live[i].decision_llr;
        result.pairings[i].decision_games = live[i].decision_games;
    }
}

MatchResult run_match(const MatchSettings& s, const MatchCallbacks& callbacks, const std::vector<GameRecord>& already_played) {
    check_playable(s);
    Resumed resumed = reconcile(s, already_played);
    const int resumed_games = static_cast<int>(resumed.games.size());
    if (!callbacks.keep_games) std::vector<GameRecord>().swap(resumed.games);  // counted: the caller has them
    MatchResult result;
    result.pairings = std::move(resumed.pairings);

    const Schedule schedule = make_schedule(s, result.pairings, resumed.done_in_pair);
    result.scheduled_games = schedule.scheduled_games;
    result.stopped_by_sprt = schedule.stopped_by_sprt;
    // As when a run decides while playing: a single pairing's decision stops the run.
    if (s.sprt && result.pairings.size() == 1 && result.pairings[0].decision != SprtDecision::Continue)
        result.stopped_by_sprt = true;

    Played played = play_schedule(s, callbacks, schedule.jobs, result.pairings, result.stopped_by_sprt);
    result.interrupted = callbacks.interrupt && callbacks.interrupt->load();
    result.finished_games = resumed_games + played.count;
    if (!callbacks.keep_games) return result;  // the live counts: the same in any order
    result.games = std::move(resumed.games);
    std::move(played.games.begin(), played.games.end(), std::back_inserter(result.games));
    for (const GameRecord& g : result.games) result.counting_order.push_back(g.index);  // resumed, then as they finished
    recount(s, result);
    return result;
}

}  // namespace matches
