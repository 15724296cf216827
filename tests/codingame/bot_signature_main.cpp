// The CodinGame bot's search as a signature: positions from seeded random games, each searched
// to a fixed depth under the arena's rules with the bot's game, configuration and embedded
// network, one line a position (its best move, score and nodes). tests/codingame/signature.sh
// compares the engine's build of this program with the one the generator makes (the sources
// brought down to gnu++17, shimmed, renamed, compiled as the arena compiles): the same lines,
// or the bot's file does not search what the engine searches.
#include <cstdint>
#include <iostream>
#include <memory>

#include "common/search/search.hpp"
#include "common/splitmix64.hpp"
#include "loa/codingame/bot.hpp"
#include "loa/codingame/embedded_net.hpp"
#include "loa/codingame/net_game.hpp"
#include "loa/move_names.hpp"
#include "loa/nnue/network.hpp"

int main() {
    using namespace loa;
    auto net = std::make_shared<const nnue::Network>(
        nnue::parse_network(codingame::decode_net_text(codingame::EmbeddedNetText, codingame::EmbeddedNetBytes), "the embedded network"));
    const codingame::NetGame game(codingame::codingame_rules(), net);
    search::Searcher<codingame::NetGame> searcher(game, codingame::bot_config());
    std::uint64_t total = 0;
    for (std::uint64_t g = 0; g < 8; ++g) {
        Position pos = Position::start();
        for (int ply = 0; ply < 6 + 4 * static_cast<int>(g); ++ply) {
            MoveList moves;
            game.generate(pos, moves);
            if (game.status(pos) != search::Status::Ongoing || moves.empty()) break;
            pos.make(moves[common::splitmix64(g * 1000 + static_cast<std::uint64_t>(ply)) % moves.size()]);
        }
        if (game.status(pos) != search::Status::Ongoing) continue;
        search::SearchLimits limits;
        limits.depth = 6;
        limits.game_plies_left = 100;
        const auto result = searcher.search(pos, limits);
        std::cout << "game " << g << " " << move_to_compact(result.best_move) << " score " << result.score << " nodes "
                  << result.stats.nodes << "\n";
        total += result.stats.nodes;
    }
    std::cout << "total nodes " << total << "\n";
    return 0;
}
