// Monte Carlo tree search on the shared game contract (common/search/game.hpp), beside the
// alpha-beta core: UCT selection, MCTS-Solver back-propagation of proven results (Winands,
// Björnsson and Saito, "Monte-Carlo Tree Search Solver", CG 2008), play-outs that are random,
// cut off by the evaluation, or chosen move by move by shallow searches of the alpha-beta core
// (MC-LOAαβ), and tree reuse from one move of a game to the next. No game type appears here.
//
// The tree is a tree of paths, not a graph of positions: a node's value is exact for the line
// that reaches it, so a draw by repetition (the third occurrence of a position with the same
// side to move, counting the game before the root) or by the game's ply limit is a proven draw
// of that node, and no proof leans on a transposition (the graph-history interaction problem
// does not arise). The rules' own results come from the game's status(); the search counts
// repetitions and plies itself, as the alpha-beta core does.
//
// Threads: tree parallelisation with one lock and virtual loss (Chaslot, Winands and van den
// Herik, "Parallel Monte-Carlo Tree Search", CG 2008). Each thread selects and expands under the
// tree's lock, counting a visit without a result on every node of its path (a virtual loss for
// the side that moved into it) so that the next thread is steered elsewhere, plays out without
// the lock, and backs the result up under it. One lock is enough where a play-out costs much
// more than a descent (random and alpha-beta play-outs); the measurements: docs/mcts.md. One
// thread takes no lock and counts no virtual loss: its search is the deterministic one.
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
#include <concepts>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

#include "common/error.hpp"
#include "common/mcts/config.hpp"
#include "common/search/game.hpp"
#include "common/search/limits.hpp"
#include "common/search/score.hpp"
#include "common/search/search.hpp"

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

template <search::Game G>
class Mcts {
public:
    using Position = typename G::Position;
    using Move = typename G::Move;
    using MoveList = typename G::MoveList;
    using Result = search::SearchResult<Move>;
    using IterationCallback = std::function<void(const search::Iteration<Move>&)>;

    static constexpr int MaxThreads = 64;

    // Throws common::InputError when the configuration needs knowledge the game lacks, or for
    // a thread count outside 1..MaxThreads. The tree's cap is reserved here, so that a cap the
    // machine cannot give fails when the searcher is built (std::bad_alloc), not in the middle
    // of a search.
    Mcts(G game, MctsConfig config, int threads = 1) : game_(std::move(game)), config_(config) {
        if (uses_move_knowledge() && move_probabilities().empty())
            throw common::InputError(
                "mcts_bias and playout=weighted need the game's realization probabilities (in LOA: rps=FILE)");
        if (threads < 1 || threads > MaxThreads)
            throw common::InputError("MCTS threads must be within 1.." + std::to_string(MaxThreads));
        // Each thread its own game (evaluation state), position, path and random stream; the
        // first one's stream is the single-threaded search's.
        for (int i = 0; i < threads; ++i) {
            Worker& w = workers_.emplace_back(game_);
            w.main = i == 0;
            w.rng = worker_seed(static_cast<std::size_t>(i));
        }
        virtual_loss_ = threads > 1;
        // The whole cap at once: untouched pages cost nothing, and a vector that doubled would
        // hold its old and new blocks together, half as much again as the cap.
        nodes_.reserve(node_cap());
    }

