// Depth-first proof-number search over any search::Game, in two forms that share everything
// but their thresholds:
//
// - df-pn (Nagai, 2002) expands the same most-proving nodes as PN search, but walks down and
//   back up with two thresholds instead of keeping the tree: a node is searched until its proof
//   number reaches th_pn OR its disproof number th_dn. Thresholds of the child searched (at an
//   OR node; an AND node swaps pn and dn): the child with the smallest pn, until its pn passes
//   the second smallest (the most-proving node moves elsewhere) or the parent's own threshold,
//   or until its dn brings the parent's sum to th_dn.
// - PDS (Nagai's proof-number and disproof-number search, 1998; the first level of Winands'
//   PDS-PN on LOA endgames) deepens by one at a time: a node is searched until its proof
//   number reaches th_pn AND its disproof number th_dn ("multiple iterative deepening"). The
//   most-proving child is searched with one of its numbers raised by one: the number that
//   brings the parent to its disproof threshold (the child's dn at an OR node) while the parent
//   is short of it and the child looks easier to disprove than to prove, or the parent has
//   already met its proof threshold; else the other. In place of Nagai's outer loop that
//   raises the root's thresholds one at a time, the root is searched with no thresholds: its
//   children are still raised one at a time.
//
// What a node found is kept in a transposition table (numbers_table.hpp). Memory is the table,
// whatever the node budget; a node is counted each time it is generated, so PDS's repeated
// visits cost nodes.
//
// A node keeps its children's numbers in its own frame while it searches them, so a child
// whose value rests on a repetition of the line (graph-history interaction) is seen with that
// value here, and the table never holds it as solved. Rules as in the tree algorithms: a
// position repeating one on the line is a draw at once, one from the game before the root at
// its third occurrence, and the game-length rule draws at its ply; results that rest on either
// are not stored as solved, and no proof is stored or used under a game-length rule.
//
// Two levels (`SecondLevel`): Winands' PDS-PN puts a depth-first search at the first level and
// a best-first PN search at the second; here the first level is PDS (pds-pn) or df-pn, PDS's
// successor (dfpn-pn). The first time the first level expands a node (the node has no entry
// in the table), a PN tree grown below the node gives its children their starting numbers
// instead of the leaf numbers, and the table keeps those of the children it expanded for the
// node's later visits (under keys of their own: a child's own entry would mark it expanded);
// the tree is then thrown away. Its bound grows with the first level, as PN²'s does: `fraction` times the
// first-level nodes expanded so far in the goal, at least `min_nodes`.
#pragma once

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstdint>
#include <span>
#include <vector>

#include "common/search/game.hpp"
#include "common/search/limits.hpp"
#include "common/solver/node_rules.hpp"
#include "common/solver/numbers_table.hpp"
#include "common/solver/proof_numbers.hpp"
#include "common/solver/proof_tree.hpp"
#include "common/solver/solved_table.hpp"

namespace solver {

enum class Thresholds { DfPn, Pds };

struct ChildThresholds {
    ProofNumber pn, dn;
};

// PDS: the thresholds of the most-proving child (numbers `child_pn`, `child_dn`) of a node
// (numbers `node_pn`, `node_dn`) searched with thresholds `th_pn`, `th_dn`: one of the
// child's numbers raised by one, the other kept. At an OR node the child's dn is raised (it
// raises the node's sum) while the node is short of th_dn and the child is no harder to
// disprove than to prove, or the node has met th_pn already; else its pn (it raises the
// node's min). An AND node swaps pn and dn. (Nagai's rule, in negamax form: raise the child's
// phi when the node's delta is short of its threshold and phi_c <= delta_c or the node's phi
// has met its threshold.)
inline ChildThresholds pds_child_thresholds(bool or_node, ProofNumber node_pn, ProofNumber node_dn, ProofNumber th_pn,
                                            ProofNumber th_dn, ProofNumber child_pn, ProofNumber child_dn) {
    const ProofNumber mine = or_node ? child_pn : child_dn;  // the node's min is over these
    const ProofNumber theirs = or_node ? child_dn : child_pn;  // the node's sum is over these
    const ProofNumber th_mine = or_node ? th_pn : th_dn;
    const ProofNumber th_theirs = or_node ? th_dn : th_pn;
    const ProofNumber node_mine = or_node ? node_pn : node_dn;
    const ProofNumber node_sum = or_node ? node_dn : node_pn;
    // A saturated number can only go on to infinity (the child solved).
    auto raised = [](ProofNumber v) { return v >= MaxFinite ? Infinite : v + 1; };
    const bool raise_theirs = th_theirs > node_sum && (theirs <= mine || th_mine <= node_mine);
    const ProofNumber child_mine = raise_theirs ? mine : raised(mine);
    const ProofNumber child_theirs = raise_theirs ? raised(theirs) : theirs;
    return or_node ? ChildThresholds{child_mine, child_theirs} : ChildThresholds{child_theirs, child_mine};
}

struct SecondLevel {
    bool enabled = false;
    double fraction = 1.0;
    std::uint64_t min_nodes = 100;
};

template <search::Game G>
class DepthFirstProofSearch {
public:
    using Position = typename G::Position;
    using Move = typename G::Move;
    using MoveList = typename G::MoveList;

