// The evaluation as it was before it was made faster (commit 2c4790b), frozen: the faster one
// must return exactly these values. Plain loops over pieces and destination squares, every
// feature computed, no cache. Not used by the engine. Material and blocked (added later) are
// taken from the piece count and the legal move list.
#pragma once

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>

#include "loa/evaluation.hpp"
#include "loa/movegen.hpp"
#include "loa/connectivity.hpp"

namespace loa::reference {

inline int ring(Square s) {
    const int df = file_of(s) < 4 ? 3 - file_of(s) : file_of(s) - 4;
    const int dr = rank_of(s) < 4 ? 3 - rank_of(s) : rank_of(s) - 4;
    return std::max(df, dr);
}

inline int piece_square(Square s) {
    const int df = file_of(s) < 4 ? 3 - file_of(s) : file_of(s) - 4;
    const int dr = rank_of(s) < 4 ? 3 - rank_of(s) : rank_of(s) - 4;
    if (df == 3 && dr == 3) return -80;
    if ((df == 3 && dr == 2) || (df == 2 && dr == 3)) return -25;
    constexpr std::array<int, 4> ring_value = {50, 25, 10, -20};
    return ring_value[static_cast<std::size_t>(std::max(df, dr))];
}

inline int minimal_distance_sum(int n) {
    int sum = 0, r = 1, left = n - 1;
    while (left > 0) {
        const int fits = std::min(left, 8 * r);
        sum += fits * r;
        left -= fits;
        ++r;
    }
    return sum;
}

inline FeatureValues side_features(const Position& pos, Colour side) {
    FeatureValues f{};
    const Bitboard own = pos.pieces(side), enemy = pos.pieces(~side);
    const int n = popcount(own);
    auto feature = [&](Feature x) -> int& { return f[static_cast<std::size_t>(x)]; };
    int sx = 0, sy = 0, pst = 0;
    for (Bitboard b = own; b;) {
        const Square s = pop_lsb(b);
        sx += file_of(s);
        sy += rank_of(s);
        pst += piece_square(s);
    }
    int scaled = 0;
    for (Bitboard b = own; b;) {
        const Square s = pop_lsb(b);
        scaled += std::max(std::abs(n * file_of(s) - sx), std::abs(n * rank_of(s) - sy));
    }
    const int surplus = scaled - n * minimal_distance_sum(n);
    feature(Feature::Concentration) = 16000 / (16 + 16 * surplus / (n * n));
    feature(Feature::Centralisation) = pst / n;
    feature(Feature::CentreOfMass) = -10 * std::max(std::abs(2 * sx - 7 * n), std::abs(2 * sy - 7 * n)) / n;
    feature(Feature::Quads) = -25 * (pos.euler_numerator(side) - 4);
    int mobility = 0;
    for (Bitboard b = own; b;) {
        const Square from = pop_lsb(b);
        for (Bitboard targets = piece_destinations(from, own, enemy); targets;) {
            const Square to = pop_lsb(targets);
            mobility += 4;
            if (enemy & square_bb(to)) mobility += 4;
            if (Edge & square_bb(to)) mobility -= 2;
            else if (ring(to) < ring(from)) mobility += 2;
        }
    }
    feature(Feature::Mobility) = mobility;
    int walls = 0;
    for (Bitboard b = own & Edge; b;) {
        const Square s = pop_lsb(b);
        const int file = file_of(s), rank = rank_of(s);
        // Inward orthogonal neighbours: from rank 1 north, rank 8 south, file a east, file h
        // west (a corner has two).
        if (rank == 0 && (enemy & square_bb(make_square(file, 1)))) ++walls;
        if (rank == 7 && (enemy & square_bb(make_square(file, 6)))) ++walls;
        if (file == 0 && (enemy & square_bb(make_square(1, rank)))) ++walls;
        if (file == 7 && (enemy & square_bb(make_square(6, rank)))) ++walls;
    }
    feature(Feature::Walls) = -100 * walls;
    int pairs = 0;
    for (Bitboard b = own; b;) {
        const Square s = pop_lsb(b);
        for (const auto& [df, dr] : {std::pair{1, 0}, std::pair{0, 1}, std::pair{1, 1}, std::pair{-1, 1}}) {
            const int file = file_of(s) + df, rank = rank_of(s) + dr;
            if (file >= 0 && file < 8 && rank < 8 && (own & square_bb(make_square(file, rank)))) ++pairs;
        }
    }
    feature(Feature::Connections) = 100 * pairs / n;
    feature(Feature::Groups) = -100 * (count_groups(own) - 1);
    int min_file = 7, max_file = 0, min_rank = 7, max_rank = 0;
    for (Bitboard b = own; b;) {
        const Square s = pop_lsb(b);
        min_file = std::min(min_file, file_of(s));
        max_file = std::max(max_file, file_of(s));
        min_rank = std::min(min_rank, rank_of(s));
        max_rank = std::max(max_rank, rank_of(s));
    }
    feature(Feature::Uniformity) = -10 * (max_file - min_file + 1) * (max_rank - min_rank + 1);
    feature(Feature::Material) = 100 * n;
    // Blocked pieces, from the legal moves of `side` (the position with `side` to move).
    std::string text = pos.to_text();
    text.back() = side == Colour::Black ? 'b' : 'w';
    Bitboard movable = 0;
    for (const Move m : legal_moves(Position::from_text(text)))
        if (m != Move::pass()) movable |= square_bb(m.from());
    feature(Feature::Blocked) = -100 * popcount(own & ~movable);
    return f;
}

inline int evaluate(const Position& pos, const EvalWeights& w) {
    const Colour us = pos.side_to_move();
    const FeatureValues mine = side_features(pos, us), theirs = side_features(pos, ~us);
    int total = 0;
    for (std::size_t k = 0; k < static_cast<std::size_t>(FeatureCount); ++k) total += w.weight[k] * (mine[k] - theirs[k]) / 100;
    return std::clamp(total + w.side_to_move, -EvalClamp, EvalClamp);
}

}  // namespace loa::reference
