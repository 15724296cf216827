#include "loa/game.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "loa/error.hpp"
#include "loa/notation.hpp"

namespace loa {

Game::Game(const Position& start, const RuleSet& rules, int plies_before)
    : start_(start), plies_before_(plies_before), position_(start), rules_(rules), keys_{start.key()} {
    result_ = rules_result();
}

int Game::repetitions() const {
    return static_cast<int>(std::count(keys_.begin(), keys_.end(), position_.key()));
}

GameResult Game::rules_result() const {
    // A connection decides the game before any other rule: it ends the move that made it.
    if (const GameResult r = connection_result(position_, rules_); r.over()) return r;
    if (rules_.repetition_draw && repetitions() >= 3) return {Outcome::Draw, Termination::Repetition};
    if (rules_.no_move != NoMoveRule::Pass && !has_real_move(position_)) {
        if (rules_.no_move == NoMoveRule::Draw) return {Outcome::Draw, Termination::NoMove};
        return {win_for(~position_.side_to_move()), Termination::NoMove};
    }
    if (rules_.ply_limit > 0 && ply() >= rules_.ply_limit) return {Outcome::Draw, Termination::PlyLimit};
    return {};
}

void Game::play(Move m) {
    if (over()) throw InputError(fmt::format("the game is over ({})", describe(result_)));
    if (!is_legal(position_, m)) throw InputError(fmt::format("illegal move '{}'", move_to_text(m)));
    position_.make(m);
    moves_.push_back(m);
    keys_.push_back(position_.key());
    result_ = rules_result();
}

Move Game::play(std::string_view text) {
    if (over()) throw InputError(fmt::format("the game is over ({})", describe(result_)));
    const Move m = parse_move(position_, text);
    play(m);
    return m;
}

void Game::undo() {
    if (moves_.empty()) throw InputError("no move to undo");
    position_.unmake(moves_.back());
    moves_.pop_back();
    keys_.pop_back();
    result_ = rules_result();
}

std::vector<std::uint64_t> search_history(const Game& game) {
    const auto& moves = game.moves();
    const auto& keys = game.key_history();
    std::size_t first = moves.size();
    while (first > 0 && !moves[first - 1].is_capture()) --first;
    return {keys.begin() + static_cast<std::ptrdiff_t>(first), keys.end() - 1};
}

int plies_until_limit(const Game& game) { return plies_until_limit(game.rules(), game.ply()); }

double expected_moves_left(const Game& game) { return expected_moves_left(game.rules(), game.ply()); }

}  // namespace loa