    // Lines deeper than this end the search as unknown: the recursion stays far from the
    // stack's limit, and no verdict is ever made up for a line cut short.
    static constexpr int MaxPly = 600;

    DepthFirstProofSearch(const G& game, std::size_t table_mb, LeafInit init, SecondLevel second = {},
                          Thresholds thresholds = Thresholds::DfPn)
        : game_(game), table_(table_mb), init_(init), thresholds_(thresholds), second_(second), below_(game, nullptr, init) {}

    // The second-level tree refers to the game: a search stays where it was made.
    DepthFirstProofSearch(const DepthFirstProofSearch&) = delete;
    DepthFirstProofSearch& operator=(const DepthFirstProofSearch&) = delete;

    void clear() { table_.clear(); }
    void new_solve() { table_.new_solve(); }

    struct Outcome {
        ProofNumber pn = 1, dn = 1;
        Move proving_move = Move::none();  // when proven: a root move whose child is proven
    };

    // One goal from `root` (`attacker_to_move`: the root is an OR node), until it is solved,
    // or `total_nodes` (shared by every search of a solve; a node counts each time it is
    // generated) reaches `budget`, or time is up.
    Outcome run(const Position& root, bool attacker_to_move, const TreeContext& context, std::uint64_t& total_nodes,
                std::uint64_t budget, const search::Stopwatch& clock, const search::SearchLimits& stop) {
        root_is_or_ = attacker_to_move;
        context_ = context;
        keys_.assign(context.game_history.begin(), context.game_history.end());
        history_size_ = keys_.size();
        keys_.push_back(game_.key(root));
        total_ = &total_nodes;
        budget_ = budget;
        clock_ = &clock;
        stop_ = &stop;
        aborted_ = false;
        expansions_ = 0;
        first_level_expansions_ = 0;
        root_children_.clear();

        Outcome out;
        if (context.game_plies_left > 0 && context.root_ply >= context.game_plies_left) {
            out.pn = Infinite;  // the game-length rule has already drawn it: a failure for the attacker
            out.dn = 0;
            return out;
        }
        Position pos = root;
        const Node n = search(pos, 0, Infinite, Infinite);
        out.pn = n.pn;
        out.dn = n.dn;
        if (n.pn == 0)
            for (const Node& child : root_children_)
                if (child.pn == 0) {
                    out.proving_move = child.move;
                    break;
                }
        return out;
    }

private:
    struct Node {
        Move move = Move::none();
        ProofNumber pn = 1, dn = 1;
        bool path_dependent = false;
        bool solved() const { return pn == 0 || dn == 0; }
    };

    bool is_or(int ply) const { return (ply % 2 == 0) == root_is_or_; }

    // Searches the node at `ply` (its position in `pos`, its key last in keys_) until one of its
    // numbers (df-pn) or both (PDS) reach their thresholds, it is solved, or the search is aborted.
    Node search(Position& pos, int ply, ProofNumber th_pn, ProofNumber th_dn) {
        const bool or_node = is_or(ply);
        std::vector<Node> children = expand(pos, ply);
        Node n;
        for (;;) {
            const Combined c = combine(children, or_node);
            n.pn = c.pn;
            n.dn = c.dn;
            n.path_dependent = c.path_dependent;
            if (aborted_ || n.solved() || thresholds_reached(n, th_pn, th_dn)) break;
            if (out_of_resources() || ply + 1 >= MaxPly) {
                aborted_ = true;
                break;
            }
            const auto [best, child_th_pn, child_th_dn] = thresholds_ == Thresholds::Pds
                                                               ? select_pds(children, or_node, n, th_pn, th_dn)
                                                               : select(children, or_node, n, th_pn, th_dn);
            Node& child = children[best];
            game_.make(pos, child.move);
            keys_.push_back(game_.key(pos));
            const Node found = search(pos, ply + 1, child_th_pn, child_th_dn);
            keys_.pop_back();
            game_.unmake(pos, child.move);
            child.pn = found.pn;
            child.dn = found.dn;
            child.path_dependent = found.path_dependent;
        }
        remember(keys_.back(), or_node, n);
        if (ply == 0) root_children_ = std::move(children);
        return n;
    }

