// The tree of Monte Carlo tree search (mcts.hpp searches it): its nodes in one array under a
// memory cap, MCTS-Solver's backing up of proven results (Winands, Björnsson and Saito,
// "Monte-Carlo Tree Search Solver", CG 2008), the move to play and the principal variation, and
// the reuse of a subtree from one move of a game to the next. No game type appears here.
//
// The tree is a tree of paths, not a graph of positions: a node's value is exact for the line
// that reaches it, so a draw by repetition (the third occurrence of a position with the same
// side to move, counting the game before the root) or by the game's ply limit is a proven draw
// of that node, and no proof leans on a transposition (the graph-history interaction problem
// does not arise). The rules' own results come from the game's status(); the search counts
// repetitions and plies itself, as the alpha-beta core does.
//
// A proven node: Win or Loss for its side to move, with the plies to the end of the proof found
// (a win is proven by its first losing child and not searched further, so a shorter win may
// exist: the plies are an upper bound on the shortest win, and the loss's are the longest among
// the proofs found); Draw. A node is a proven Win when one child is a proven
// Loss (for the child's side to move), a proven Loss when every child is a proven Win, and a
// proven Draw when every child is proven and the best of them is a draw. Without the solver
// switch only the game's end positions are known, and nothing is backed up.
#pragma once

#include <algorithm>
#include <atomic>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <thread>
#include <vector>

#include "common/search/game.hpp"
#include "common/search/score.hpp"

namespace mcts {

enum class Proof : std::uint8_t { Unknown, Win, Loss, Draw };  // for the node's side to move

// The tree's lock: a spin lock, since its critical sections (a descent, a back-up) last a few
// microseconds, less than a sleeping mutex takes to wake a waiter. A waiter that has spun long
// yields its core, in case the holder is waiting for it (more threads than cores).
class TreeLock {
public:
    void lock() {
        for (int spins = 0; locked_.exchange(true, std::memory_order_acquire);) {
            while (locked_.load(std::memory_order_relaxed)) {
                if (spins < 1000) {
                    ++spins;
#if defined(__x86_64__) || defined(__i386__)
                    __builtin_ia32_pause();
#endif
                } else {
                    std::this_thread::yield();
                }
            }
        }
    }
    void unlock() { locked_.store(false, std::memory_order_release); }

private:
    std::atomic<bool> locked_{false};
};

template <class Move>
struct Node {
    Move move = Move::none();       // the move that reached this node
    std::uint32_t first_child = 0;  // children are contiguous in the tree's array
    std::uint32_t child_count = 0;
    bool expanded = false;
    Proof proof = Proof::Unknown;
    std::uint16_t proof_plies = 0;  // plies to the end of a proven Win or Loss
    std::uint32_t visits = 0;
    float prior = 0;   // the move's realization probability (progressive bias); fills the padding before `value`
    double value = 0;  // sum of play-out results for the side that made `move`

    bool proven() const { return proof != Proof::Unknown; }
};

// A search's root and the game before it: what a node's values depend on besides its moves.
template <class Position>
struct RootLine {
    const Position& position;
    std::span<const std::uint64_t> history;  // the keys since the last irreversible move, oldest first, without the root
    int game_plies_left = 0;                 // the game's ply limit from the root (0: none)
};

template <search::Game G>
class Tree {
public:
    using Position = typename G::Position;
    using Move = typename G::Move;
    using Node = mcts::Node<Move>;
    // The tree's memory is counted at 32 bytes a node (mcts_tree, table_memory_mb).
    static_assert(sizeof(Move) > 2 || sizeof(Node) == 32, "a node of a game with 2-byte moves is 32 bytes");

    // The whole cap at once: untouched pages cost nothing, and a vector that doubled would
    // hold its old and new blocks together, half as much again as the cap.
    explicit Tree(int tree_mb) : cap_(cap_of(tree_mb)) { nodes_.reserve(cap_); }

    std::size_t size() const { return nodes_.size(); }
    bool empty() const { return nodes_.empty(); }
    Node& operator[](std::uint32_t i) { return nodes_[i]; }
    const Node& operator[](std::uint32_t i) const { return nodes_[i]; }
    Node& root() { return nodes_.front(); }
    const Node& root() const { return nodes_.front(); }

