// A synthetic game tree for testing the search core away from LOA: uniform or random
// branching, leaf values from a hash of the position, optional transpositions (a child's
// state is the parent's plus a per-(parity, move) random number, so move orders commute),
// and optional terminal nodes (wins, losses, draws) for mate-distance scoring.
#pragma once

#include <array>
#include <cstdint>

#include <boost/container/static_vector.hpp>

#include "common/search/draw_context.hpp"
#include "common/search/game.hpp"

namespace testing_tree {

inline std::uint64_t mix(std::uint64_t x) { return search::mix_key(x); }

struct TreeMove {
    std::uint16_t v = 0;  // 1..branching; 0 none; 63 the null move
    static TreeMove none() { return {}; }
    static TreeMove from_raw(std::uint16_t raw) { return {raw}; }
    std::uint16_t raw() const { return v; }
    friend bool operator==(TreeMove, TreeMove) = default;
};

struct TreePosition {
    std::array<std::uint64_t, 160> state{};
    int ply = 0;
};

struct TreeGame {
    using Move = TreeMove;
    using Position = TreePosition;
    using MoveList = boost::container::static_vector<TreeMove, 64>;
    static constexpr int MoveIndexCount = 128;

    std::uint64_t seed = 1;
    int min_branching = 2;
    int max_branching = 6;
    bool transpositions = false;
    int terminal_one_in = 0;  // > 0: about one node in this many is a decided game

    Position root() const {
        Position p;
        p.state[0] = mix(seed);
        return p;
    }
    int branching(const Position& p) const {
        const int spread = max_branching - min_branching + 1;
        return min_branching + static_cast<int>(mix(p.state[p.ply] ^ 0xB4A7) % static_cast<std::uint64_t>(spread));
    }
    void generate(const Position& p, MoveList& moves) const {
        for (int i = 1, n = branching(p); i <= n; ++i) moves.push_back({static_cast<std::uint16_t>(i)});
    }
    void make(Position& p, Move m) const {
        const std::uint64_t s = p.state[p.ply];
        p.state[p.ply + 1] = transpositions ? s + mix(seed * 131 + static_cast<std::uint64_t>(m.v) * 2 + (p.ply & 1))
                                            : mix(s ^ (static_cast<std::uint64_t>(m.v) << 56) ^ static_cast<std::uint64_t>(p.ply));
        ++p.ply;
    }
    void unmake(Position& p, Move) const { --p.ply; }
    std::uint64_t key(const Position& p) const { return p.state[p.ply] ^ ((p.ply & 1) ? 0x5DE5'1DE5'70AA'0001ULL : 0); }
    search::Status status(const Position& p) const {
        if (terminal_one_in <= 0 || p.ply == 0) return search::Status::Ongoing;
        const std::uint64_t h = mix(key(p) ^ 0x7E57);
        if (h % static_cast<std::uint64_t>(terminal_one_in) != 0) return search::Status::Ongoing;
        switch ((h >> 32) % 3) {
            case 0: return search::Status::Win;
            case 1: return search::Status::Loss;
            default: return search::Status::Draw;
        }
    }
    bool repetition_draws() const { return true; }
    int evaluate(const Position& p) const { return static_cast<int>(mix(key(p)) % 2001) - 1000; }
    bool is_quiescence_move(const Position&, Move, int) const { return false; }
    bool is_capture(Move m) const { return m.v % 5 == 0; }
    int capture_order(const Position&, Move m) const { return m.v; }
    bool is_irreversible(Move) const { return false; }
    int move_index(const Position& p, Move m) const { return (p.ply & 1) * 64 + m.v; }
    Move null_move() const { return {63}; }
    bool null_move_allowed(const Position&) const { return true; }
    int extension(const Position&, Move) const { return 0; }
};

static_assert(search::Game<TreeGame>);

}  // namespace testing_tree
