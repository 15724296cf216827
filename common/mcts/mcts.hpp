// Monte Carlo tree search on the shared game contract (common/search/game.hpp), beside the
// alpha-beta core: UCT selection, MCTS-Solver back-propagation of proven results (Winands,
// Björnsson and Saito, "Monte-Carlo Tree Search Solver", CG 2008), play-outs that are random,
// cut off by the evaluation, or chosen move by move by shallow searches of the alpha-beta core
// (MC-LOAαβ), and tree reuse from one move of a game to the next. No game type appears here.
// This file is the search: threads, selection, expansion, descent, back-up, the time limit and
// the reports; the tree (its nodes, proofs, reuse) is tree.hpp's, the play-outs playout.hpp's.
//
// Threads: tree parallelisation with one lock and virtual loss (Chaslot, Winands and van den
// Herik, "Parallel Monte-Carlo Tree Search", CG 2008). Each thread selects and expands under the
// tree's lock, counting a visit without a result on every node of its path (a virtual loss for
// the side that moved into it) so that the next thread is steered elsewhere, plays out without
// the lock, and backs the result up under it. One lock is enough where a play-out costs much
// more than a descent (random and alpha-beta play-outs); the measurements: docs/mcts.md. One
// thread takes no lock and counts no virtual loss: its search is the deterministic one.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/error.hpp"
#include "common/mcts/config.hpp"
#include "common/mcts/playout.hpp"
#include "common/mcts/tree.hpp"
#include "common/search/game.hpp"
#include "common/search/limits.hpp"
#include "common/search/score.hpp"
#include "common/search/search.hpp"

namespace mcts {

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
    Mcts(G game, MctsConfig config, int threads = 1)
        : game_(std::move(game)), config_(checked(game_, config, threads)), tree_(config_.tree_mb) {
        // Each thread its own game (evaluation state), position, path and random stream; the
        // first one's stream is the single-threaded search's.
        for (int i = 0; i < threads; ++i) {
            Worker& w = workers_.emplace_back(game_, config_);
            w.main = i == 0;
            w.rng = Random(worker_seed(static_cast<std::size_t>(i)));
        }
        virtual_loss_ = threads > 1;
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
        // The root is expanded whatever the tree's cap, so that a move can always be named.
        if (!tree_.root().expanded && !expand(main_worker(), 0, root_, 0, /*ignore_cap=*/true))
            return Result{};  // no move: not a game position
        if (workers_.size() == 1) run_main(main_worker(), on_iteration);
        else run_threads(on_iteration);
        const search::Iteration<Move> last = report();
        if (on_iteration) on_iteration(last);
        Result result;
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
        tree_.clear();
        have_tree_ = false;
    }

    // The nodes the last search started from (more than one when it reused a subtree).
    std::size_t reused_nodes() const { return reused_nodes_; }

    // The root's proof after the last search (Unknown unless the solver proved it).
    Proof root_proof() const { return tree_.empty() ? Proof::Unknown : tree_.root().proof; }
    // Plies to the end of a proven Win or Loss of the root.
    int root_proof_plies() const { return tree_.empty() ? 0 : tree_.root().proof_plies; }
    std::size_t tree_nodes() const { return tree_.size(); }
    std::uint64_t playouts() const { return playouts_; }
    // The root's visits: the play-outs through it, the reused ones included (no virtual loss
    // survives a search).
    std::uint32_t root_visits() const { return tree_.empty() ? 0 : tree_.root().visits; }
    int threads() const { return static_cast<int>(workers_.size()); }

private:
    using Node = typename Tree<G>::Node;

    // What each thread needs of its own: the game (its evaluation's state), the position of the
    // current iteration, its path and keys, its random stream and its play-outs' state.
    struct Worker {
        Worker(const G& g, const MctsConfig& config) : game(g), playouts(config) {}
        G game;
        bool main = true;  // the first thread: reads the clock and the timer, reports, decides the stop
        Position pos{};
        std::vector<std::uint64_t> keys;  // history, then the keys of the current path
        std::vector<std::uint32_t> path;  // the nodes of the current iteration, root first
        Random rng;
        Playouts<G> playouts;
    };

    static constexpr std::uint32_t MaxPlayouts = 4'000'000'000;
    static constexpr std::uint32_t NoNode = std::numeric_limits<std::uint32_t>::max();
    // A depth limit without a play-out limit ends here at the latest (seconds of cut-off
    // play-outs, minutes of searched ones): the PV's length is no budget.
    static constexpr std::uint64_t DepthPlayoutCap = 1u << 18;

