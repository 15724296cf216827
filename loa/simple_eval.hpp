// Placeholder evaluation until the connectivity evaluation lands: centralisation (a
// piece-square table favouring the centre, averaged over a side's pieces so that piece counts
// compare) and a small material term (more pieces block more lines but are harder to connect,
// so it is kept light). Score for the side to move, in centi-units.
#pragma once

#include <array>

#include "loa/position.hpp"

namespace loa {

inline constexpr std::array<int, 64> CentralisationTable = [] {
    std::array<int, 64> t{};
    for (Square s = 0; s < 64; ++s) {
        // Chebyshev distance to the centre: 0 on d4-e5, 3 on the edge.
        const int df = file_of(s) < 4 ? 3 - file_of(s) : file_of(s) - 4;
        const int dr = rank_of(s) < 4 ? 3 - rank_of(s) : rank_of(s) - 4;
        t[static_cast<std::size_t>(s)] = 30 - 10 * (df > dr ? df : dr);
    }
    return t;
}();

inline int centralisation(Bitboard pieces) {
    int sum = 0, n = 0;
    for (; pieces; ++n) sum += CentralisationTable[static_cast<std::size_t>(pop_lsb(pieces))];
    return n ? 4 * sum / n : 0;
}

// Piece count only: the cheapest possible evaluation, a yardstick for search speed.
inline int material_evaluate(const Position& pos) {
    return 10 * (pos.count(pos.side_to_move()) - pos.count(~pos.side_to_move()));
}

inline int simple_evaluate(const Position& pos) {
    const Colour us = pos.side_to_move();
    const int material = 2 * (pos.count(us) - pos.count(~us));
    return material + centralisation(pos.pieces(us)) - centralisation(pos.pieces(~us));
}

}  // namespace loa