    // Searches `root` (a position where the game goes on) until limits.nodes play-outs,
    // limits.hard_time_ms, the timer (must_stop or anytime_stop, asked at every play-out; each
    // report goes to its anytime_report), limits.depth (the first report whose PV is that
    // long, or whose tree is full), limits.stop, or a proven root. `history`: the keys of the
    // game's earlier positions since the last irreversible move, oldest first, without the root.
    // Reports: nodes = play-outs; depth = the principal variation's length; score = the root's
    // proven result (win_in / loss_in plies, or a draw), else the mean play-out value as
    // evaluation units; one report each time the play-outs double (from 64), the alpha-beta
    // core's iterations. An anytime search has no iteration to finish: soft_time_ms, the time
    // after which the core starts no new iteration, means nothing here.
    Result search(const Position& root, const search::SearchLimits& limits, std::span<const std::uint64_t> history = {},
                  const IterationCallback& on_iteration = {}) {
        if (!limits.excluded_root_moves.empty())
            throw std::invalid_argument("MCTS searches every root move (MultiPV is an alpha-beta search's)");
        start(root, limits, history);
        Result result;
        // The root is expanded whatever the tree's cap, so that a move can always be named.
        if (!root_node().expanded && !expand(main_worker(), 0, root_, 0, /*ignore_cap=*/true))
            return result;  // no move: not a game position
        if (workers_.size() == 1) {
            run_main(main_worker(), on_iteration);
        } else {
            // A helper's exception is kept for the caller (escaping its thread would end the
            // program); the tree it leaves, with its virtual losses, is not reused.
            std::vector<std::exception_ptr> errors(workers_.size());
            {
                std::vector<std::jthread> helpers;
                try {
                    for (std::size_t i = 1; i < workers_.size(); ++i)
                        helpers.emplace_back([this, i, &errors] {
                            try {
                                run_helper(workers_[i]);
                            } catch (...) {
                                errors[i] = std::current_exception();
                                done_.store(true);
                            }
                        });
                    run_main(main_worker(), on_iteration);
                } catch (...) {
                    done_.store(true);
                    have_tree_ = false;
                    throw;  // the helpers are joined on the way out
                }
                done_.store(true);
            }
            for (const std::exception_ptr& e : errors)
                if (e) {
                    have_tree_ = false;
                    std::rethrow_exception(e);
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

    // Forgets the tree (the next search starts a new one).
    void new_game() {
        nodes_.clear();
        have_tree_ = false;
    }

    // The nodes the last search started from (more than one when it reused a subtree).
    std::size_t reused_nodes() const { return reused_nodes_; }

    // The root's proof after the last search (Unknown unless the solver proved it).
    Proof root_proof() const { return nodes_.empty() ? Proof::Unknown : nodes_.front().proof; }
    // Plies to the end of a proven Win or Loss of the root.
    int root_proof_plies() const { return nodes_.empty() ? 0 : nodes_.front().proof_plies; }
    std::size_t tree_nodes() const { return nodes_.size(); }
    std::uint64_t playouts() const { return playouts_; }
    // The root's visits: the play-outs through it, the reused ones included (no virtual loss
    // survives a search).
    std::uint32_t root_visits() const { return nodes_.empty() ? 0 : nodes_.front().visits; }
    int threads() const { return static_cast<int>(workers_.size()); }

private:
    struct Node {
        Move move = Move::none();       // the move that reached this node
        std::uint32_t first_child = 0;  // children are contiguous in nodes_
        std::uint32_t child_count = 0;
        bool expanded = false;
        Proof proof = Proof::Unknown;
        std::uint16_t proof_plies = 0;  // plies to the end of a proven Win or Loss
        std::uint32_t visits = 0;
        float prior = 0;   // the move's realization probability (progressive bias); fills the padding before `value`
        double value = 0;  // sum of play-out results for the side that made `move`

        bool proven() const { return proof != Proof::Unknown; }
    };
    // The tree's memory is counted at 32 bytes a node (mcts_tree, table_memory_mb).
    static_assert(sizeof(Move) > 2 || sizeof(Node) == 32, "a node of a game with 2-byte moves is 32 bytes");

    // What each thread needs of its own: the game (its evaluation's state), the position of the
    // current iteration, its path and keys, and its random stream.
    struct Worker {
        explicit Worker(const G& g) : game(g) {}
        G game;
        bool main = true;  // the first thread: reads the clock and the timer, reports, decides the stop
        Position pos{};
        std::vector<std::uint64_t> keys;   // history, then the keys of the current path
        std::vector<std::uint32_t> path;   // the nodes of the current iteration, root first
        std::vector<double> weights;       // cumulative move weights of a weighted play-out
        std::unique_ptr<search::Searcher<G>> playout_searcher;  // playout=ab
        std::uint64_t rng = 1;
    };

    Node& root_node() { return nodes_.front(); }
    const Node& root_node() const { return nodes_.front(); }
    Worker& main_worker() { return workers_.front(); }
    std::uint64_t seed() const { return config_.seed ? config_.seed : 1; }
    std::uint64_t worker_seed(std::size_t i) const {
        const std::uint64_t s = i == 0 ? seed() : seed() ^ (0x9E3779B97F4A7C15ULL * i);
        return s ? s : 1;  // xorshift's stream never leaves 0
    }
    // The tree's lock, taken only when threads share the tree.
    std::unique_lock<TreeLock> lock_tree() {
        return virtual_loss_ ? std::unique_lock<TreeLock>(tree_lock_) : std::unique_lock<TreeLock>();
    }

    static constexpr std::uint32_t MaxPlayouts = 4'000'000'000;
    static constexpr std::uint32_t NoNode = std::numeric_limits<std::uint32_t>::max();
    // A depth limit without a play-out limit ends here at the latest (seconds of cut-off
    // play-outs, minutes of searched ones): the PV's length is no budget.
    static constexpr std::uint64_t DepthPlayoutCap = 1u << 18;

    std::size_t node_cap() const {
        // Node indices are 32-bit: the cap never goes beyond them.
        const std::size_t by_memory = static_cast<std::size_t>(config_.tree_mb) * 1024 * 1024 / sizeof(Node);
        return std::max<std::size_t>(1, std::min<std::size_t>(by_memory, std::numeric_limits<std::uint32_t>::max()));
    }
    bool tree_full() const { return nodes_.size() + 64 > node_cap(); }
    bool pv_ends_proven() const { return nodes_[principal_variation(nullptr)].proven(); }
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
    // Whether the search must stop now (hard time, the timer, the stop flag): asked inside the
    // slow play-outs too, so that a move's searches cannot run past the clock. The helpers
    // follow the main thread's decision (done_): the timer is not theirs to ask.
    bool should_stop(const Worker& w) const { return done_.load(std::memory_order_relaxed) || (w.main && out_of_time()); }
    bool out_of_time() const {
        if (limits_.stop && limits_.stop->load(std::memory_order_relaxed)) return true;
        const double elapsed = clock_.elapsed_ms();
        if (limits_.hard_time_ms > 0 && elapsed >= limits_.hard_time_ms) return true;
        return limits_.timer && (limits_.timer->must_stop(elapsed) || limits_.timer->anytime_stop(elapsed));
    }

    void start(const Position& root, const search::SearchLimits& limits, std::span<const std::uint64_t> history) {
        clock_ = search::Stopwatch();
        const bool reused = config_.reuse && have_tree_ && reuse_subtree(root, limits, history);
        limits_ = limits;
        root_ = root;
        history_.assign(history.begin(), history.end());
        main_worker().keys.assign(history_.begin(), history_.end());
        main_worker().keys.push_back(game_.key(root));
        if (!reused) {
            nodes_.clear();
            nodes_.push_back(Node{});  // within the capacity the constructor reserved
        }
        reused_nodes_ = reused ? nodes_.size() : 0;
        have_tree_ = true;
        playouts_ = 0;
        started_ = 0;
        max_depth_ = 0;
        done_.store(false);
        // Each search's streams start from the seed (the helpers' too, though their order of
        // play-outs is not repeatable).
        for (std::size_t i = 0; i < workers_.size(); ++i) workers_[i].rng = worker_seed(i);
    }

    // Tree reuse: when `root` is a child or grandchild of the last search's root in its tree,
    // and the game before it is the last search's line (the history is the old one extended
    // by the moves played, or what follows an irreversible move among them, and the game's ply
    // limit is as many plies nearer), the subtree becomes the tree: each node's visits, values
    // and proofs were computed under this same line. False (the caller starts afresh) otherwise.
    bool reuse_subtree(const Position& root, const search::SearchLimits& limits, std::span<const std::uint64_t> history) {
        const std::uint64_t key = game_.key(root);
        auto is_root = [&](const Position& p) {
            if constexpr (std::equality_comparable<Position>) return game_.key(p) == key && p == root;
            else return game_.key(p) == key;
        };
        // The node of `root` one or two plies below the old root, the moves to it, and the keys
        // of the positions before each of them.
        std::uint32_t found = 0;
        std::vector<Move> moves;
        std::vector<std::uint64_t> line;
        const Node& old_root = nodes_.front();
        for (std::uint32_t c = old_root.first_child; old_root.expanded && !found && c < old_root.first_child + old_root.child_count; ++c) {
            Position one = root_;
            game_.make(one, nodes_[c].move);
            if (is_root(one)) {
                found = c, moves = {nodes_[c].move}, line = {game_.key(root_)};
                break;
            }
            const Node& child = nodes_[c];
            for (std::uint32_t g = child.first_child; child.expanded && g < child.first_child + child.child_count; ++g) {
                Position two = one;
                game_.make(two, nodes_[g].move);
                if (is_root(two)) {
                    found = g, moves = {child.move, nodes_[g].move}, line = {game_.key(root_), game_.key(one)};
                    break;
                }
            }
        }
        // A proven leaf is a game the rules have ended (a repetition, the ply limit): no search.
        if (!found || (nodes_[found].proven() && !nodes_[found].expanded)) return false;
        const int plies = static_cast<int>(moves.size());
        const bool same_limit = limits_.game_plies_left > 0 ? limits.game_plies_left == limits_.game_plies_left - plies
                                                            : limits.game_plies_left == 0;
        if (!same_limit) return false;
        // The history of this line: the old one and the line, or (the game may cut it there)
        // the line's positions after its last irreversible move, which no later position repeats.
        std::vector<std::uint64_t> whole(history_.begin(), history_.end());
        whole.insert(whole.end(), line.begin(), line.end());
        bool same = std::ranges::equal(history, whole);
        for (int i = plies - 1; i >= 0 && !same; --i)
            if (game_.is_irreversible(moves[static_cast<std::size_t>(i)])) {
                same = std::ranges::equal(history, std::span(line).subspan(static_cast<std::size_t>(i) + 1));
                break;
            }
        if (!same) return false;
        compact_to(found);
        return true;
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

    // The main thread's loop: iterations until a limit, reports each time the play-outs double.
    void run_main(Worker& w, const IterationCallback& on_iteration) {
        std::uint64_t next_report = 64;
        // done_: a helper failed (its exception ends the search) or a limit ended it.
        while (!done_.load(std::memory_order_relaxed) && !out_of_time()) {
            std::uint64_t finished = 0;
            if (!iterate(w, finished)) break;
            if (finished < next_report) continue;
            // Helpers' play-outs may have carried the count past several doublings: one report.
            while (next_report <= finished) next_report *= 2;
            search::Iteration<Move> it;
            bool complete = false;
            int root_moves = 0;
            {
                const auto lock = lock_tree();
                it = report();
                root_moves = static_cast<int>(root_node().child_count);
                // A PV that ends in a proven node (after enough play-outs that it is no accident
                // of the first ones), or a full tree, grows no longer; nor, in practice, a PV
                // after DepthPlayoutCap play-outs.
                complete = limits_.depth > 0 &&
                           (it.depth >= limits_.depth || (finished >= 1024 && pv_ends_proven()) || tree_full() ||
                            (!limits_.nodes && finished >= DepthPlayoutCap));
            }
            if (on_iteration) on_iteration(it);
            if (limits_.timer)
                limits_.timer->anytime_report({it.depth, it.score, it.pv.empty() ? std::uint16_t{0} : it.pv.front().raw(),
                                               root_moves, it.time_ms});
            if (complete) break;
        }
        done_.store(true);
    }

    // A helper's loop: iterations until the main thread or a limit ends the search.
    void run_helper(Worker& w) {
        std::uint64_t finished = 0;
        while (!done_.load(std::memory_order_relaxed) && iterate(w, finished)) {
        }
    }

    // One selection, expansion, play-out and back-propagation. False, with nothing done, when
    // the search is over: the play-out budget spent, the root proven or its visits at the cap.
    // `finished`: the play-outs backed up so far, this one included.
    bool iterate(Worker& w, std::uint64_t& finished) {
        Proof leaf = Proof::Unknown;
        {
            const auto lock = lock_tree();
            if (config_.solver && root_node().proven()) return false;
            if (limits_.nodes && started_ >= limits_.nodes) return false;
            if (root_node().visits >= MaxPlayouts) return false;  // visit counts are 32-bit (a reused root keeps its own)
            ++started_;
            leaf = descend(w);
        }
        // The leaf's result for its side to move: a proof, else a play-out (without the lock).
        double r = 0.5;
        switch (leaf) {
            case Proof::Win: r = 1; break;
            case Proof::Loss: r = 0; break;
            case Proof::Draw: r = 0.5; break;
            case Proof::Unknown: r = playout(w, w.pos, static_cast<int>(w.path.size()) - 1); break;
        }
        const auto lock = lock_tree();
        back_up(w, r);
        finished = ++playouts_;
        return true;
    }
    // Selection and expansion (under the tree's lock): w.pos, w.path and w.keys follow the line
    // from the root to the leaf; with threads, each node of the path counts the visit now (the
    // virtual loss). Returns the leaf's proof.
    Proof descend(Worker& w) {
        w.pos = root_;
        w.path.assign(1, 0);
        w.keys.assign(history_.begin(), history_.end());
        w.keys.push_back(w.game.key(w.pos));
        if (virtual_loss_) ++root_node().visits;
        auto step = [&](std::uint32_t to) {
            w.game.make(w.pos, nodes_[to].move);
            w.keys.push_back(w.game.key(w.pos));
            w.path.push_back(to);
            if (virtual_loss_) ++nodes_[to].visits;
        };
        std::uint32_t at = 0;
        while (nodes_[at].expanded && !nodes_[at].proven()) step(at = select(at));
        // The visits of the leaf with this one (counted already under virtual loss).
        const std::uint32_t visits = nodes_[at].visits + (virtual_loss_ ? 0 : 1);
        const bool expand_now = at == 0 || visits >= static_cast<std::uint32_t>(config_.expand_visits);
        if (!nodes_[at].proven() && !nodes_[at].expanded && expand_now &&
            expand(w, at, w.pos, static_cast<int>(w.path.size()) - 1)) {
            // A first visit of one of the new children: with progressive bias the most
            // probable, else one at random.
            const Node& leaf = nodes_[at];
            step(at = config_.bias_percent > 0 ? select(at) : leaf.first_child + static_cast<std::uint32_t>(random_below(w, leaf.child_count)));
        }
        max_depth_ = std::max(max_depth_, static_cast<int>(w.path.size()) - 1);
        return nodes_[at].proof;
    }

    // Back-propagation (under the tree's lock) of `r`, the result for the leaf's side to move.
    void back_up(const Worker& w, double r) {
        for (std::size_t i = w.path.size(); i-- > 0;) {
            Node& node = nodes_[w.path[i]];
            if (!virtual_loss_) ++node.visits;
            node.value += 1 - r;  // for the side that made the node's move
            r = 1 - r;
            // With threads, play-outs begun before a node was proven still come back through
            // it and may prove a shorter win below: its plies are worked out again (a proof's
            // value never changes, since its children's do not), so that they stay those of
            // the PV. One thread never descends into a proven node.
            if (config_.solver && node.expanded && (!node.proven() || virtual_loss_)) prove_from_children(node);
        }
    }

    // UCT over the children that are not proven wins for their side to move (a losing move for
    // the parent), unless every child is one; an unvisited child first.
    std::uint32_t select(std::uint32_t parent) {
        const Node& p = nodes_[parent];
        const double log_visits = std::log(static_cast<double>(std::max<std::uint32_t>(p.visits, 1)));
        const double bias = config_.bias_percent / 100.0;
        std::uint32_t best = p.first_child, unvisited = NoNode;
        double best_value = -std::numeric_limits<double>::infinity();
        for (std::uint32_t c = p.first_child; c < p.first_child + p.child_count; ++c) {
            const Node& child = nodes_[c];
            if (config_.solver && child.proof == Proof::Win) continue;
            if (child.visits == 0) {
                if (bias == 0) return c;
                if (unvisited == NoNode || child.prior > nodes_[unvisited].prior) unvisited = c;
                continue;
            }
            const double mean = child.value / child.visits;
            const double uct = mean + config_.exploration * std::sqrt(log_visits / child.visits) + bias * child.prior / (child.visits + 1);
            if (uct > best_value) best_value = uct, best = c;
        }
        return unvisited != NoNode ? unvisited : best;
    }

    // Move knowledge (progressive bias, weighted play-outs): the game's realization probability
    // of a move's category, floored so that no move is ruled out; a move without a category
    // (a forced pass) counts as certain.
    bool uses_move_knowledge() const { return config_.bias_percent > 0 || config_.playout == Playout::Weighted; }
    std::span<const double> move_probabilities() const {
        if constexpr (search::RealizationGame<G>) return game_.realization_probabilities();
        else return {};
    }
    static float move_prior(const G& game, const Position& pos, Move m) {
        if constexpr (search::RealizationGame<G>) {
            const int category = game.realization_category(pos, m);
            const auto p = game.realization_probabilities();
            if (category < 0 || static_cast<std::size_t>(category) >= p.size()) return 1.0f;
            return static_cast<float>(std::max(p[static_cast<std::size_t>(category)], 1e-3));
        } else {
            return 1.0f;
        }
    }

    // Adds the children of `at` (at `ply` from the root), each checked against the rules, the
    // repetition rule and the ply limit. False when the tree is full (the leaf stays a leaf).
    bool expand(Worker& w, std::uint32_t at, const Position& pos, int ply, bool ignore_cap = false) {
        MoveList moves;
        w.game.generate(pos, moves);
        if (moves.size() == 0 || (!ignore_cap && nodes_.size() + moves.size() > node_cap())) return false;
        const auto first = static_cast<std::uint32_t>(nodes_.size());
        for (const Move m : moves) {
            Node child;
            child.move = m;
            if (config_.bias_percent > 0) child.prior = move_prior(w.game, pos, m);
            Position next = pos;
            w.game.make(next, m);
            child.proof = proof_of_position(w, next, ply + 1);
            nodes_.push_back(child);
        }
        Node& node = nodes_[at];
        node.first_child = first;
        node.child_count = static_cast<std::uint32_t>(moves.size());
        node.expanded = true;
        if (config_.solver) prove_from_children(node);
        return true;
    }

    // What the rules say of a position just reached at `ply` from the root (w.keys holds the
    // path up to its parent): the game's result, else a draw by the third occurrence or by the
    // game's length, else Unknown.
    Proof proof_of_position(const Worker& w, const Position& pos, int ply) const {
        switch (w.game.status(pos)) {
            case search::Status::Win: return Proof::Win;
            case search::Status::Loss: return Proof::Loss;
            case search::Status::Draw: return Proof::Draw;
            case search::Status::Ongoing: break;
        }
        if (w.game.repetition_draws()) {
            const std::uint64_t key = w.game.key(pos);
            int earlier = 0;
            for (const std::uint64_t k : w.keys) earlier += k == key;
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
    double playout(Worker& w, Position pos, int ply) {
        const int cutoff = config_.playout == Playout::Random ? config_.max_playout_plies : config_.cutoff_plies;
        MoveList moves;
        for (int plies = 0;; ++plies) {
            // The result, from the side to move at this point, turned into the leaf's view.
            auto for_leaf = [&](double r) { return plies % 2 == 0 ? r : 1 - r; };
            if (plies > 0) {
                switch (w.game.status(pos)) {
                    case search::Status::Win: return for_leaf(1);
                    case search::Status::Loss: return for_leaf(0);
                    case search::Status::Draw: return 0.5;
                    case search::Status::Ongoing: break;
                }
            }
            if (limits_.game_plies_left > 0 && ply + plies >= limits_.game_plies_left) return 0.5;
            if (plies >= cutoff) return for_leaf(win_probability(w.game.evaluate(pos)));
            moves.clear();  // generate() appends
            w.game.generate(pos, moves);
            if (moves.size() == 0) return 0.5;  // a game with neither a move nor a pass: not LOA
            // A searched play-out takes milliseconds: out of time, the evaluation scores it now.
            if (config_.playout == Playout::AlphaBeta && should_stop(w)) return for_leaf(win_probability(w.game.evaluate(pos)));
            const bool searched = config_.playout == Playout::AlphaBeta && moves.size() > 1 &&
                                  static_cast<int>(random_below(w, 100)) >= config_.ab_random_percent;
            if (searched) w.game.make(pos, searched_move(w, pos, ply + plies));
            else if (config_.playout == Playout::Weighted) w.game.make(pos, weighted_move(w, pos, moves));
            else w.game.make(pos, moves[static_cast<std::size_t>(random_below(w, static_cast<std::uint32_t>(moves.size())))]);
        }
    }

    // A move drawn in proportion to its realization probability.
    Move weighted_move(Worker& w, const Position& pos, const MoveList& moves) {
        w.weights.clear();
        double total = 0;
        for (const Move m : moves) w.weights.push_back(total += move_prior(w.game, pos, m));
        const double r = total * (random_below(w, 1u << 24) / static_cast<double>(1u << 24));
        const auto at = std::upper_bound(w.weights.begin(), w.weights.end(), r) - w.weights.begin();
        return moves[static_cast<std::size_t>(std::min<std::ptrdiff_t>(at, static_cast<std::ptrdiff_t>(moves.size()) - 1))];
    }

    // A play-out move of MC-LOAαβ: the best move of a shallow search of the alpha-beta core
    // (captures first and killers for its cut-offs, no quiescence: the evaluation at the
    // horizon, as the published play-outs use it). The same position gives the same move.
    Move searched_move(Worker& w, const Position& pos, int ply) {
        if (!w.playout_searcher) {
            search::SearchConfig c;  // plain alpha-beta
            c.captures_first = true;
            c.killers = 2;
            c.qsearch = 0;
            c.history_aging = false;
            w.playout_searcher = std::make_unique<search::Searcher<G>>(w.game, c);
        }
        search::SearchLimits l;
        l.depth = config_.ab_depth;
        // The main thread's searches stop with the caller's flag, the helpers' with done_.
        l.stop = w.main ? limits_.stop : &done_;
        if (limits_.game_plies_left > 0) l.game_plies_left = limits_.game_plies_left - ply;  // > 0: checked by the caller
        return w.playout_searcher->search(pos, l).best_move;
    }

    double win_probability(search::Score eval) const {
        return 1.0 / (1.0 + std::exp(-static_cast<double>(eval) / config_.eval_scale));
    }

    // The principal variation (most visited children, proofs first) and the root's score.
    search::Iteration<Move> report() const {
        search::Iteration<Move> it;
        principal_variation(&it.pv);
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
        it.hashfull = static_cast<int>(std::min<std::size_t>(1000, 1000 * nodes_.size() / node_cap()));
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
    static std::uint32_t random_below(Worker& w, std::uint32_t n) {
        std::uint64_t& rng = w.rng;
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        const std::uint64_t x = rng * 0x2545F4914F6CDD1DULL;
        return static_cast<std::uint32_t>((x >> 32) % n);
    }

    G game_;
    MctsConfig config_;
    search::SearchLimits limits_;
    search::Stopwatch clock_;
    Position root_{};
    std::vector<std::uint64_t> history_;
    std::vector<Node> nodes_;      // the tree; with threads, read and written under tree_lock_
    std::vector<Worker> workers_;  // one a thread, the main thread's first
    bool virtual_loss_ = false;    // threads share the tree
    // Apart: the flag every helper polls should not share a cache line with the contended lock.
    alignas(64) TreeLock tree_lock_;
    alignas(64) std::atomic<bool> done_{false};  // the main thread (or a limit) ended the search: the helpers stop
    bool have_tree_ = false;  // nodes_ holds the last search's tree, rooted at root_
    std::size_t reused_nodes_ = 0;
    std::uint64_t started_ = 0;   // play-outs begun (the budget is checked on them)
    std::uint64_t playouts_ = 0;  // play-outs backed up
    int max_depth_ = 0;
};

}  // namespace mcts