    static MctsConfig checked(const G& game, const MctsConfig& config, int threads) {
        const bool uses_move_knowledge = config.bias_percent > 0 || config.playout == Playout::Weighted;
        if (uses_move_knowledge && move_probabilities(game).empty())
            throw common::InputError(
                "mcts_bias and playout=weighted need the game's realization probabilities (in LOA: rps=FILE)");
        if (threads < 1 || threads > MaxThreads)
            throw common::InputError("MCTS threads must be within 1.." + std::to_string(MaxThreads));
        return config;
    }

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
        const bool reused = config_.reuse && have_tree_ &&
                            tree_.reuse(game_, {root_, history_, limits_.game_plies_left}, {root, history, limits.game_plies_left});
        limits_ = limits;
        root_ = root;
        history_.assign(history.begin(), history.end());
        main_worker().keys.assign(history_.begin(), history_.end());
        main_worker().keys.push_back(game_.key(root));
        if (!reused) tree_.restart();
        reused_nodes_ = reused ? tree_.size() : 0;
        have_tree_ = true;
        playouts_ = 0;
        started_ = 0;
        max_depth_ = 0;
        done_.store(false);
        // Each search's streams start from the seed (the helpers' too, though their order of
        // play-outs is not repeatable).
        for (std::size_t i = 0; i < workers_.size(); ++i) workers_[i].rng = Random(worker_seed(i));
    }

    // The helpers on their threads beside the main thread on this one.
    void run_threads(const IterationCallback& on_iteration) {
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
                root_moves = static_cast<int>(tree_.root().child_count);
                complete = depth_reached(it, finished);
            }
            if (on_iteration) on_iteration(it);
            if (limits_.timer)
                limits_.timer->anytime_report({it.depth, it.score, it.pv.empty() ? std::uint16_t{0} : it.pv.front().raw(),
                                               root_moves, it.time_ms});
            if (complete) break;
        }
        done_.store(true);
    }

    // Whether a depth-limited search ends at this report (`finished` play-outs). A PV that ends
    // in a proven node (after enough play-outs that it is no accident of the first ones), or a
    // full tree, grows no longer; nor, in practice, a PV after DepthPlayoutCap play-outs.
    bool depth_reached(const search::Iteration<Move>& it, std::uint64_t finished) const {
        return limits_.depth > 0 &&
               (it.depth >= limits_.depth || (finished >= 1024 && tree_.pv_ends_proven()) || tree_.full() ||
                (!limits_.nodes && finished >= DepthPlayoutCap));
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
            if (config_.solver && tree_.root().proven()) return false;
            if (limits_.nodes && started_ >= limits_.nodes) return false;
            if (tree_.root().visits >= MaxPlayouts) return false;  // visit counts are 32-bit (a reused root keeps its own)
            ++started_;
            leaf = descend(w);
        }
        // The leaf's result for its side to move: a proof, else a play-out (without the lock).
        double r = 0.5;
        switch (leaf) {
            case Proof::Win: r = 1; break;
            case Proof::Loss: r = 0; break;
            case Proof::Draw: r = 0.5; break;
            case Proof::Unknown: r = playout(w); break;
        }
        const auto lock = lock_tree();
        back_up(w, r);
        finished = ++playouts_;
        return true;
    }

    // The play-out from the worker's leaf, for its side to move.
    double playout(Worker& w) {
        PlayoutLimits l;
        l.game_plies_left = limits_.game_plies_left;
        // The main thread's searches stop with the caller's flag, the helpers' with done_.
        l.stop = w.main ? limits_.stop : &done_;
        return w.playouts.play(w.game, w.rng, w.pos, static_cast<int>(w.path.size()) - 1, l, [&] { return should_stop(w); });
    }

    // Selection and expansion (under the tree's lock): w.pos, w.path and w.keys follow the line
    // from the root to the leaf; with threads, each node of the path counts the visit now (the
    // virtual loss). Returns the leaf's proof.
    Proof descend(Worker& w) {
        w.pos = root_;
        w.path.assign(1, 0);
        w.keys.assign(history_.begin(), history_.end());
        w.keys.push_back(w.game.key(w.pos));
        if (virtual_loss_) ++tree_.root().visits;
        auto step = [&](std::uint32_t to) {
            w.game.make(w.pos, tree_[to].move);
            w.keys.push_back(w.game.key(w.pos));
            w.path.push_back(to);
            if (virtual_loss_) ++tree_[to].visits;
        };
        std::uint32_t at = 0;
        while (tree_[at].expanded && !tree_[at].proven()) step(at = select(at));
        // The visits of the leaf with this one (counted already under virtual loss).
        const std::uint32_t visits = tree_[at].visits + (virtual_loss_ ? 0 : 1);
        const bool expand_now = at == 0 || visits >= static_cast<std::uint32_t>(config_.expand_visits);
        if (!tree_[at].proven() && !tree_[at].expanded && expand_now &&
            expand(w, at, w.pos, static_cast<int>(w.path.size()) - 1)) {
            // A first visit of one of the new children: with progressive bias the most
            // probable, else one at random.
            const Node& leaf = tree_[at];
            step(at = config_.bias_percent > 0 ? select(at) : leaf.first_child + static_cast<std::uint32_t>(w.rng.below(leaf.child_count)));
        }
        max_depth_ = std::max(max_depth_, static_cast<int>(w.path.size()) - 1);
        return tree_[at].proof;
    }

    // Back-propagation (under the tree's lock) of `r`, the result for the leaf's side to move.
    void back_up(const Worker& w, double r) {
        for (std::size_t i = w.path.size(); i-- > 0;) {
            Node& node = tree_[w.path[i]];
            if (!virtual_loss_) ++node.visits;
            node.value += 1 - r;  // for the side that made the node's move
            r = 1 - r;
            // With threads, play-outs begun before a node was proven still come back through
            // it and may prove a shorter win below: its plies are worked out again (a proof's
            // value never changes, since its children's do not), so that they stay those of
            // the PV. One thread never descends into a proven node.
            if (config_.solver && node.expanded && (!node.proven() || virtual_loss_)) tree_.prove_from_children(node);
        }
    }

    // UCT over the children that are not proven wins for their side to move (a losing move for
    // the parent), unless every child is one; an unvisited child first.
    std::uint32_t select(std::uint32_t parent) {
        const Node& p = tree_[parent];
        const double log_visits = std::log(static_cast<double>(std::max<std::uint32_t>(p.visits, 1)));
        const double bias = config_.bias_percent / 100.0;
        std::uint32_t best = p.first_child, unvisited = NoNode;
        double best_value = -std::numeric_limits<double>::infinity();
        for (std::uint32_t c = p.first_child; c < p.first_child + p.child_count; ++c) {
            const Node& child = tree_[c];
            if (config_.solver && child.proof == Proof::Win) continue;
            if (child.visits == 0) {
                if (bias == 0) return c;
                if (unvisited == NoNode || child.prior > tree_[unvisited].prior) unvisited = c;
                continue;
            }
            const double mean = child.value / child.visits;
            const double uct = mean + config_.exploration * std::sqrt(log_visits / child.visits) + bias * child.prior / (child.visits + 1);
            if (uct > best_value) best_value = uct, best = c;
        }
        return unvisited != NoNode ? unvisited : best;
    }

    // Adds the children of `at` (at `ply` from the root), each checked against the rules, the
    // repetition rule and the ply limit. False when the tree is full (the leaf stays a leaf).
    bool expand(Worker& w, std::uint32_t at, const Position& pos, int ply, bool ignore_cap = false) {
        MoveList moves;
        w.game.generate(pos, moves);
        if (moves.size() == 0 || (!ignore_cap && !tree_.fits(moves.size()))) return false;
        const auto first = static_cast<std::uint32_t>(tree_.size());
        for (const Move m : moves) {
            Node child;
            child.move = m;
            if (config_.bias_percent > 0) child.prior = move_prior(w.game, pos, m);
            Position next = pos;
            w.game.make(next, m);
            child.proof = proof_of_position(w, next, ply + 1);
            tree_.add(child);
        }
        Node& node = tree_[at];
        node.first_child = first;
        node.child_count = static_cast<std::uint32_t>(moves.size());
        node.expanded = true;
        if (config_.solver) tree_.prove_from_children(node);
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

    // The principal variation (most visited children, proofs first) and the root's score.
    search::Iteration<Move> report() const {
        search::Iteration<Move> it;
        tree_.principal_variation(&it.pv);
        if (it.pv.empty() && tree_.root().expanded) it.pv.push_back(tree_[tree_.best_child(0)].move);
        const Node& root = tree_.root();
        const int plies = std::min<int>(root.proof_plies, search::MaxPly);
        if (root.proof == Proof::Win) it.score = search::win_in(plies);
        else if (root.proof == Proof::Loss) it.score = search::loss_in(plies);
        else if (root.proof == Proof::Draw) it.score = search::DrawScore;
        else it.score = mean_as_score(root);
        it.depth = static_cast<int>(it.pv.size());
        it.seldepth = max_depth_;
        it.nodes = playouts_;
        it.time_ms = clock_.elapsed_ms();
        it.hashfull = tree_.hashfull();
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

    G game_;
    MctsConfig config_;
    Tree<G> tree_;  // with threads, read and written under tree_lock_
    search::SearchLimits limits_;
    search::Stopwatch clock_;
    Position root_{};
    std::vector<std::uint64_t> history_;
    std::vector<Worker> workers_;  // one a thread, the main thread's first
    bool virtual_loss_ = false;    // threads share the tree
    // Apart: the flag every helper polls should not share a cache line with the contended lock.
    alignas(64) TreeLock tree_lock_;
    alignas(64) std::atomic<bool> done_{false};  // the main thread (or a limit) ended the search: the helpers stop
    bool have_tree_ = false;  // tree_ holds the last search's tree, rooted at root_
    std::size_t reused_nodes_ = 0;
    std::uint64_t started_ = 0;   // play-outs begun (the budget is checked on them)
    std::uint64_t playouts_ = 0;  // play-outs backed up
    int max_depth_ = 0;
};

}  // namespace mcts
