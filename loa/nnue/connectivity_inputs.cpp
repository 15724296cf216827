#include "loa/nnue/connectivity_inputs.hpp"

#include <algorithm>
#include <cstdlib>

#include "loa/connectivity.hpp"

namespace loa::nnue {

std::array<std::uint8_t, 4> side_connectivity(Bitboard pieces, int euler_numerator) {
    const int n = popcount(pieces);
    if (n == 0) return {0, 0, 0, 0};
    int sum_x = 0, sum_y = 0, min_x = 7, max_x = 0, min_y = 7, max_y = 0;
    for (Bitboard b = pieces; b; b &= b - 1) {
        const Square s = lsb(b);
        const int x = file_of(s), y = rank_of(s);
        sum_x += x;
        sum_y += y;
        min_x = std::min(min_x, x);
        max_x = std::max(max_x, x);
        min_y = std::min(min_y, y);
        max_y = std::max(max_y, y);
    }
    // n times each piece's Chebyshev distance to the centre of mass, in integers.
    int spread = 0;
    for (Bitboard b = pieces; b; b &= b - 1) {
        const Square s = lsb(b);
        spread += std::max(std::abs(n * file_of(s) - sum_x), std::abs(n * rank_of(s) - sum_y));
    }
    const int groups = 11 * (std::min(count_groups(pieces), 12) - 1);
    const int euler = std::clamp(2 * euler_numerator + 24, 0, 127);
    const int concentration = std::min(127, 18 * spread / (n * n));
    const int box = 2 * (max_x - min_x + 1) * (max_y - min_y + 1) - 2;
    return {static_cast<std::uint8_t>(groups), static_cast<std::uint8_t>(euler), static_cast<std::uint8_t>(concentration),
            static_cast<std::uint8_t>(box)};
}

std::array<std::uint8_t, ConnectivityInputCount> side_to_move_first(const std::array<std::uint8_t, 4>& ours,
                                                                    const std::array<std::uint8_t, 4>& theirs) {
    std::array<std::uint8_t, ConnectivityInputCount> inputs{};
    std::copy(ours.begin(), ours.end(), inputs.begin());
    std::copy(theirs.begin(), theirs.end(), inputs.begin() + ours.size());
    return inputs;
}

std::array<std::uint8_t, ConnectivityInputCount> connectivity_inputs(const Position& pos) {
    const Colour us = pos.side_to_move(), them = ~us;
    return side_to_move_first(side_connectivity(pos.pieces(us), pos.euler_numerator(us)),
                              side_connectivity(pos.pieces(them), pos.euler_numerator(them)));
}

}  // namespace loa::nnue