    // Whether `count` more nodes fit under the cap.
    bool fits(std::size_t count) const { return !(nodes_.size() + count > cap_); }
    // Full for a depth-limited search: no room for a leaf's children any more.
    bool full() const { return nodes_.size() + 64 > cap_; }
    // The tree's share of its cap, in thousandths.
    int hashfull() const { return static_cast<int>(std::min<std::size_t>(1000, 1000 * nodes_.size() / cap_)); }

    void clear() { nodes_.clear(); }
    // A new tree of a root alone, within the capacity the constructor reserved.
    void restart() {
        nodes_.clear();
        nodes_.push_back(Node{});
    }
    void add(const Node& node) { nodes_.push_back(node); }

    // MCTS-Solver's rule at an expanded node from its children's proofs.
    void prove_from_children(Node& node) { prove(node, &nodes_[node.first_child], node.child_count); }

    // The move to play at `at`: a proven win (the shortest), else the most visited child that is
    // not a proven loss, else (every move loses) the longest loss.
    std::uint32_t best_child(std::uint32_t at) const {
        const Node& p = nodes_[at];
        std::uint32_t best = p.first_child;
        auto rank = [&](const Node& c) {
            // Higher is better: proven wins by fewest plies, then unproven/drawn by visits, then
            // proven losses by most plies.
            if (c.proof == Proof::Loss) return 3e12 - c.proof_plies;
            if (c.proof == Proof::Win) return -3e12 + c.proof_plies;
            return static_cast<double>(c.visits) + (c.visits ? c.value / c.visits * 1e-3 : 0);
        };
        for (std::uint32_t c = p.first_child + 1; c < p.first_child + p.child_count; ++c)
            if (rank(nodes_[c]) > rank(nodes_[best])) best = c;
        return best;
    }

    // The principal variation (most visited children, proofs first) from the root: its moves
    // into `moves` (when given) and the node it ends at.
    std::uint32_t principal_variation(std::vector<Move>* moves) const {
        std::uint32_t at = 0;
        for (int ply = 0; nodes_[at].expanded && ply < search::MaxPly; ++ply) {
            const std::uint32_t next = best_child(at);
            if (nodes_[next].visits == 0 && !nodes_[next].proven()) break;
            if (moves) moves->push_back(nodes_[next].move);
            at = next;
        }
        return at;
    }
    bool pv_ends_proven() const { return nodes_[principal_variation(nullptr)].proven(); }

    // Tree reuse: when `to`'s root is a child or grandchild of `from`'s (the last search's) in
    // the tree, and the game before it is `from`'s line (the history is the old one extended
    // by the moves played, or what follows an irreversible move among them, and the game's ply
    // limit is as many plies nearer), the subtree becomes the tree: each node's visits, values
    // and proofs were computed under this same line. False (the caller starts afresh) otherwise.
    bool reuse(const G& game, const RootLine<Position>& from, const RootLine<Position>& to) {
        std::vector<Move> moves;
        std::vector<std::uint64_t> line;
        const std::uint32_t found = find_root(game, from.position, to.position, moves, line);
        // A proven leaf is a game the rules have ended (a repetition, the ply limit): no search.
        if (!found || (nodes_[found].proven() && !nodes_[found].expanded)) return false;
        const int plies = static_cast<int>(moves.size());
        const bool same_limit = from.game_plies_left > 0 ? to.game_plies_left == from.game_plies_left - plies
                                                         : to.game_plies_left == 0;
        if (!same_limit || !continues(game, from.history, moves, line, to.history)) return false;
        compact_to(found);
        return true;
    }

private:
    static std::size_t cap_of(int tree_mb) {
        // Node indices are 32-bit: the cap never goes beyond them.
        const std::size_t by_memory = static_cast<std::size_t>(tree_mb) * 1024 * 1024 / sizeof(Node);
        return std::max<std::size_t>(1, std::min<std::size_t>(by_memory, std::numeric_limits<std::uint32_t>::max()));
    }

