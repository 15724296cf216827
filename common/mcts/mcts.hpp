// Monte Carlo tree search on the shared game contract (common/search/game.hpp), beside the
// alpha-beta core: UCT selection, MCTS-Solver back-propagation of proven results (Winands,
// Björnsson and Saito, "Monte-Carlo Tree Search Solver", CG 2008), and play-outs that are
// random or cut off by the evaluation. No game type appears here.
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
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <vector>

#include "common/mcts/config.hpp"
#include "common/search/game.hpp"
#include "common/search/limits.hpp"
#include "common/search/score.hpp"
#include "common/search/search.hpp"

namespace mcts {

enum class Proof : std::uint8_t { Unknown, Win, Loss, Draw };  // for the node's side to move

template <search::Game G>
class Mcts {
public:
    using Position = typename G::Position;
    using Move = typename G::Move;
    using MoveList = typename G::MoveList;
    using Result = search::SearchResult<Move>;
    using IterationCallback = std::function<void(const search::Iteration<Move>&)>;

    Mcts(G game, MctsConfig config) : game_(std::move(game)), config_(config) {}

    // Searches `root` (a position where the game goes on) until limits.nodes play-outs,
    // limits.hard_time_ms, limits.stop, or a proven root. `history`: the keys of the game's
    // earlier positions since the last irreversible move, oldest first, without the root.
    // Reports: nodes = play-outs; depth = the principal variation's length; score = the root's
    // proven result (win_in / loss_in plies, or a draw), else the mean play-out value as
    // evaluation units; one report each time the play-outs double.
    Result search(const Position& root, const search::SearchLimits& limits, std::span<const std::uint64_t> history = {},
                  const IterationCallback& on_iteration = {}) {
        start(root, limits, history);
        Result result;
        std::uint64_t next_report = 64;
        // The root is expanded whatever the tree's cap, so that a move can always be named.
        if (!expand(0, root_, 0, /*ignore_cap=*/true)) return result;  // no move at all: not a game position
        while (!(config_.solver && root_node().proven())) {
            if (limits.nodes && playouts_ >= limits.nodes) break;
            if (playouts_ >= MaxPlayouts) break;  // node visit counts are 32-bit
            if (limits.stop && limits.stop->load(std::memory_order_relaxed)) break;
            if (limits.hard_time_ms > 0 && clock_.elapsed_ms() >= limits.hard_time_ms) break;
            if (limits.soft_time_ms > 0 && clock_.elapsed_ms() >= limits.soft_time_ms) break;
            if (limits.timer && limits.timer->must_stop(clock_.elapsed_ms())) break;
            iterate();
            if (on_iteration && playouts_ >= next_report) {
                on_iteration(report());
                next_report *= 2;
            }
        }
        const search::Iteration<Move> last = report();
        if (on_iteration) on_iteration(last);
        result.best_move = last.pv.empty() ? Move::none() : last.pv.front();
        result.score = last.score;
        result.depth = last.depth;
        result.pv = last.pv;
        result.stats.nodes = playouts_;
        result.stats.depth = last.depth;
        result.stats.seldepth = max_depth_;
        result.stats.time_ms = clock_.elapsed_ms();
        result.iterations.push_back(last);
        return result;
    }

    // The root's proof after the last search (Unknown unless the solver proved it).
    Proof root_proof() const { return nodes_.empty() ? Proof::Unknown : nodes_.front().proof; }
    // Plies to the end of a proven Win or Loss of the root.
    int root_proof_plies() const { return nodes_.empty() ? 0 : nodes_.front().proof_plies; }
    std::size_t tree_nodes() const { return nodes_.size(); }
    std::uint64_t playouts() const { return playouts_; }

private:
    struct Node {
        Move move = Move::none();       // the move that reached this node
        std::uint32_t first_child = 0;  // children are contiguous in nodes_
        std::uint32_t child_count = 0;
        bool expanded = false;
        Proof proof = Proof::Unknown;
        std::uint16_t proof_plies = 0;  // plies to the end of a proven Win or Loss
        std::uint32_t visits = 0;
        double value = 0;  // sum of play-out results for the side that made `move`

        bool proven() const { return proof != Proof::Unknown; }
    };

    Node& root_node() { return nodes_.front(); }
    const Node& root_node() const { return nodes_.front(); }

    static constexpr std::uint64_t MaxPlayouts = 4'000'000'000;

    void start(const Position& root, const search::SearchLimits& limits, std::span<const std::uint64_t> history) {
        clock_ = search::Stopwatch();
        limits_ = limits;
        root_ = root;
        history_.assign(history.begin(), history.end());
        keys_.assign(history_.begin(), history_.end());
        keys_.push_back(game_.key(root));
        nodes_.clear();
        nodes_.reserve(std::min<std::size_t>(config_.max_tree_nodes, 1 << 16));
        nodes_.push_back(Node{});
        playouts_ = 0;
        max_depth_ = 0;
        rng_ = config_.seed ? config_.seed : 1;
    }

