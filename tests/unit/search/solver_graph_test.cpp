// The solvers on small hand-made game graphs, where the graph-history interaction problem can
// be set up on purpose: a position whose value depends on the line that reached it (here: on
// the plies the game-length rule leaves) must never be reused, through a table, where another
// line reaches it.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include <boost/container/static_vector.hpp>

#include "common/search/game.hpp"
#include "common/solver/solver.hpp"

namespace {

struct GraphMove {
    std::uint16_t v = 0;  // target node + 1; 0: none
    static GraphMove none() { return {}; }
    static GraphMove from_raw(std::uint16_t raw) { return {raw}; }
    std::uint16_t raw() const { return v; }
    friend bool operator==(GraphMove, GraphMove) = default;
};

struct GraphPosition {
    std::array<int, 64> line{};  // nodes from the root; line[depth] is the current one
    int depth = 0;
};

// Nodes with their moves (targets, in order) and, for a decided node, the side to move's
// result. Whose turn it is belongs to the node: the graphs below alternate sides by
// construction.
struct GraphGame {
    using Move = GraphMove;
    using Position = GraphPosition;
    using MoveList = boost::container::static_vector<GraphMove, 8>;
    static constexpr int MoveIndexCount = 64;

    std::vector<std::vector<int>> moves;
    std::vector<search::Status> status_of;

    Position at(int node) const {
        Position p;
        p.line[0] = node;
        return p;
    }
    void generate(const Position& p, MoveList& out) const {
        for (const int to : moves[static_cast<std::size_t>(p.line[static_cast<std::size_t>(p.depth)])])
            out.push_back({static_cast<std::uint16_t>(to + 1)});
    }
    void make(Position& p, Move m) const { p.line[static_cast<std::size_t>(++p.depth)] = m.v - 1; }
    void unmake(Position& p, Move) const { --p.depth; }
    std::uint64_t key(const Position& p) const {
        return 0x9E37'79B9'7F4A'7C15ULL * static_cast<std::uint64_t>(p.line[static_cast<std::size_t>(p.depth)] + 1);
    }
    search::Status status(const Position& p) const {
        return status_of[static_cast<std::size_t>(p.line[static_cast<std::size_t>(p.depth)])];
    }
    bool repetition_draws() const { return true; }
    int evaluate(const Position&) const { return 0; }
    bool is_quiescence_move(const Position&, Move, int) const { return false; }
    bool is_capture(Move) const { return false; }
    int capture_order(const Position&, Move) const { return 0; }
    bool is_irreversible(Move) const { return false; }
    int move_index(const Position&, Move m) const { return m.v % 64; }
    Move null_move() const { return {}; }
    bool null_move_allowed(const Position&) const { return false; }
    int extension(const Position&, Move) const { return 0; }
};
static_assert(search::Game<GraphGame>);

std::vector<solver::SolverOptions> all_solvers() {
    std::vector<solver::SolverOptions> out;
    for (const auto algorithm :
         {solver::Algorithm::PN, solver::Algorithm::PN2, solver::Algorithm::DFPN, solver::Algorithm::DFPN_PN,
          solver::Algorithm::PDS, solver::Algorithm::PDS_PN})
        for (const auto init : {solver::LeafInit::Uniform, solver::LeafInit::Mobility}) {
            solver::SolverOptions o;
            o.algorithm = algorithm;
            o.init = init;
            o.table_mb = 1;
            o.pn2_min_nodes = 2;
            o.pn2_fraction = 1e-9;  // second-level trees of two nodes: the table carries the work
            out.push_back(o);
            if (algorithm == solver::Algorithm::DFPN_PN || algorithm == solver::Algorithm::PDS_PN) {
                o.pn2_min_nodes = 1000;  // and one whose second level sees the whole graph
                out.push_back(o);
            }
        }
    return out;
}

TEST(SolverGraph, AValueCutShortByTheGameLengthRuleIsNotReusedWhereMorePliesAreLeft) {
    // R (attacker to move) -> A or B. Through A the line is long: A -> C -> D -> X, X at ply 4.
    // Through B it is short: B -> X, X at ply 2. From X the attacker wins in three plies
    // (X -> E -> F -> G, where the defender to move has lost). With the game drawn at ply 6
    // the win from X fits only through B. A is searched first (ties go to the first move), so
    // a table that kept "X fails" from the long line would refute B as well.
    enum { R, A, B, C, D, X, E, F, G };
    GraphGame g;
    g.moves = {{A, B}, {C}, {X}, {D}, {X}, {E}, {F}, {G}, {}};
    g.status_of.assign(9, search::Status::Ongoing);
    g.status_of[G] = search::Status::Loss;
    for (const auto& o : all_solvers()) {
        solver::ProofNumberSolver<GraphGame> s(g, o);
        solver::SolveLimits limits;
        limits.game_plies_left = 6;
        const auto r = s.solve(g.at(R), limits);
        EXPECT_EQ(r.value, solver::Value::Win) << solver::to_string(o.algorithm);
        EXPECT_EQ(r.move, GraphMove{B + 1}) << solver::to_string(o.algorithm);
        limits.game_plies_left = 4;  // now the win fits through neither: a draw
        EXPECT_EQ(s.solve(g.at(R), limits).value, solver::Value::Draw) << solver::to_string(o.algorithm);
    }
}

}  // namespace
