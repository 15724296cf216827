#include "test_positions.hpp"

namespace loa::testing {

Game random_game(std::uint64_t seed, int max_plies, const Position& start) {
    std::mt19937_64 rng(seed);
    Game game(start);
    while (!game.over() && game.ply() < max_plies) {
        const MoveList moves = legal_moves(game.position());
        game.play(moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)]);
    }
    return game;
}

std::vector<Position> random_positions(std::uint64_t seed, int games, int max_plies) {
    std::vector<Position> out;
    for (int g = 0; g < games; ++g) {
        const Game game = random_game(seed + static_cast<std::uint64_t>(g), max_plies);
        Position pos = game.start_position();
        out.push_back(pos);
        for (const Move m : game.moves()) {
            pos.make(m);
            out.push_back(pos);
        }
    }
    return out;
}

}  // namespace loa::testing
