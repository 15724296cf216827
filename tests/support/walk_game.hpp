// A game whose positions recur, for testing what the search does with repetitions: each side
// walks its own token along a line of cells (a step back, one forward or two forward), and the
// static evaluation is the distance the side to move is ahead. One move changes it by at most
// MaxGain for the mover, so futility pruning at depth 1 with that margin is exact: the only
// moves it may not assume bounded by the evaluation are those that repeat a position (a draw).
#pragma once

#include <array>
#include <cstdint>

#include <boost/container/static_vector.hpp>

#include "support/artificial_tree.hpp"
#include "common/search/game.hpp"

namespace testing_walk {

using Move = testing_tree::TreeMove;  // 1: a step back, 2: one forward, 3: two forward

struct WalkPosition {
    std::array<int, 2> token{};  // cell of each side's token
    int side = 0;                // side to move
};

struct WalkGame {
    using Move = testing_walk::Move;
    using Position = WalkPosition;
    using MoveList = boost::container::static_vector<Move, 4>;
    static constexpr int MoveIndexCount = 16;
    static constexpr int Cells = 10;
    static constexpr int CellValue = 10;
    static constexpr int MaxGain = 2 * CellValue;  // two forward

    static int step(Move m) { return m.v == 1 ? -1 : m.v - 1; }

    void generate(const Position& p, MoveList& moves) const {
        for (std::uint16_t v = 1; v <= 3; ++v) {
            const int to = p.token[static_cast<std::size_t>(p.side)] + step({v});
            if (to >= 0 && to < Cells) moves.push_back({v});
        }
    }
    void make(Position& p, Move m) const {
        p.token[static_cast<std::size_t>(p.side)] += step(m);
        p.side ^= 1;
    }
    void unmake(Position& p, Move m) const {
        p.side ^= 1;
        p.token[static_cast<std::size_t>(p.side)] -= step(m);
    }
    std::uint64_t key(const Position& p) const {
        return testing_tree::mix(static_cast<std::uint64_t>((p.token[0] * Cells + p.token[1]) * 2 + p.side));
    }
    search::Status status(const Position&) const { return search::Status::Ongoing; }
    bool repetition_draws() const { return true; }
    int evaluate(const Position& p) const {
        const auto me = static_cast<std::size_t>(p.side);
        return CellValue * (p.token[me] - p.token[me ^ 1]);
    }
    bool is_quiescence_move(const Position&, Move, int) const { return false; }
    bool is_capture(Move) const { return false; }
    int capture_order(const Position&, Move) const { return 0; }
    bool is_irreversible(Move) const { return false; }
    int move_index(const Position& p, Move m) const { return p.side * 4 + m.v; }
    Move null_move() const { return {7}; }
    bool null_move_allowed(const Position&) const { return false; }
    int extension(const Position&, Move) const { return 0; }
};

static_assert(search::Game<WalkGame>);

}  // namespace testing_walk