    // The node's children with their starting numbers: the rules, the line, the table, the
    // second-level tree below a node expanded for the first time, or a new leaf's numbers.
    std::vector<Node> expand(Position& pos, int ply) {
        const bool or_node = is_or(ply);
        std::span<const TreeNode> below;
        if (second_.enabled && !table_.probe(goal_key(keys_.back(), or_node))) below = search_below(pos, ply);
        MoveList moves;
        game_.generate(pos, moves);
        if (below.empty()) *total_ += moves.size();  // else the second level has counted them
        else assert(below.size() == moves.size());
        std::vector<Node> children;
        children.reserve(moves.size());
        for (std::size_t i = 0; i < moves.size(); ++i) {
            Node child;
            child.move = moves[i];
            game_.make(pos, child.move);
            keys_.push_back(game_.key(pos));
            // Both levels generate the same moves in the same order.
            const Source source = classify(child, pos, ply + 1, !or_node, below.empty() ? nullptr : &below[i]);
            // Only a child the tree expanded has more than its leaf numbers to keep.
            if (source == Source::Below && below[i].expanded() && !child.solved() && !child.path_dependent)
                table_.store(seed_key(goal_key(keys_.back(), !or_node)), child.pn, child.dn);
            keys_.pop_back();
            game_.unmake(pos, child.move);
            children.push_back(child);
        }
        return children;
    }

    // PDS-PN's second level: a PN tree rooted at the node at `ply` (the line above it is its
    // path, for repetitions), bounded as PN²'s; its root's children, or none if the budget or
    // the clock stopped it before it expanded its root.
    std::span<const TreeNode> search_below(const Position& pos, int ply) {
        ++first_level_expansions_;
        TreeContext context = context_;
        context.path_above = {keys_.data() + history_size_, keys_.size() - 1 - history_size_};
        context.root_ply = context_.root_ply + ply;
        below_.reset(pos, is_or(ply), context);
        below_.run(second_level_bound(second_.fraction, second_.min_nodes, first_level_expansions_), *total_, budget_, *clock_, *stop_,
                   [&](std::uint32_t i, Position& p, int pl) { return below_.expand_plain(i, p, pl); });
        return below_.children(0);
    }

    // The numbers a second-level tree gave a child are kept in the table under a key of their
    // own (the child's own key would mark it expanded, and it would never get a tree of its
    // own): on the parent's next visit the child starts from them, not from leaf numbers. PDS
    // leaves most nodes on their first visit, before it searches any child.
    static std::uint64_t seed_key(std::uint64_t goal_key) { return goal_key ^ 0x5851F42D4C957F2DULL; }

    enum class Source { Rules, Table, Below, Seed, Leaf };

    // `below`: the child's numbers in the second-level tree, whose root is this child's parent
    // on this very line, so that a verdict resting on the line holds here too.
    Source classify(Node& node, const Position& pos, int ply, bool or_node, const TreeNode* below) const {
        auto solve = [&](bool proven, bool path_dependent) {
            node.pn = proven ? 0 : Infinite;
            node.dn = proven ? Infinite : 0;
            node.path_dependent = path_dependent;
            return Source::Rules;
        };
        // The status is the side to move's; the attacker is to move at OR nodes.
        const search::Status s = game_.status(pos);
        if (s != search::Status::Ongoing)
            return solve((s == search::Status::Win && or_node) || (s == search::Status::Loss && !or_node), false);
        if (game_.repetition_draws() && repeats(keys_, history_size_)) return solve(false, true);
        if (context_.game_plies_left > 0 && context_.root_ply + ply >= context_.game_plies_left) return solve(false, true);
        const std::uint64_t key = goal_key(keys_.back(), or_node);
        if (const auto known = table_.probe(key)) {
            // A stored proof is not used under a game-length rule: it may need more plies.
            if (known->pn != 0 || context_.game_plies_left == 0) {
                node.pn = known->pn;
                node.dn = known->dn;
                return Source::Table;
            }
        }
        if (below) {
            node.pn = below->pn;
            node.dn = below->dn;
            node.path_dependent = below->path_dependent;
            return Source::Below;
        }
        if (second_.enabled)
            // Seeds are never solved: a solved entry here could only be another key's.
            if (const auto seeded = table_.probe(seed_key(key)); seeded && seeded->pn != 0 && seeded->dn != 0) {
                node.pn = seeded->pn;
                node.dn = seeded->dn;
                return Source::Seed;
            }
        set_leaf_numbers(game_, pos, or_node, init_, node.pn, node.dn);
        return Source::Leaf;
    }

