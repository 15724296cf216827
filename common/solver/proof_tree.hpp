// A best-first proof-number search tree (Allis, van der Meulen and van den Herik, 1994) over
// any search::Game: select the most-proving node, expand it, update its ancestors, until the
// root is proven, disproven, or the node budget is spent.
//
// The goal is fixed for a tree: the "attacker" tries to win; a draw counts as a failure.
// OR nodes have the attacker to move. The tree lives in one array; positions are not stored
// but replayed from the root on each descent (a descent is short next to an expansion).
//
// Repetitions follow the engine's convention: a position repeating one on the path from the
// root (or from a first-level tree above, for PN²) is a draw at once; one from the game before
// the root draws at its third occurrence. A draw by the game-length rule is a draw at that
// ply. Both depend on the path, so results that rest on them are never put in the table.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "common/search/game.hpp"
#include "common/search/limits.hpp"
#include "common/solver/node_rules.hpp"
#include "common/solver/proof_numbers.hpp"
#include "common/solver/solved_table.hpp"

namespace solver {

struct TreeNode {
    static constexpr std::uint32_t None = 0xFFFFFFFF;
    ProofNumber pn = 1;
    ProofNumber dn = 1;
    std::uint32_t parent = None;
    std::uint32_t first_child = None;
    std::uint16_t move = 0;  // raw move from the parent
    std::uint16_t children = 0;
    bool path_dependent = false;  // its value rests on a repetition or the game-length rule

    bool expanded() const { return first_child != None; }
    bool solved() const { return pn == 0 || dn == 0; }
};

// Where the tree sits: the game's earlier positions and the positions above its root.
struct TreeContext {
    std::span<const std::uint64_t> game_history;  // before the first-level root, oldest first
    std::span<const std::uint64_t> path_above;    // first-level path above this root (PN²)
    int root_ply = 0;                              // plies from the first-level root
    int game_plies_left = 0;                       // > 0: the game is drawn that many plies below the first-level root
};

template <search::Game G>
class ProofTree {
public:
    using Position = typename G::Position;
    using Move = typename G::Move;
    using MoveList = typename G::MoveList;

    ProofTree(const G& game, SolvedTable* table, LeafInit init) : game_(game), table_(table), init_(init) {}

    // A new tree with one leaf, `root`; `attacker_to_move`: the root is an OR node.
    void reset(const Position& root, bool attacker_to_move, const TreeContext& context) {
        root_ = root;
        root_is_or_ = attacker_to_move;
        context_ = context;
        nodes_.clear();
        keys_.assign(context.game_history.begin(), context.game_history.end());
        history_size_ = keys_.size();
        keys_.insert(keys_.end(), context.path_above.begin(), context.path_above.end());
        path_start_ = keys_.size();
        keys_.push_back(game_.key(root_));
        nodes_.push_back(TreeNode{});
        TreeNode& r = nodes_.front();
        classify(r, root_, 0, root_is_or_, /*is_root=*/true);
    }

    // Runs until the root is solved, the tree holds `max_nodes`, `total_nodes` (the count
    // shared by every tree of a solve) reaches `total_budget`, or time is up. The expansion
    // step is replaceable (PN² expands with a second-level search): it is given the leaf's
    // index, its position and ply, appends the leaf's children to the tree, and returns the
    // nodes it created, also those of trees it built and threw away.
    template <class Expand>
    void run(std::uint64_t max_nodes, std::uint64_t& total_nodes, std::uint64_t total_budget, const search::Stopwatch& clock,
             const search::SearchLimits& stop, Expand&& expand) {
        std::uint64_t expansions = 0;
        while (!root().solved() && nodes_.size() < max_nodes && total_nodes < total_budget) {
            if ((++expansions & 7) == 0 && stop_requested(clock, stop)) break;  // the clock: every 8 expansions, well under a millisecond
            Position pos = root_;
            std::uint32_t index = 0;
            int ply = 0;
            while (nodes_[index].expanded()) {
                index = most_proving_child(index, is_or(ply));
                const Move m = Move::from_raw(nodes_[index].move);
                game_.make(pos, m);
                ++ply;
                set_key(ply, game_.key(pos));
            }
            total_nodes += expand(index, pos, ply);
            update(index, ply);
        }
    }

    // Plain PN: children classified (terminal, repetition, table) and initialised as leaves.
    std::uint64_t expand_plain(std::uint32_t index, Position& pos, int ply) {
        MoveList moves;
        game_.generate(pos, moves);
        const auto first = static_cast<std::uint32_t>(nodes_.size());
        const bool child_or = !is_or(ply);
        for (const Move m : moves) {
            TreeNode child;
            child.parent = index;
            child.move = m.raw();
            game_.make(pos, m);
            set_key(ply + 1, game_.key(pos));
            classify(child, pos, ply + 1, child_or, false);
            game_.unmake(pos, m);
            nodes_.push_back(child);
        }
        nodes_[index].first_child = first;
        nodes_[index].children = static_cast<std::uint16_t>(moves.size());
        return moves.size();
    }

    // Appends children with given numbers (PN²: the children of a second-level root).
    void adopt_children(std::uint32_t index, std::span<const TreeNode> children) {
        const auto first = static_cast<std::uint32_t>(nodes_.size());
        for (TreeNode c : children) {
            c.parent = index;
            c.first_child = TreeNode::None;
            c.children = 0;
            nodes_.push_back(c);
        }
        nodes_[index].first_child = first;
        nodes_[index].children = static_cast<std::uint16_t>(children.size());
    }

