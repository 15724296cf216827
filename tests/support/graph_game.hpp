// A game played on a small random directed graph, for testing what the search claims where
// positions recur: every cycle of the graph is a way to repeat a position, and many paths lead
// to the same node (transpositions reached at different plies and with different histories).
// Nodes with an even number have Black (side 0) to move, odd ones White; every edge joins an
// even node to an odd one, so a move passes the turn. Some nodes are decided games; the others
// have one to three moves. There are no captures, no irreversible moves and no null move.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

#include <boost/container/static_vector.hpp>

#include "common/search/game.hpp"
#include "support/artificial_tree.hpp"

namespace graph_game {

struct GraphMove {
    std::uint16_t v = 0;  // 1 + the index of the edge at its node; 0 none
    static GraphMove none() { return {}; }
    static GraphMove from_raw(std::uint16_t raw) { return {raw}; }
    std::uint16_t raw() const { return v; }
    friend bool operator==(GraphMove, GraphMove) = default;
};

struct GraphPosition {
    int node = 0;
    std::vector<int> path;  // the nodes the position was reached from (for unmake)
};

struct Graph {
    // For each node: its decided result for the side to move there (Ongoing: the game goes on),
    // its successors, and its static value.
    std::vector<search::Status> status;
    std::vector<std::vector<int>> edges;
    std::vector<int> value;

    // A graph drawn by hand: `nodes` nodes, each node's successors, and the decided nodes
    // with their result for the side to move there; static values 0 unless given.
    static Graph drawn(int nodes, std::initializer_list<std::pair<int, std::vector<int>>> edges,
                       std::initializer_list<std::pair<int, search::Status>> decided,
                       std::initializer_list<std::pair<int, int>> values = {}) {
        Graph g;
        g.status.assign(static_cast<std::size_t>(nodes), search::Status::Ongoing);
        g.edges.resize(static_cast<std::size_t>(nodes));
        g.value.assign(static_cast<std::size_t>(nodes), 0);
        for (const auto& [node, targets] : edges) g.edges[static_cast<std::size_t>(node)] = targets;
        for (const auto& [node, status] : decided) g.status[static_cast<std::size_t>(node)] = status;
        for (const auto& [node, value] : values) g.value[static_cast<std::size_t>(node)] = value;
        return g;
    }

    // `nodes` nodes (even), about one in `decided_one_in` of them (not node 0) a decided game.
    static Graph random(std::uint64_t seed, int nodes, int decided_one_in) {
        Graph g;
        g.status.assign(static_cast<std::size_t>(nodes), search::Status::Ongoing);
        g.edges.resize(static_cast<std::size_t>(nodes));
        g.value.resize(static_cast<std::size_t>(nodes));
        std::uint64_t state = seed * 0x9E3779B97F4A7C15ULL + 1;
        auto next = [&](std::uint64_t bound) { return (state = testing_tree::mix(state)) % bound; };
        for (int n = 0; n < nodes; ++n) {
            const auto at = static_cast<std::size_t>(n);
            g.value[at] = static_cast<int>(next(601)) - 300;
            if (n > 0 && next(static_cast<std::uint64_t>(decided_one_in)) == 0) {
                const auto r = next(5);
                g.status[at] = r < 2 ? search::Status::Win : r < 4 ? search::Status::Loss : search::Status::Draw;
                continue;
            }
            const int moves = 1 + static_cast<int>(next(3));
            for (int m = 0; m < moves; ++m) {
                // A node of the other colour: odd targets from even nodes, even from odd.
                const int target = 2 * static_cast<int>(next(static_cast<std::uint64_t>(nodes / 2))) + (1 - n % 2);
                g.edges[at].push_back(target);
            }
        }
        return g;
    }
};

// The search::Game adapter.
struct GraphGame {
    using Move = GraphMove;
    using Position = GraphPosition;
    using MoveList = boost::container::static_vector<GraphMove, 4>;
    static constexpr int MoveIndexCount = 8;

    const Graph* graph = nullptr;

    void generate(const Position& p, MoveList& moves) const {
        const auto& out = graph->edges[static_cast<std::size_t>(p.node)];
        for (std::size_t i = 0; i < out.size(); ++i) moves.push_back({static_cast<std::uint16_t>(i + 1)});
    }
    void make(Position& p, Move m) const {
        p.path.push_back(p.node);
        p.node = graph->edges[static_cast<std::size_t>(p.node)][m.v - 1u];
    }
    void unmake(Position& p, Move) const {
        p.node = p.path.back();
        p.path.pop_back();
    }
    std::uint64_t key(const Position& p) const { return testing_tree::mix(static_cast<std::uint64_t>(p.node) + 0x51DE); }
    search::Status status(const Position& p) const { return graph->status[static_cast<std::size_t>(p.node)]; }
    bool repetition_draws() const { return true; }
    int evaluate(const Position& p) const { return graph->value[static_cast<std::size_t>(p.node)]; }
    bool is_quiescence_move(const Position&, Move, int) const { return false; }
    bool is_capture(Move) const { return false; }
    int capture_order(const Position&, Move) const { return 0; }
    bool is_irreversible(Move) const { return false; }
    int move_index(const Position& p, Move m) const { return (p.node % 2) * 4 + m.v; }
    Move null_move() const { return {7}; }
    bool null_move_allowed(const Position&) const { return false; }
    int extension(const Position&, Move) const { return 0; }
};

static_assert(search::Game<GraphGame>);

// A graph drawn by hand (even nodes: Black to move, odd: White):
//   S=15 (W): X=2 or K=16 (K <-> 17 is a cycle: a draw)      X=2 (B): Y=3
//   Y=3 (W): Z1=4 or Z2=6      Z1=4, Z2=6 (B): T=5 (a White loss); Z2 also H=7
//   H=7 (W): Z2=6 or R=0       R=0 (B): M=1       M=1 (W): A=8 (first) or X=2
//   A=8 .. A5=12: a line of five plies ending in T.
// Searched at S, X is lost for White in three plies (X-Y-Z-T, whatever White does at Y). Then
// the game 6-7-6-7 reaches R: Z2 has been seen twice, so at Y White draws by playing Z2 a third
// time, and M-X holds the draw. The first search's table claims a loss at X; a search that
// took it would claim that R wins in 7 (M-A is the slower loss, M-X fails low behind it).
inline Graph repetition_graph() {
    using search::Status;
    return Graph::drawn(18,
                        {{15, {2, 16}}, {16, {17}}, {17, {16}}, {2, {3}}, {3, {4, 6}}, {4, {5}}, {6, {5, 7}}, {7, {6, 0}},
                         {0, {1}}, {1, {8, 2}}, {8, {9}}, {9, {10}}, {10, {11}}, {11, {12}}, {12, {5}}},
                        {{5, Status::Loss}},
                        {{8, -200}});  // White's static preference at M: A before X
}

}  // namespace graph_game
