// Proves a position won, lost or drawn with proof-number search: PN (one tree), PN²
// (Breuker; Winands used it for LOA endgames), the depth-first PDS and df-pn, or either over PN
// trees (Winands' PDS-PN, and the same with df-pn at the first level; depth_first.hpp), over
// any search::Game, with a table of solved positions.
//
// Two goals are searched in turn: "the side to move wins" and, once that is disproven, "the
// side to move loses". Proven first: a win; proven second: a loss; both disproven: a draw.
//
// PN²: the first-level tree selects its most-proving leaf as usual, but instead of giving the
// leaf's children starting numbers it runs a second-level PN search below the leaf, keeps that
// tree's root children with their numbers, and throws the rest away. The second-level tree may
// grow to `pn2_fraction` times the first-level tree (at least `pn2_min_nodes`): Allis' choice of
// a second-level bound that grows with the first-level tree. Memory holds the first-level tree
// and one second-level tree; the node budget counts every node created at either level.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "common/error.hpp"
#include "common/search/game.hpp"
#include "common/search/limits.hpp"
#include "common/solver/depth_first.hpp"
#include "common/solver/proof_numbers.hpp"
#include "common/solver/proof_tree.hpp"
#include "common/solver/solved_table.hpp"

namespace solver {

enum class Algorithm { PN, PN2, DFPN, DFPN_PN, PDS, PDS_PN };
enum class Value { Unknown, Win, Loss, Draw };

inline std::string_view to_string(Value v) {
    switch (v) {
        case Value::Win: return "win";
        case Value::Loss: return "loss";
        case Value::Draw: return "draw";
        case Value::Unknown: break;
    }
    return "unknown";
}
inline std::string_view to_string(Algorithm a) {
    switch (a) {
        case Algorithm::PN: return "pn";
        case Algorithm::PN2: return "pn2";
        case Algorithm::DFPN: return "dfpn";
        case Algorithm::PDS: return "pds";
        case Algorithm::PDS_PN: return "pds-pn";
        case Algorithm::DFPN_PN: break;
    }
    return "dfpn-pn";
}

inline bool depth_first(Algorithm a) { return a != Algorithm::PN && a != Algorithm::PN2; }
inline bool two_levels(Algorithm a) { return a == Algorithm::PN2 || a == Algorithm::DFPN_PN || a == Algorithm::PDS_PN; }

inline Algorithm parse_algorithm(std::string_view text) {
    if (text == "pn") return Algorithm::PN;
    if (text == "pn2") return Algorithm::PN2;
    if (text == "dfpn") return Algorithm::DFPN;
    if (text == "dfpn-pn") return Algorithm::DFPN_PN;
    if (text == "pds") return Algorithm::PDS;
    if (text == "pds-pn") return Algorithm::PDS_PN;
    throw common::InputError("unknown proof-number algorithm '" + std::string(text) +
                             "' (pn, pn2, dfpn, dfpn-pn, pds or pds-pn)");
}
inline LeafInit parse_leaf_init(std::string_view text) {
    if (text == "uniform") return LeafInit::Uniform;
    if (text == "mobility") return LeafInit::Mobility;
    throw common::InputError("unknown leaf initialisation '" + std::string(text) + "' (uniform or mobility)");
}

struct SolverOptions {
    // PN with mobility numbers solves the most positions of the endgame set at every budget up
    // to a million nodes (docs/solver.md); PN² saves memory, not nodes.
    Algorithm algorithm = Algorithm::PN;
    LeafInit init = LeafInit::Mobility;
    std::size_t table_mb = 16;  // 0: no table of solved positions (the depth-first ones: their smallest table)
    double pn2_fraction = 1.0;        // two levels: the second level's bound, times the first level's size
    std::uint64_t pn2_min_nodes = 100;  // ... and at least this
};

struct SolveLimits {
    std::uint64_t nodes = 1'000'000;  // every node created, both goals and both levels
    double time_ms = 0;               // 0: none
    const std::atomic<bool>* stop = nullptr;
    int game_plies_left = 0;          // > 0: the game-length rule draws the game that many plies below the root
};

// One goal's search: the root's numbers when it ended.
struct GoalSearch {
    bool run = false;
    ProofNumber pn = 1, dn = 1;
    std::uint64_t nodes = 0;
    double time_ms = 0;
    bool proven() const { return run && pn == 0; }
    bool disproven() const { return run && dn == 0; }
};

template <class Move>
struct SolveResult {
    Value value = Value::Unknown;
    Move move = Move::none();  // a winning move, when the value is a win
    GoalSearch win;            // "the side to move wins"
    GoalSearch loss;           // "the side to move loses"
    std::uint64_t nodes = 0;
    double time_ms = 0;
};

template <search::Game G>
class ProofNumberSolver {
public:
    using Position = typename G::Position;
    using Move = typename G::Move;
    using Result = SolveResult<Move>;