    const TreeNode& root() const { return nodes_.front(); }
    bool root_is_or() const { return root_is_or_; }
    std::span<const TreeNode> children(std::uint32_t index) const {
        const TreeNode& n = nodes_[index];
        if (!n.expanded()) return {};
        return {nodes_.data() + n.first_child, n.children};
    }
    std::size_t size() const { return nodes_.size(); }
    bool is_or(int ply) const { return (ply % 2 == 0) == root_is_or_; }
    // Where a second-level tree rooted at the node at `ply` of the current descent sits: the
    // same game history, this tree's path down to that node (the node itself excluded).
    TreeContext context_below(int ply) const {
        TreeContext below = context_;
        below.path_above = {keys_.data() + history_size_, path_start_ + static_cast<std::size_t>(ply) - history_size_};
        below.root_ply = context_.root_ply + ply;
        return below;
    }

    // Gives a leaf the numbers a search below it found without expanding it (a second-level
    // root solved by the table).
    void set_leaf(std::uint32_t index, const TreeNode& from) {
        TreeNode& n = nodes_[index];
        n.pn = from.pn;
        n.dn = from.dn;
        n.path_dependent = from.path_dependent;
    }

private:
    void set_key(int ply, std::uint64_t key) {
        const std::size_t at = path_start_ + static_cast<std::size_t>(ply);
        if (keys_.size() <= at) keys_.resize(at + 1);
        keys_[at] = key;
    }

    // OR node: the child with the smallest proof number; AND node: smallest disproof number.
    // The first such child on ties, so that the search is deterministic.
    std::uint32_t most_proving_child(std::uint32_t index, bool or_node) const {
        const TreeNode& n = nodes_[index];
        std::uint32_t best = n.first_child;
        for (std::uint32_t c = n.first_child + 1; c < n.first_child + n.children; ++c) {
            if (or_node ? nodes_[c].pn < nodes_[best].pn : nodes_[c].dn < nodes_[best].dn) best = c;
        }
        return best;
    }

    void set_solved(TreeNode& node, bool proven, bool path_dependent) {
        node.pn = proven ? 0 : Infinite;
        node.dn = proven ? Infinite : 0;
        node.path_dependent = path_dependent;
    }

    // A new node at `ply`, the move to it made: the rules' result, a repetition or the
    // game-length draw, the table's verdict, or else a leaf's starting numbers.
    void classify(TreeNode& node, const Position& pos, int ply, bool or_node, bool is_root) {
        if (!is_root) {
            // The status is the side to move's; the attacker is to move at OR nodes.
            const search::Status s = game_.status(pos);
            if (s != search::Status::Ongoing) {
                const bool attacker_wins = (s == search::Status::Win && or_node) || (s == search::Status::Loss && !or_node);
                set_solved(node, attacker_wins, false);
                return;
            }
            if (game_.repetition_draws() && is_repetition(ply)) {
                set_solved(node, false, true);
                return;
            }
        }
        if (context_.game_plies_left > 0 && context_.root_ply + ply >= context_.game_plies_left) {
            set_solved(node, false, true);
            return;
        }
        // Not at the root: its proving move must come from its children. Proofs only without a
        // game-length rule: one found with more plies left need not hold with fewer.
        if (table_ && !is_root) {
            const Verdict v = table_->probe(goal_key(game_.key(pos), or_node));
            if (v == Verdict::Disproven || (v == Verdict::Proven && context_.game_plies_left == 0)) {
                set_solved(node, v == Verdict::Proven, false);
                return;
            }
        }
        set_leaf_numbers(game_, pos, or_node, init_, node.pn, node.dn);
    }

    // The position at `ply` of the current descent repeats one on the path (root, and the
    // first-level path above it, included), or one from the game twice.
    bool is_repetition(int ply) const {
        return repeats({keys_.data(), path_start_ + static_cast<std::size_t>(ply) + 1}, history_size_);
    }

    // Recomputes the numbers of the expanded node and of its ancestors up to the root.
    void update(std::uint32_t index, int ply) {
        for (;;) {
            recompute(index, is_or(ply));
            const TreeNode& n = nodes_[index];
            // A disproof that rests on no draw of the path holds anywhere; a proof only when
            // no game-length rule can cut it short.
            if (table_ && n.solved() && !n.path_dependent && (n.dn == 0 || context_.game_plies_left == 0))
                table_->store(goal_key(keys_[path_start_ + static_cast<std::size_t>(ply)], is_or(ply)), n.pn == 0);
            if (index == 0) break;
            index = n.parent;
            --ply;
        }
    }

    // The numbers of an expanded node from its children's (combine, node_rules.hpp).
    void recompute(std::uint32_t index, bool or_node) {
        TreeNode& n = nodes_[index];
        if (!n.expanded()) return;
        const Combined c = combine(children(index), or_node);
        n.pn = c.pn;
        n.dn = c.dn;
        n.path_dependent = c.path_dependent;
    }

    const G& game_;
    SolvedTable* table_;
    LeafInit init_;
    Position root_{};
    bool root_is_or_ = true;
    TreeContext context_;
    std::vector<TreeNode> nodes_;
    std::vector<std::uint64_t> keys_;  // game history, path above, then one key per ply of the descent
    std::size_t history_size_ = 0;
    std::size_t path_start_ = 0;
};

}  // namespace solver