    bool thresholds_reached(const Node& n, ProofNumber th_pn, ProofNumber th_dn) const {
        return thresholds_ == Thresholds::Pds ? n.pn >= th_pn && n.dn >= th_dn : n.pn >= th_pn || n.dn >= th_dn;
    }

    struct Choice {
        std::size_t child;
        ProofNumber th_pn, th_dn;
    };

    // The child with the smallest "mine" (pn at an OR node, dn at an AND node), the first on ties.
    static std::size_t most_proving(const std::vector<Node>& children, bool or_node) {
        std::size_t best = 0;
        for (std::size_t i = 1; i < children.size(); ++i)
            if ((or_node ? children[i].pn : children[i].dn) < (or_node ? children[best].pn : children[best].dn)) best = i;
        return best;
    }

    // PDS: the most-proving child, with one of its numbers raised by one.
    static Choice select_pds(const std::vector<Node>& children, bool or_node, const Node& n, ProofNumber th_pn,
                             ProofNumber th_dn) {
        const std::size_t best = most_proving(children, or_node);
        const auto th = pds_child_thresholds(or_node, n.pn, n.dn, th_pn, th_dn, children[best].pn, children[best].dn);
        return {best, th.pn, th.dn};
    }

    // The most-proving child (the first on ties, for determinism) and its thresholds.
    static Choice select(const std::vector<Node>& children, bool or_node, const Node& n, ProofNumber th_pn,
                         ProofNumber th_dn) {
        // At an OR node "mine" is pn (one child settles it), "theirs" dn (all of them must).
        auto mine = [&](const Node& c) { return or_node ? c.pn : c.dn; };
        auto theirs = [&](const Node& c) { return or_node ? c.dn : c.pn; };
        std::size_t best = 0;
        ProofNumber second = Infinite;
        for (std::size_t i = 1; i < children.size(); ++i) {
            if (mine(children[i]) < mine(children[best])) {
                second = mine(children[best]);
                best = i;
            } else {
                second = std::min(second, mine(children[i]));
            }
        }
        const ProofNumber th_mine = or_node ? th_pn : th_dn;
        const ProofNumber th_theirs = or_node ? th_dn : th_pn;
        const ProofNumber sum_theirs = or_node ? n.dn : n.pn;
        // Past the second best, unless sums have saturated there: then only the parent's own
        // threshold (which the child is below) leaves room, and the child must get room.
        const ProofNumber child_mine = second >= MaxFinite ? th_mine : std::min(th_mine, saturating_add(second, 1));
        // The child's share of the sum's threshold: what the other children leave free.
        const ProofNumber child_theirs =
            th_theirs == Infinite ? Infinite : saturating_add(th_theirs - sum_theirs, theirs(children[best]));
        return or_node ? Choice{best, child_mine, child_theirs} : Choice{best, child_theirs, child_mine};
    }

    // Keeps what the node found for the next visit. A verdict that rests on the line is kept
    // as no verdict at all; a proof is not kept under a game-length rule.
    void remember(std::uint64_t key, bool or_node, const Node& n) {
        if (n.solved() && (n.path_dependent || (n.pn == 0 && context_.game_plies_left > 0))) return;
        table_.store(goal_key(key, or_node), n.pn, n.dn);
    }

    bool out_of_resources() {
        if (*total_ >= budget_) return true;
        return (++expansions_ & 7) == 0 && stop_requested(*clock_, *stop_);
    }

    const G& game_;
    NumbersTable table_;
    LeafInit init_;
    Thresholds thresholds_;
    SecondLevel second_;
    ProofTree<G> below_;  // the second-level tree, reused
    std::uint64_t first_level_expansions_ = 0;
    bool root_is_or_ = true;
    TreeContext context_;
    std::vector<std::uint64_t> keys_;  // game history, then one key per ply of the current line
    std::size_t history_size_ = 0;
    std::uint64_t* total_ = nullptr;
    std::uint64_t budget_ = 0;
    const search::Stopwatch* clock_ = nullptr;
    const search::SearchLimits* stop_ = nullptr;
    bool aborted_ = false;
    std::uint64_t expansions_ = 0;
    std::vector<Node> root_children_;
};

}  // namespace solver
