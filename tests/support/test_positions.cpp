#include "support/test_positions.hpp"

#include "loa/connectivity.hpp"
#include "loa/search_game.hpp"

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

std::vector<Position> sparse_positions(std::uint64_t seed, std::size_t count, int min_pieces, int max_pieces) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> pieces(min_pieces, max_pieces), box_size(4, 6), coin(0, 1);
    std::vector<Position> out;
    while (out.size() < count) {
        // Inside a box of 4 to 6 squares a side: pieces close enough to connect in a move.
        const int width = box_size(rng), height = box_size(rng);
        const int file0 = std::uniform_int_distribution<int>(0, 8 - width)(rng);
        const int rank0 = std::uniform_int_distribution<int>(0, 8 - height)(rng);
        std::uniform_int_distribution<int> file(file0, file0 + width - 1), rank(rank0, rank0 + height - 1);
        Bitboard side[2] = {0, 0};
        for (Bitboard& b : side)
            for (int n = pieces(rng); popcount(b) < n;) {
                const Bitboard s = square_bb(make_square(file(rng), rank(rng)));
                if (!((side[0] | side[1]) & s)) b |= s;
            }
        if (loa::is_connected(side[0]) || loa::is_connected(side[1])) continue;
        out.push_back(Position::from_bitboards(side[0], side[1], coin(rng) ? Colour::White : Colour::Black));
    }
    return out;
}

std::vector<Position> middle_game_positions(std::size_t count, std::uint64_t seed, int step, int spread) {
    std::vector<Position> out;
    for (std::uint64_t g = 0; out.size() < count; ++g) {
        const Game game = random_game(seed + g, 6 + static_cast<int>((g * static_cast<std::uint64_t>(step)) % static_cast<std::uint64_t>(spread)));
        if (!game.over()) out.push_back(game.position());
    }
    return out;
}

std::vector<Position> late_positions(std::uint64_t seed, std::size_t count) {
    const SearchGame game;
    std::vector<Position> out;
    for (std::uint64_t g = 0; out.size() < count; ++g) {
        const Game played = random_game(seed + g, 300);
        if (!played.over()) continue;
        const int back = 1 + static_cast<int>(g % 6);
        const int at = static_cast<int>(played.moves().size()) - back;
        if (at < 0) continue;
        Position pos = played.start_position();
        for (int i = 0; i < at; ++i) pos.make(played.moves()[static_cast<std::size_t>(i)]);
        if (game.status(pos) == search::Status::Ongoing) out.push_back(pos);
    }
    return out;
}

}  // namespace loa::testing
