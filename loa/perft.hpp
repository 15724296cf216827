// Perft: the number of legal move sequences of a given length. Game ends are not cut off
// (a won position still has moves), and a side without a move has exactly one: pass.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "loa/movegen.hpp"

namespace loa {

inline std::uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    MoveList moves;
    generate_moves(pos, moves);
    if (depth == 1) return moves.size();  // bulk counting at the last ply
    std::uint64_t nodes = 0;
    for (const Move m : moves) {
        pos.make(m);
        nodes += perft(pos, depth - 1);
        pos.unmake(m);
    }
    return nodes;
}

inline std::vector<std::pair<Move, std::uint64_t>> perft_divide(Position& pos, int depth) {
    std::vector<std::pair<Move, std::uint64_t>> out;
    for (const Move m : legal_moves(pos)) {
        pos.make(m);
        out.emplace_back(m, perft(pos, depth - 1));
        pos.unmake(m);
    }
    return out;
}

}  // namespace loa
