#include "matches/game_runner.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>

#include <fmt/format.h>

#include "loa/notation.hpp"

namespace matches {

std::string GameRecord::result_text() const {
    switch (outcome) {
        case loa::Outcome::WhiteWins: return "1-0";
        case loa::Outcome::BlackWins: return "0-1";
        case loa::Outcome::Draw: return "1/2-1/2";
        case loa::Outcome::Ongoing: return "*";
    }
    return "*";
}

// PGN's date of a game: the day it began, in UTC (a match over midnight has two).
std::string today_utc() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    return fmt::format("{:04}.{:02}.{:02}", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday);
}

GameRecord play_game(Player& black, Player& white, const Opening& opening, const loa::RuleSet& rules,
                     const Adjudication& adjudication, const std::function<void(const loa::Game&)>& on_move) {
    GameRecord record;
    record.opening = opening.label;
    record.start = opening.start;
    record.black = black.spec().name;
    record.white = white.spec().name;
    record.black_limit = black.spec().limit_text();
    record.white_limit = white.spec().limit_text();
    record.date = today_utc();
    black.new_game();
    white.new_game();

    loa::Game game = start_game(opening, rules);
    record.opening_plies = game.ply();
    Player* players[2] = {&black, &white};
    ClockState clocks[2];
    for (int side = 0; side < 2; ++side)
        if (const auto& tc = players[side]->spec().time_control)
            clocks[side] = {tc->base_ms, tc->increment_ms, adjudication.time_margin_ms};

    int agreement = 0;  // consecutive plies in which both engines saw the same side lost
    int last_score = 0;
    auto finish = [&](loa::Outcome outcome, std::string termination, bool by_rules) {
        record.outcome = outcome;
        record.termination = std::move(termination);
        record.rules_ending = by_rules;
    };
    if (on_move) on_move(game);
    while (!game.over()) {
        if (black.interrupted()) break;  // abandoned: the runner drops the record
        const loa::Colour us = game.position().side_to_move();
        const int side = loa::index(us);
        Player& player = *players[side];
        const auto start = std::chrono::steady_clock::now();
        ClockState clock = clocks[side];
        if (players[1 - side]->spec().time_control) {
            clock.opponent_on_clock = true;
            clock.opponent_remaining_ms = clocks[1 - side].remaining_ms;
            clock.opponent_increment_ms = clocks[1 - side].increment_ms;
        }
        const MoveChoice choice = player.choose(game, clock);
        const double call_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        const double used = choice.clock_ms >= 0 ? choice.clock_ms : call_ms;
        (us == loa::Colour::Black ? record.black_ms : record.white_ms) += used;
        (us == loa::Colour::Black ? record.black_move_ms : record.white_move_ms).push_back(used);
        double& slowest = us == loa::Colour::Black ? record.black_max_move_ms : record.white_max_move_ms;
        slowest = std::max(slowest, used);
        if (choice.hard_limit_ms > 0) record.max_overshoot_ms = std::max(record.max_overshoot_ms, used - choice.hard_limit_ms);
        (us == loa::Colour::Black ? record.black_nodes : record.white_nodes) += choice.nodes;
        if (player.spec().time_control) {
            clocks[side].remaining_ms -= used;
            if (clocks[side].remaining_ms < -adjudication.time_margin_ms) {
                finish(loa::win_for(~us), fmt::format("{} loses on time", loa::colour_name(us)), false);
                break;
            }
            clocks[side].remaining_ms += clocks[side].increment_ms;
        }
        if (!choice.failure.empty()) {
            finish(loa::win_for(~us), fmt::format("{} loses: {}", loa::colour_name(us), choice.failure), false);
            break;
        }
        // A fixed time a move (st=) is a limit too, judged after a failure (which says more): an
        // answer later than it by more than the margin loses on time, as a fallen flag does.
        if (const double st = player.spec().move_time_ms; st > 0 && used > st + adjudication.time_margin_ms) {
            finish(loa::win_for(~us), fmt::format("{} loses on time ({:.0f} ms for a move of {:.0f} ms)", loa::colour_name(us), used, st),
                   false);
            break;
        }
        if (!loa::is_legal(game.position(), choice.move)) {
            finish(loa::win_for(~us), fmt::format("{} loses by illegal move {}", loa::colour_name(us),
                                                  loa::move_to_text(choice.move)), false);
            break;
        }
        game.play(choice.move);
        if (on_move) on_move(game);
        if (adjudication.resign_score > 0) {
            const bool agreed = game.ply() > record.opening_plies + 1 &&
                                ((choice.score <= -adjudication.resign_score && last_score >= adjudication.resign_score) ||
                                 (choice.score >= adjudication.resign_score && last_score <= -adjudication.resign_score));
            agreement = agreed ? agreement + 1 : 0;
            last_score = choice.score;
            if (agreement >= 2 * adjudication.resign_moves) {
                const loa::Colour loser = choice.score < 0 ? us : ~us;
                finish(loa::win_for(~loser), fmt::format("{} resigns (adjudicated)", loa::colour_name(loser)), false);
                break;
            }
        }
    }
    if (game.over()) finish(game.result().outcome, loa::describe(game.result()), true);
    record.moves = game.moves();
    return record;
}

}  // namespace matches