    // One selection, expansion, play-out and back-propagation.
    void iterate() {
        Position pos = root_;
        std::vector<std::uint32_t>& path = path_;  // a member: no allocation per play-out
        path.assign(1, 0);
        keys_.assign(history_.begin(), history_.end());
        keys_.push_back(game_.key(pos));
        std::uint32_t at = 0;
        while (nodes_[at].expanded && !nodes_[at].proven()) {
            at = select(at);
            game_.make(pos, nodes_[at].move);
            keys_.push_back(game_.key(pos));
            path.push_back(at);
        }
        if (!nodes_[at].proven() && !nodes_[at].expanded && expand(at, pos, static_cast<int>(path.size()) - 1)) {
            // A first visit of one of the new children, chosen at random among them.
            const Node& leaf = nodes_[at];
            at = leaf.first_child + static_cast<std::uint32_t>(random_below(leaf.child_count));
            game_.make(pos, nodes_[at].move);
            keys_.push_back(game_.key(pos));
            path.push_back(at);
        }
        max_depth_ = std::max(max_depth_, static_cast<int>(path.size()) - 1);
        // The result for the side to move at the leaf.
        double r = 0.5;
        switch (nodes_[at].proof) {
            case Proof::Win: r = 1; break;
            case Proof::Loss: r = 0; break;
            case Proof::Draw: r = 0.5; break;
            case Proof::Unknown: r = playout(pos, static_cast<int>(path.size()) - 1); break;
        }
        ++playouts_;
        for (std::size_t i = path.size(); i-- > 0;) {
            Node& node = nodes_[path[i]];
            ++node.visits;
            node.value += 1 - r;  // for the side that made the node's move
            r = 1 - r;
            if (config_.solver && !node.proven() && node.expanded) prove_from_children(node);
        }
    }

    // UCT over the children that are not proven wins for their side to move (a losing move for
    // the parent), unless every child is one; an unvisited child first.
    std::uint32_t select(std::uint32_t parent) {
        const Node& p = nodes_[parent];
        const double log_visits = std::log(static_cast<double>(std::max<std::uint32_t>(p.visits, 1)));
        std::uint32_t best = p.first_child;
        double best_value = -std::numeric_limits<double>::infinity();
        for (std::uint32_t c = p.first_child; c < p.first_child + p.child_count; ++c) {
            const Node& child = nodes_[c];
            if (config_.solver && child.proof == Proof::Win) continue;
            if (child.visits == 0) return c;
            const double mean = child.value / child.visits;
            const double uct = mean + config_.exploration * std::sqrt(log_visits / child.visits);
            if (uct > best_value) best_value = uct, best = c;
        }
        return best;
    }

    // Adds the children of `at` (at `ply` from the root), each checked against the rules, the
    // repetition rule and the ply limit. False when the tree is full (the leaf stays a leaf).
    bool expand(std::uint32_t at, const Position& pos, int ply, bool ignore_cap = false) {
        MoveList moves;
        game_.generate(pos, moves);
        // Node indices are 32-bit: the cap never goes beyond them.
        const std::size_t cap = std::min<std::size_t>(config_.max_tree_nodes, std::numeric_limits<std::uint32_t>::max());
        if (moves.size() == 0 || (!ignore_cap && nodes_.size() + moves.size() > cap)) return false;
        const auto first = static_cast<std::uint32_t>(nodes_.size());
        for (const Move m : moves) {
            Node child;
            child.move = m;
            Position next = pos;
            game_.make(next, m);
            child.proof = proof_of_position(next, ply + 1);
            nodes_.push_back(child);
        }
        Node& node = nodes_[at];
        node.first_child = first;
        node.child_count = static_cast<std::uint32_t>(moves.size());
        node.expanded = true;
        if (config_.solver) prove_from_children(node);
        return true;
    }

    // What the rules say of a position just reached at `ply` from the root (keys_ holds the
    // path up to its parent): the game's result, else a draw by the third occurrence or by the
    // game's length, else Unknown.
    Proof proof_of_position(const Position& pos, int ply) const {
        switch (game_.status(pos)) {
            case search::Status::Win: return Proof::Win;
            case search::Status::Loss: return Proof::Loss;
            case search::Status::Draw: return Proof::Draw;
            case search::Status::Ongoing: break;
        }
        if (game_.repetition_draws()) {
            const std::uint64_t key = game_.key(pos);
            int earlier = 0;
            for (const std::uint64_t k : keys_) earlier += k == key;
            if (earlier >= 2) return Proof::Draw;
        }
        if (limits_.game_plies_left > 0 && ply >= limits_.game_plies_left) return Proof::Draw;
        return Proof::Unknown;
    }