    static void prove(Node& node, const Node* children, int count) {
        bool all_proven = true, any_draw = false;
        int shortest_win = std::numeric_limits<int>::max(), longest_loss = 0;
        for (int i = 0; i < count; ++i) {
            const Node& c = children[i];
            if (c.proof == Proof::Loss) shortest_win = std::min(shortest_win, 1 + c.proof_plies);
            else if (c.proof == Proof::Win) longest_loss = std::max(longest_loss, 1 + c.proof_plies);
            else if (c.proof == Proof::Draw) any_draw = true;
            else all_proven = false;
        }
        if (shortest_win != std::numeric_limits<int>::max()) {
            node.proof = Proof::Win;
            node.proof_plies = static_cast<std::uint16_t>(std::min(shortest_win, 65535));
        } else if (all_proven) {
            node.proof = any_draw ? Proof::Draw : Proof::Loss;
            node.proof_plies = any_draw ? 0 : static_cast<std::uint16_t>(std::min(longest_loss, 65535));
        }
    }

    // The node of `root` one or two plies below `old_root` (0: none), the moves to it into
    // `moves`, and the keys of the positions before each of them into `line`.
    std::uint32_t find_root(const G& game, const Position& old_root, const Position& root, std::vector<Move>& moves,
                            std::vector<std::uint64_t>& line) const {
        const std::uint64_t key = game.key(root);
        auto is_root = [&](const Position& p) {
            if constexpr (std::equality_comparable<Position>) return game.key(p) == key && p == root;
            else return game.key(p) == key;
        };
        const Node& top = nodes_.front();
        for (std::uint32_t c = top.first_child; top.expanded && c < top.first_child + top.child_count; ++c) {
            Position one = old_root;
            game.make(one, nodes_[c].move);
            if (is_root(one)) {
                moves = {nodes_[c].move}, line = {game.key(old_root)};
                return c;
            }
            const Node& child = nodes_[c];
            for (std::uint32_t g = child.first_child; child.expanded && g < child.first_child + child.child_count; ++g) {
                Position two = one;
                game.make(two, nodes_[g].move);
                if (is_root(two)) {
                    moves = {child.move, nodes_[g].move}, line = {game.key(old_root), game.key(one)};
                    return g;
                }
            }
        }
        return 0;
    }

    // Whether `history` is the game before the new root: the old history and the line, or (the
    // game may cut it there) the line's positions after its last irreversible move, which no
    // later position repeats.
    static bool continues(const G& game, std::span<const std::uint64_t> old_history, const std::vector<Move>& moves,
                          const std::vector<std::uint64_t>& line, std::span<const std::uint64_t> history) {
        std::vector<std::uint64_t> whole(old_history.begin(), old_history.end());
        whole.insert(whole.end(), line.begin(), line.end());
        if (std::ranges::equal(history, whole)) return true;
        for (std::size_t i = moves.size(); i-- > 0;)
            if (game.is_irreversible(moves[i])) return std::ranges::equal(history, std::span(line).subspan(i + 1));
        return false;
    }

    // Keeps only the subtree under `top`, which becomes node 0. Children are stored after their
    // parent, so `top` has the subtree's least index, and numbering the kept nodes in their old
    // order moves each to an index no higher than its own: the move is done in place, each
    // child block staying contiguous.
    void compact_to(std::uint32_t top) {
        constexpr std::uint32_t Dropped = std::numeric_limits<std::uint32_t>::max();
        std::vector<std::uint32_t> index(nodes_.size(), Dropped);
        std::vector<std::uint32_t> stack = {top};
        while (!stack.empty()) {
            const std::uint32_t at = stack.back();
            stack.pop_back();
            index[at] = 0;
            const Node& n = nodes_[at];
            if (n.expanded)
                for (std::uint32_t c = n.first_child; c < n.first_child + n.child_count; ++c) stack.push_back(c);
        }
        std::uint32_t next = 0;
        for (std::uint32_t i = top; i < nodes_.size(); ++i)
            if (index[i] != Dropped) index[i] = next++;
        for (std::uint32_t i = top; i < nodes_.size(); ++i) {
            if (index[i] == Dropped) continue;
            Node n = nodes_[i];
            if (n.expanded) n.first_child = index[n.first_child];
            nodes_[index[i]] = n;
        }
        nodes_.resize(next);
        nodes_.front().move = Move::none();
    }

    std::vector<Node> nodes_;  // with threads, read and written under the search's TreeLock
    std::size_t cap_;
};

}  // namespace mcts
