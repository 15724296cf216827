// An oracle for the graph game (graph_game.hpp), written from its rules alone, not from the
// search: plain AND-OR recursion over the game's whole history, no table, no ordering.
//
// The rules of a game on the graph, from its first position (the first node of the game):
//  - The side to move at a node picks one of its edges; the node reached is the next position.
//  - A decided node ends the game with its result for the side to move there (Win: that side
//    wins; Loss: the other side wins; Draw). A decided position is final, whatever else holds.
//  - Otherwise, the third occurrence of a node in the game (the same position with the same
//    side to move: the node's number says which side) draws the game.
//  - Otherwise, with a ply limit, the game is drawn when it reaches that many plies.
//
// forces_win(graph, game, attacker, n, limit_left): `game` is the game so far, its last node
// the current position (not decided and not drawn); true when `attacker` (0: the side of even
// nodes, 1: odd) can force a position decided in its favour within n plies from now, whatever
// the other side does. limit_left: plies until the ply limit draws the game, 0: no limit.
#pragma once

#include <algorithm>
#include <vector>

#include "support/graph_game.hpp"

namespace graph_oracle {

// Who won a decided node, or -1 for a draw: the side to move there wins on Win.
inline int winner_at(const graph_game::Graph& g, int node) {
    switch (g.status[static_cast<std::size_t>(node)]) {
        case search::Status::Win: return node % 2;
        case search::Status::Loss: return 1 - node % 2;
        default: return -1;
    }
}

inline bool decided(const graph_game::Graph& g, int node) { return g.status[static_cast<std::size_t>(node)] != search::Status::Ongoing; }

inline bool forces_win(const graph_game::Graph& g, std::vector<int>& game, int attacker, int n, int limit_left) {
    if (n <= 0) return false;
    const int node = game.back();
    const bool attacker_moves = node % 2 == attacker;
    for (const int next : g.edges[static_cast<std::size_t>(node)]) {
        bool won;
        if (decided(g, next)) {
            won = winner_at(g, next) == attacker;
        } else if (std::count(game.begin(), game.end(), next) >= 2) {
            won = false;  // its third occurrence: a draw
        } else if (limit_left == 1) {
            won = false;  // the game reaches its ply limit
        } else {
            game.push_back(next);
            won = forces_win(g, game, attacker, n - 1, limit_left > 0 ? limit_left - 1 : 0);
            game.pop_back();
        }
        if (attacker_moves && won) return true;
        if (!attacker_moves && !won) return false;
    }
    return !attacker_moves;  // every defence lost (a node that goes on has a move)
}

}  // namespace graph_oracle
