// Plays one game between two players from an opening, with the runner's clocks and
// adjudication, and records it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "matches/openings.hpp"
#include "matches/player.hpp"

namespace matches {

struct Adjudication {
    int resign_score = 0;  // > 0: a side resigns when both engines agree it is down this much ...
    int resign_moves = 3;  // ... for this many moves each
    double time_margin_ms = 50;  // a clock may go this far below zero before the game is lost
};

struct GameRecord {
    int index = 0;  // 0-based game number in the schedule
    int pair = 0;   // game pair (one opening, colours swapped)
    std::string opening;
    loa::Position start;
    int opening_plies = 0;
    std::vector<loa::Move> moves;  // opening moves included
    std::string black, white;
    std::string black_limit, white_limit;
    std::string date;  // the day the game began, PGN's "YYYY.MM.DD" (UTC)
    loa::Outcome outcome = loa::Outcome::Ongoing;
    std::string termination;  // "black wins by connection", "white loses on time", ...
    bool rules_ending = true;  // false: time, illegal move, resignation
    double black_ms = 0, white_ms = 0;
    double black_max_move_ms = 0, white_max_move_ms = 0;  // slowest single move
    // Time each side used for each of its moves after the opening, in order: how a time manager
    // spreads its clock over a game.
    std::vector<double> black_move_ms, white_move_ms;
    // The mover's clock after each move, its increment added (ms), one a move: written as PGN's
    // "{[%clk H:MM:SS]}" after the move (the web board's operator mode). Empty: none written.
    std::vector<double> clock_after_ms;
    double max_overshoot_ms = 0;  // worst time used beyond a move's own hard limit
    std::uint64_t black_nodes = 0, white_nodes = 0;
    // Non-empty: the rule set (loa::to_string), written as a [Rules] tag, for a game whose
    // rules its readers cannot know otherwise (the web board's; a match's are its command's).
    std::string rules;

    // "1-0" (White wins), "0-1" (Black wins), "1/2-1/2": PGN's convention on the White and
    // Black tags, so that Ordo and BayesElo read the results right.
    std::string result_text() const;
};

// `on_move` (optional) sees the game after its opening and after every move.
GameRecord play_game(Player& black, Player& white, const Opening& opening, const loa::RuleSet& rules,
                     const Adjudication& adjudication, const std::function<void(const loa::Game&)>& on_move = {});

}  // namespace matches
