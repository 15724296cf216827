// Realization probabilities of move categories (Tsuruoka et al.'s realization probability
// search; Winands and Björnsson's enhanced version, ERPS, was the search of MIA): how often a
// move of a category was played when one was available, learnt from game records
// (`loa-match learn-rps`). The search spends depth on a move by its category's probability:
// log(P) / log(C) plies, so a likely move costs little depth and an unlikely one much.
//
// A move's category combines what MIA's categories describe (capture or not, the regions of
// its from and to squares, how it connects to its own pieces):
//   capture (2) x from ring (4) x to ring (4) x own neighbours at the to square (0, 1, 2, 3+)
//   x own neighbours left at the from square (0, 1, 2+)  =  384 categories.
// A ring is the square's distance from the centre: 0 for d4-e5, 3 for the edge.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "loa/bitboard.hpp"
#include "loa/move.hpp"
#include "loa/position.hpp"

namespace loa {

inline constexpr int RealizationCategoryCount = 2 * 4 * 4 * 4 * 3;


// The category of a legal move of the side to move; a pass, forced, has none (-1: the search
// spends one ply on it, and learning skips it).
inline int realization_category(const Position& pos, Move m) {
    if (m.is_pass()) return -1;
    const Bitboard own = pos.pieces(pos.side_to_move()) & ~square_bb(m.from());
    const int at_to = std::min(3, popcount(neighbours(square_bb(m.to())) & own));
    const int at_from = std::min(2, popcount(neighbours(square_bb(m.from())) & own));
    return (((m.is_capture() ? 1 : 0) * 4 + ring_of(m.from())) * 4 + ring_of(m.to())) * 12 + at_to * 3 + at_from;
}
std::string describe_realization_category(int category);  // "capture, ring 3 -> 1, 2 at to, 0 at from"

struct RealizationProbabilities {
    std::vector<std::uint64_t> available, played;  // per category, over the positions counted
    std::vector<double> probability;               // smoothed played / available
    std::uint64_t games = 0, positions = 0;
    int min_ply = 0;
    double smoothing = 10;  // prior weight, in available moves, of the mean probability

    // Probabilities from the counts: (played + s * mean) / (available + s), where mean is the
    // probability of a move over all categories, so that a rare category starts at the mean.
    void compute();
};

std::string realization_to_json(const RealizationProbabilities& p);
// Throws InputError on a malformed file, a wrong category count, or a probability outside (0, 1].
RealizationProbabilities parse_realization_json(const std::string& text);
RealizationProbabilities load_realization_file(const std::string& path);

}  // namespace loa