    // MCTS-Solver's rule at an expanded node from its children's proofs.
    static void prove_node(Node& node, const Node* children, int count) {
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

    void prove_from_children(Node& node) { prove_node(node, &nodes_[node.first_child], node.child_count); }

    // A play-out from `pos` (at `ply` from the root); its result for pos's side to move.
    double playout(Position pos, int ply) {
        const int cutoff = config_.playout == Playout::EvalCutoff ? config_.cutoff_plies : config_.max_playout_plies;
        MoveList moves;
        for (int plies = 0;; ++plies) {
            // The result, from the side to move at this point, turned into the leaf's view.
            auto for_leaf = [&](double r) { return plies % 2 == 0 ? r : 1 - r; };
            if (plies > 0) {
                switch (game_.status(pos)) {
                    case search::Status::Win: return for_leaf(1);
                    case search::Status::Loss: return for_leaf(0);
                    case search::Status::Draw: return 0.5;
                    case search::Status::Ongoing: break;
                }
            }
            if (limits_.game_plies_left > 0 && ply + plies >= limits_.game_plies_left) return 0.5;
            if (plies >= cutoff) return for_leaf(win_probability(game_.evaluate(pos)));
            moves.clear();  // generate() appends
            game_.generate(pos, moves);
            if (moves.size() == 0) return 0.5;  // a game with neither a move nor a pass: not LOA
            game_.make(pos, moves[static_cast<std::size_t>(random_below(static_cast<std::uint32_t>(moves.size())))]);
        }
    }

    double win_probability(search::Score eval) const {
        return 1.0 / (1.0 + std::exp(-static_cast<double>(eval) / config_.eval_scale));
    }

    // The principal variation (most visited children, proofs first) and the root's score.
    search::Iteration<Move> report() const {
        search::Iteration<Move> it;
        std::uint32_t at = 0;
        while (nodes_[at].expanded && it.pv.size() < static_cast<std::size_t>(search::MaxPly)) {
            const std::uint32_t next = best_child(at);
            if (nodes_[next].visits == 0 && !nodes_[next].proven()) break;
            it.pv.push_back(nodes_[next].move);
            at = next;
        }
        if (it.pv.empty() && root_node().expanded) it.pv.push_back(nodes_[best_child(0)].move);
        const Node& root = root_node();
        const int plies = std::min<int>(root.proof_plies, search::MaxPly);
        if (root.proof == Proof::Win) it.score = search::win_in(plies);
        else if (root.proof == Proof::Loss) it.score = search::loss_in(plies);
        else if (root.proof == Proof::Draw) it.score = search::DrawScore;
        else it.score = mean_as_score(root);
        it.depth = static_cast<int>(it.pv.size());
        it.seldepth = max_depth_;
        it.nodes = playouts_;
        it.time_ms = clock_.elapsed_ms();
        it.hashfull = static_cast<int>(1000 * nodes_.size() / std::max<std::size_t>(config_.max_tree_nodes, 1));
        return it;
    }

    // The root's mean result for its side to move as evaluation units (the logistic inverse).
    search::Score mean_as_score(const Node& root) const {
        if (root.visits == 0) return 0;
        const double mean_for_mover = root.value / root.visits;  // the side that moved into the root
        const double q = std::clamp(1 - mean_for_mover, 1e-4, 1 - 1e-4);
        const double eval = config_.eval_scale * std::log(q / (1 - q));
        return static_cast<search::Score>(std::clamp(eval, -static_cast<double>(search::EvalLimit), static_cast<double>(search::EvalLimit)));
    }

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

    // xorshift64*: a seeded stream, so that a search with a play-out budget repeats exactly.
    std::uint32_t random_below(std::uint32_t n) {
        rng_ ^= rng_ >> 12;
        rng_ ^= rng_ << 25;
        rng_ ^= rng_ >> 27;
        const std::uint64_t x = rng_ * 0x2545F4914F6CDD1DULL;
        return static_cast<std::uint32_t>((x >> 32) % n);
    }

    G game_;
    MctsConfig config_;
    search::SearchLimits limits_;
    search::Stopwatch clock_;
    Position root_{};
    std::vector<std::uint64_t> history_;
    std::vector<std::uint64_t> keys_;  // history, then the keys of the current path
    std::vector<Node> nodes_;
    std::vector<std::uint32_t> path_;  // the nodes of the current iteration, root first
    std::uint64_t playouts_ = 0;
    int max_depth_ = 0;
    std::uint64_t rng_ = 1;
};

}  // namespace mcts