    ProofNumberSolver(G game, SolverOptions options)
        : game_(std::move(game)),
          options_(options),
          // The depth-first searches keep their verdicts in their own table: no second one.
          table_(options.table_mb && !depth_first(options.algorithm) ? std::make_unique<SolvedTable>(options.table_mb)
                                                                      : nullptr),
          first_(game_, table_.get(), options.init),
          second_(game_, table_.get(), options.init),
          depth_first_(depth_first(options.algorithm)
                           ? std::make_unique<DepthFirstProofSearch<G>>(
                                 game_, options.table_mb, options.init,
                                 SecondLevel{two_levels(options.algorithm), options.pn2_fraction, options.pn2_min_nodes},
                                 options.algorithm == Algorithm::PDS || options.algorithm == Algorithm::PDS_PN
                                     ? Thresholds::Pds
                                     : Thresholds::DfPn)
                           : nullptr) {}

    // The trees refer to the game member: a solver stays where it was made.
    ProofNumberSolver(const ProofNumberSolver&) = delete;
    ProofNumberSolver& operator=(const ProofNumberSolver&) = delete;

    const SolverOptions& options() const { return options_; }
    const SolvedTable* table() const { return table_.get(); }
    // Forget the solved positions: the next solve gives what a fresh solver gives.
    void clear() {
        if (table_) table_->clear();
        if (depth_first_) depth_first_->clear();
    }

    // `history`: keys of the game's positions before `root` that it may still repeat, oldest
    // first (as for the αβ search). The root's own game status is not checked. The proofs of
    // earlier solves are not trusted (solved_table.hpp); their disproofs are.
    Result solve(const Position& root, const SolveLimits& limits, std::span<const std::uint64_t> history = {}) {
        if (table_) table_->new_solve();
        if (depth_first_) depth_first_->new_solve();
        Result result;
        // Tree nodes are indexed by 32 bits.
        const std::uint64_t budget = std::min<std::uint64_t>(limits.nodes, 0xFFFF0000ULL);
        const search::Stopwatch clock;
        search::SearchLimits stop;
        stop.hard_time_ms = limits.time_ms;
        stop.stop = limits.stop;
        const TreeContext context{history, {}, 0, limits.game_plies_left};

        result.win = prove(root, true, context, budget, result.nodes, clock, stop);
        if (result.win.proven()) {
            result.value = Value::Win;
            result.move = proving_move_;
        } else if (result.win.disproven()) {
            result.loss = prove(root, false, context, budget, result.nodes, clock, stop);
            if (result.loss.proven()) result.value = Value::Loss;
            else if (result.loss.disproven()) result.value = Value::Draw;
        }
        result.time_ms = clock.elapsed_ms();
        return result;
    }

private:
    GoalSearch prove(const Position& root, bool attacker_to_move, const TreeContext& context, std::uint64_t budget,
                     std::uint64_t& total, const search::Stopwatch& clock, const search::SearchLimits& stop) {
        GoalSearch goal;
        goal.run = true;
        const std::uint64_t nodes_before = total;
        const double time_before = clock.elapsed_ms();
        proving_move_ = Move::none();
        if (depth_first_) {
            const auto found = depth_first_->run(root, attacker_to_move, context, total, budget, clock, stop);
            goal.pn = found.pn;
            goal.dn = found.dn;
            proving_move_ = found.proving_move;
            goal.nodes = total - nodes_before;
            goal.time_ms = clock.elapsed_ms() - time_before;
            return goal;
        }
        first_.reset(root, attacker_to_move, context);
        if (options_.algorithm == Algorithm::PN) {
            first_.run(budget, total, budget, clock, stop,
                       [&](std::uint32_t index, Position& pos, int ply) { return first_.expand_plain(index, pos, ply); });
        } else {
            first_.run(budget, total, budget, clock, stop,
                       [&](std::uint32_t index, Position& pos, int ply) { return expand_second_level(index, pos, ply, budget, total, clock, stop); });
        }
        goal.pn = first_.root().pn;
        goal.dn = first_.root().dn;
        if (goal.pn == 0)
            for (const TreeNode& child : first_.children(0))
                if (child.pn == 0) {
                    proving_move_ = Move::from_raw(child.move);
                    break;
                }
        goal.nodes = total - nodes_before;
        goal.time_ms = clock.elapsed_ms() - time_before;
        return goal;
    }

    std::uint64_t expand_second_level(std::uint32_t index, Position& pos, int ply, std::uint64_t budget,
                                      std::uint64_t& total, const search::Stopwatch& clock,
                                      const search::SearchLimits& stop) {
        second_.reset(pos, first_.is_or(ply), first_.context_below(ply));
        second_.run(second_level_bound(options_.pn2_fraction, options_.pn2_min_nodes, first_.size()), total, budget, clock, stop,
                    [&](std::uint32_t i, Position& p, int pl) { return second_.expand_plain(i, p, pl); });
        if (second_.root().expanded()) first_.adopt_children(index, second_.children(0));
        else if (second_.root().solved()) first_.set_leaf(index, second_.root());
        return 0;  // the second-level run has counted its nodes already
    }

    G game_;
    SolverOptions options_;
    std::unique_ptr<SolvedTable> table_;
    ProofTree<G> first_;
    ProofTree<G> second_;
    std::unique_ptr<DepthFirstProofSearch<G>> depth_first_;
    Move proving_move_ = Move::none();  // of the last goal proven
};

}  // namespace solver
