// A game: start position, rules, the moves played, and the result the rules give. Owns the
// history that the rules need (repetitions, ply count); every move is checked before it is
// played.
#pragma once

#include <string_view>
#include <vector>

#include "loa/movegen.hpp"
#include "loa/ply_budget.hpp"
#include "loa/position.hpp"
#include "loa/rules.hpp"

namespace loa {

class Game {
public:
    // `plies_before`: moves played before `start` (a game picked up mid-way, as from the
    // CodinGame referee's boards); they count towards the rules' ply limit.
    explicit Game(const Position& start = Position::start(), const RuleSet& rules = {}, int plies_before = 0);

    const Position& position() const { return position_; }
    const Position& start_position() const { return start_; }
    const RuleSet& rules() const { return rules_; }
    const std::vector<Move>& moves() const { return moves_; }
    const std::vector<Key>& key_history() const { return keys_; }  // start .. current
    int ply() const { return plies_before_ + static_cast<int>(moves_.size()); }
    const GameResult& result() const { return result_; }
    bool over() const { return result_.over(); }

    // How often the current position (same side to move) has occurred, this one included.
    int repetitions() const;

    // Throws InputError if the game is over or the move is illegal.
    void play(Move m);
    Move play(std::string_view text);  // any accepted notation; returns the move played
    void undo();                       // throws InputError when there is nothing to undo

private:
    GameResult rules_result() const;

    Position start_;
    int plies_before_ = 0;
    Position position_;
    RuleSet rules_;
    std::vector<Move> moves_;
    std::vector<Key> keys_;
    GameResult result_;
};

// Keys of the positions before the current one that it may still repeat (those since the last
// capture: a capture lowers a piece count for good), oldest first. What a search needs to
// score repetitions of game positions.
std::vector<std::uint64_t> search_history(const Game& game);

// The game's ply budget (ply_budget.hpp).
int plies_until_limit(const Game& game);

// How many more moves the side to move should expect to make in this game: what a tournament
// time plan divides the clock by (search::ClockLimits::expected_moves_left).
double expected_moves_left(const Game& game);

}  // namespace loa
