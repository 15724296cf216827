// The search: iterative deepening over a fail-soft alpha-beta / NegaScout (PVS) with
// aspiration windows, a transposition table, move ordering (TT move, refutation table,
// captures, killers, countermoves, history / butterfly / relative history), null-move
// pruning, late move reductions, enhanced realization probability search, quiescence search
// and extensions.
// Every enhancement is a SearchConfig switch. Depth is counted in 1/OnePly plies
// (realization.hpp); only ERPS spends fractions.
//
// A Searcher is an object that owns all its tables; nothing is global. It is game-agnostic:
// the game is an adapter satisfying search::Game.
#pragma once

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "common/error.hpp"
#include "common/search/config.hpp"
#include "common/search/draw_context.hpp"
#include "common/search/eval_cache.hpp"
#include "common/search/frontier.hpp"
#include "common/search/game.hpp"
#include "common/search/history.hpp"
#include "common/search/limits.hpp"
#include "common/search/move_order.hpp"
#include "common/search/node_type.hpp"
#include "common/search/realization.hpp"
#include "common/search/score.hpp"
#include "common/search/stats.hpp"
#include "common/search/tt.hpp"

namespace search {

template <class Move>
struct Iteration {
    int depth = 0;
    int seldepth = 0;
    Score score = 0;
    std::uint64_t nodes = 0;  // total so far in this search
    double time_ms = 0;
    int hashfull = 0;
    std::vector<Move> pv;
    SearchStats stats;  // the search's statistics so far, taken at the end of this iteration
    int multipv = 0;    // the line's rank in a MultiPV search (1: the best); 0: a one-line search
};

template <class Move>
struct SearchResult {
    Move best_move = Move::none();
    Score score = 0;
    int depth = 0;  // last completed iteration
    std::vector<Move> pv;
    SearchStats stats;
    std::vector<Iteration<Move>> iterations;
    // What a proof-number solver run in front of the search did (solver::SolvingSearcher):
    // its nodes, and whether it proved the position won, in which case best_move is its
    // proving move and the αβ search did not run.
    std::uint64_t solver_nodes = 0;
    bool proven_win = false;
    // The line of the move played when it came from an iteration stopped before its end (the
    // move beat that iteration's best so far): the unfinished depth, the move's score there, its
    // PV. The score is a lower bound (`unfinished_bound`) when the move's own search had not
    // finished, a scout search's fail-high. `score` and `depth` stay the last completed
    // iteration's; front ends print this line last, so that a GUI's last PV starts with the move
    // played.
    std::optional<Iteration<Move>> unfinished;
    Bound unfinished_bound = Bound::Exact;
};

template <Game G>
class Searcher {
public:
    using Position = typename G::Position;
    using Move = typename G::Move;
    using MoveList = typename G::MoveList;
    using Result = SearchResult<Move>;
    using IterationCallback = std::function<void(const Iteration<Move>&)>;

    // `shared_tt`: a table owned with other searchers (lazy SMP); whoever runs them starts
    // each search on it (new_search) and clears it. Without one, the searcher owns its table.
    Searcher(G game, SearchConfig config, std::shared_ptr<TranspositionTable> shared_tt = nullptr)
        : game_(std::move(game)),
          config_(std::move(config)),
          tt_shared_(shared_tt != nullptr),
          history_(G::MoveIndexCount),
          killers_(MaxPly + 1),
          countermoves_(G::MoveIndexCount) {
        // Every table starts empty (a new TT is cleared as it is allocated): clearing it again
        // here would touch every page twice.
        if (config_.tt)
            tt_ = tt_shared_ ? std::move(shared_tt)
                             : std::make_shared<TranspositionTable>(static_cast<std::size_t>(config_.tt_mb), config_.tt_replace);
        if (config_.eval_cache) eval_cache_ = std::make_unique<EvalCache>(static_cast<std::size_t>(config_.eval_cache_mb));
        if (config_.erps) {
            if constexpr (has_realization<G>) erps_costs_ = realization_depth_costs(game_.realization_probabilities(), config_);
            if (erps_costs_.empty())
                throw common::InputError("erps=on needs the game's realization probabilities (in LOA: rps=FILE)");
        }
    }

    const SearchConfig& config() const { return config_; }
    const G& game() const { return game_; }  // const: the evaluation cache relies on a fixed game
    const TranspositionTable* tt() const { return tt_.get(); }
    const HistoryTables& history() const { return history_; }

    // A lazy SMP helper: helper h leaves out every other iteration (odd h the odd depths,
    // even h the even ones, depth 1 always searched), so that helpers run ahead of the main
    // thread at different depths and fill the shared table with deeper results.
    void set_helper(int index) { helper_ = index; }

    // Forget everything learnt: TT, history, killers, countermoves, refutations. After this, a
    // search gives exactly the result (and node count) of a fresh Searcher.
    void new_game() {
        if (tt_ && !tt_shared_) tt_->clear();
        if (eval_cache_) eval_cache_->clear();
        history_.clear();
        killers_.clear();
        countermoves_.clear();
        for (auto& line : refutations_) line.clear();
    }

    // The principal line of the quiescence search at `root` and its value (empty when standing
    // pat is best): where evaluation tuning (Texel's method) takes a position with captures
    // pending. The status of `root` itself is not checked: give a position whose game goes on.
    std::pair<std::vector<Move>, Score> quiescence_line(const Position& root) {
        start_at(root, {}, {});
        iteration_depth_ = 0;
        const Score score = quiescence(-Infinity, Infinity, 0, 0);
        return {std::vector<Move>(pv_[0].begin(), pv_[0].begin() + pv_length_[0]), score};
    }

    // Searches `root`. `history` holds the keys of earlier game positions since the last
    // irreversible move, oldest first, without the root; repetitions of them count as draws.
    Result search(const Position& root, const SearchLimits& limits, std::span<const std::uint64_t> history = {},
                  const IterationCallback& on_iteration = {}) {
        start_at(root, limits, history);
        Result result;
        // Every move left out: nothing to search (MultiPV asked for more lines than moves).
        if (!limits.excluded_root_moves.empty() && !first_searched_move()) {
            limits_.excluded_root_moves = {};  // the caller's moves: not kept past the call
            return result;
        }
        if (!limits.same_search) {
            if (tt_ && !tt_shared_) tt_->new_search();
            if (config_.history_aging) history_.age();
            killers_.clear();
        }

        const int max_depth = limits.depth > 0 ? std::min(limits.depth, MaxPly - 2) : MaxPly - 2;
        std::uint64_t nodes_before_last = 0, nodes_last = 0;
        root_best_ = Move::none();
        for (int depth = 1; depth <= max_depth; ++depth) {
            if (helper_ > 0 && depth > 1 && depth < max_depth && (depth + helper_) % 2 == 0) continue;
            iteration_depth_ = depth;
            iteration_start_best_ = root_best_;
            const std::uint64_t start_nodes = stats_.nodes;
            const Score score = search_root(depth, result);
            if (aborted_) {
                keep_unfinished_iteration_best(result);
                break;
            }
            result.depth = depth;
            result.score = score;
            result.pv.assign(pv_[0].begin(), pv_[0].begin() + pv_length_[0]);
            result.best_move = result.pv.empty() ? root_best_ : result.pv.front();
            root_best_ = result.best_move;
            if (config_.refutation) {
                // The moves the search itself found: a line completed from the table's records
                // (complete_line) would change the move order, and so the tree.
                refutations_[1] = std::move(refutations_[0]);
                refutations_[0].assign(result.pv.begin(), result.pv.begin() + pv_searched_[0]);
            }
            nodes_before_last = nodes_last;
            nodes_last = stats_.nodes - start_nodes;
            stats_.depth = depth;
            stats_.ebf = nodes_before_last ? static_cast<double>(nodes_last) / static_cast<double>(nodes_before_last) : 0;
            stats_.time_ms = clock_.elapsed_ms();
            Iteration<Move> info{depth, stats_.seldepth, score, stats_.nodes, stats_.time_ms,
                                 tt_ ? tt_->hashfull() : 0, result.pv, stats_};
            result.iterations.push_back(info);
            if (on_iteration) on_iteration(info);
            if (limits.soft_time_ms > 0 && clock_.elapsed_ms() >= limits.soft_time_ms) break;
            if (limits.timer &&
                limits.timer->stop_after_iteration({depth, score, result.best_move.raw(), root_moves_, clock_.elapsed_ms()}))
                break;
            // A decided game within the horizon cannot change with more depth.
            if (is_decisive(score) && plies_to_end(score) <= depth) break;
        }
        if (result.best_move == Move::none()) {
            // Stopped inside the first iteration before any move had a value: any legal move
            // the search was asked to consider.
            if (const auto m = first_searched_move()) result.best_move = *m;
            result.pv = {result.best_move};
        }
        stats_.time_ms = clock_.elapsed_ms();
        result.stats = stats_;
        limits_.excluded_root_moves = {};  // the caller's moves: not kept past the call
        return result;
    }

private:
    bool is_excluded(Move m) const { return std::ranges::find(limits_.excluded_root_moves, m.raw()) != limits_.excluded_root_moves.end(); }

    // The first legal root move not left out, if any.
    std::optional<Move> first_searched_move() const {
        MoveList moves;
        game_.generate(pos_, moves);
        for (const Move m : moves)
            if (!is_excluded(m)) return m;
        return std::nullopt;
    }

    // The root of a new search: the position, its limits, the game's earlier keys (for
    // repetitions), fresh statistics and clock.
    void start_at(const Position& root, const SearchLimits& limits, std::span<const std::uint64_t> history) {
        pos_ = root;
        limits_ = limits;
        stats_ = {};
        aborted_ = false;
        clock_ = Stopwatch();
        history_size_ = history.size();
        keys_.assign(history.begin(), history.end());
        keys_.resize(history_size_ + MaxPly + 2);
        keys_[history_size_] = game_.key(pos_);
        reversible_from_[0] = 0;
        draw_context_[0] = game_.repetition_draws() ? root_draw_context(history) : 0;
        entered_by_extension_[0] = false;
        entered_index_[0] = -1;  // the game's last move is not known here
    }

    // Stopped inside an iteration: a root move that beat the previous best there (it raised
    // alpha, failed high against an aspiration window, or failed high on its scout search)
    // is better at this depth than anything the last full iteration knew, so it is played.
    // Score and depth stay those of the last completed iteration; the move's own line, score
    // and depth go to result.unfinished.
    void keep_unfinished_iteration_best(Result& result) {
        if (root_best_ == Move::none() || root_best_ == result.best_move) return;
        result.best_move = root_best_;
        if (pv_length_[0] > 0 && pv_[0][0] == root_best_) result.pv.assign(pv_[0].begin(), pv_[0].begin() + pv_length_[0]);
        else result.pv = {root_best_};
        stats_.time_ms = clock_.elapsed_ms();
        result.unfinished = Iteration<Move>{iteration_depth_, stats_.seldepth, root_best_score_, stats_.nodes, stats_.time_ms,
                                            tt_ ? tt_->hashfull() : 0, result.pv, stats_};
        result.unfinished_bound = root_best_bound_;
    }

    // One iteration at the root, with the aspiration window policy.
    Score search_root(int depth, const Result& previous) {
        if (!config_.aspiration || depth < 2 || previous.depth == 0 || is_decisive(previous.score))
            return alpha_beta(-Infinity, Infinity, depth * OnePly, 0, false, false);
        Score delta = config_.aspiration_window;
        Score alpha = std::max(previous.score - delta, -Infinity);
        Score beta = std::min(previous.score + delta, Infinity);
        for (;;) {
            const Score score = alpha_beta(alpha, beta, depth * OnePly, 0, false, false);
            if (aborted_) return score;
            if (score > alpha && score < beta) return score;
            ++stats_.aspiration_researches;
            if (config_.aspiration_research == AspirationResearch::Full) {
                alpha = -Infinity;
                beta = Infinity;
            } else {  // widen the failing side step by step (IDAS with growing t_i)
                delta *= 2;
                if (score <= alpha) alpha = std::max(score - delta, -Infinity);
                else beta = std::min(score + delta, Infinity);
            }
        }
    }

    Score terminal_score(Status s, int ply) const {
        switch (s) {
            case Status::Win: return win_in(ply);
            case Status::Loss: return loss_in(ply);
            case Status::Draw: return DrawScore;
            case Status::Ongoing: break;
        }
        return DrawScore;
    }

    // A position that repeats one on the searched line (root included) is a draw at once: the
    // side that steered into it can repeat again, the usual engine convention. One from the
    // game before the root draws only at its third occurrence, as the rules say.
    bool is_repetition(int ply) const {
        const std::size_t at = history_size_ + static_cast<std::size_t>(ply);
        const std::uint64_t key = keys_[at];
        int before_root = 0;
        for (std::size_t i = at; i >= reversible_from_[ply] + 2;) {
            i -= 2;
            if (keys_[i] != key) continue;
            if (i >= history_size_ || ++before_root == 2) return true;
        }
        return false;
    }

    bool drawn_by_length(int ply) const { return limits_.game_plies_left > 0 && ply >= limits_.game_plies_left; }

    // The position reached at `ply` is a draw by repetition or by the game's length.
    bool draws_at(int ply) const { return (game_.repetition_draws() && is_repetition(ply)) || drawn_by_length(ply); }

    // Counts a node and checks the limits; true when the search must stop.
    bool count_node(int ply) {
        ++stats_.nodes;
        if (ply > stats_.seldepth) stats_.seldepth = ply;
        if (limits_.nodes && stats_.nodes >= limits_.nodes) aborted_ = true;
        // A clock read costs about 20 ns; every 256 nodes keeps the overshoot well under a
        // millisecond at release speed.
        if ((stats_.nodes & 255) == 0) {
            if (limits_.stop && limits_.stop->load(std::memory_order_relaxed)) aborted_ = true;
            if (limits_.hard_time_ms > 0 && clock_.elapsed_ms() >= limits_.hard_time_ms) aborted_ = true;
            if (limits_.timer && limits_.timer->must_stop(clock_.elapsed_ms())) aborted_ = true;
        }
        return aborted_;
    }

    // Makes a move of the search and returns the plies of extension it earns (a threat, LOA's
    // check), remembered for the child's frontier rules. The main loop and multi-cut's shallow
    // searches both enter moves here, so that a shallow search is the normal one, shallower.
    int enter(Move m, int ply) {
        // Quiescence makes its moves without enter(): it never orders by countermoves.
        entered_index_[static_cast<std::size_t>(ply) + 1] = config_.countermove != CounterMove::Off ? game_.move_index(pos_, m) : -1;
        make(m, ply, game_.is_irreversible(m));
        if (tt_) tt_->prefetch(keys_[history_size_ + static_cast<std::size_t>(ply) + 1]);
        const int extension = config_.extensions && ply < 2 * iteration_depth_ ? game_.extension(pos_, m) : 0;
        entered_by_extension_[static_cast<std::size_t>(ply) + 1] = extension > 0;
        return extension;
    }

    void make(Move m, int ply, bool irreversible) {
        game_.make(pos_, m);
        const std::size_t at = history_size_ + static_cast<std::size_t>(ply) + 1;
        keys_[at] = game_.key(pos_);
        reversible_from_[ply + 1] = irreversible ? at : reversible_from_[ply];
        // The parent joins the positions its subtree may repeat, unless no way leads back.
        draw_context_[ply + 1] = irreversible || !game_.repetition_draws() ? 0 : draw_context_with(draw_context_[ply], keys_[at - 1]);
        entered_by_extension_[static_cast<std::size_t>(ply) + 1] = false;  // the caller sets it for an extended move
    }

    void update_pv(int ply, Move m) {
        pv_[ply][0] = m;
        const int child = pv_length_[ply + 1];
        std::copy_n(pv_[ply + 1].begin(), child, pv_[ply].begin() + 1);
        pv_length_[ply] = child + 1;
        pv_searched_[ply] = pv_searched_[ply + 1] + 1;
    }

    void clear_pv(int ply) { pv_length_[ply] = pv_searched_[ply] = 0; }

    // A PV node answered by an exact entry ends its line here, where the search that stored the
    // entry went on for hit.depth plies: a second search of a position would print a one-move
    // PV. The line is completed from that search's record (pv_store.hpp), then from the table's
    // moves up to the entry's depth, each move replayed on the board and kept only if legal, and
    // no further than a decided game or a position seen on the way. The board is restored and
    // nothing is counted: the tree stays the same (the search's own part of the line is
    // pv_searched_, what the refutation table takes).
    void complete_line(int ply, std::uint64_t key, const TTHit& hit) {
        auto& line = pv_[static_cast<std::size_t>(ply)];
        const int room = MaxPly - 1 - ply;  // within the PV arrays and the game's move stack
        std::array<std::uint16_t, PvStore::MaxLine> stored{};
        const auto recorded = static_cast<int>(tt_->lines().probe(key, hit.depth, hit.score, stored));
        std::array<std::uint64_t, MaxPly + 1> seen{};
        seen[0] = key;
        int length = 0;
        bool ended = false;
        // The positions a repetition counts from: the game's and the path's since the last
        // irreversible move, the node's own included.
        const auto path_begin = keys_.begin() + static_cast<std::ptrdiff_t>(reversible_from_[ply]);
        const auto path_end = keys_.begin() + static_cast<std::ptrdiff_t>(history_size_ + static_cast<std::size_t>(ply) + 1);
        auto extend = [&](Move m) {
            if (!is_legal(m)) return false;
            game_.make(pos_, m);
            line[static_cast<std::size_t>(length++)] = m;
            const std::uint64_t reached = game_.key(pos_);
            seen[static_cast<std::size_t>(length)] = reached;
            const bool repeated = std::find(seen.begin(), seen.begin() + length, reached) != seen.begin() + length ||
                                  (game_.repetition_draws() && std::find(path_begin, path_end, reached) != path_end);
            ended = game_.status(pos_) != Status::Ongoing || repeated || drawn_by_length(ply + length);
            return !ended;
        };
        for (int i = 0; i < recorded && length < room; ++i)
            if (!extend(Move::from_raw(stored[static_cast<std::size_t>(i)]))) break;
        while (!ended && length < std::min(hit.depth, room)) {
            const TTHit next = tt_->probe(game_.key(pos_), ply + length);
            if (!next.found || next.move == 0 || !extend(Move::from_raw(next.move))) break;
        }
        for (int i = length; i-- > 0;) game_.unmake(pos_, line[static_cast<std::size_t>(i)]);
        pv_length_[ply] = length;
        pv_searched_[ply] = 0;
    }

    // Records the line of a node whose exact result the table has just taken, beside it: a
    // result the table kept another one over (a deeper one of the same position) would never
    // be given back, and its line would take the place of that other one's.
    void record_line(std::uint64_t key, int ply, int depth, Score score) {
        depth = std::clamp(depth, 0, 127);  // as the table stores it
        const TTHit kept = tt_->probe(key, ply);
        if (!kept.found || kept.bound != Bound::Exact || kept.depth != depth || kept.score != score) return;
        std::array<std::uint16_t, PvStore::MaxLine> raw;
        const auto length = std::min<std::size_t>(static_cast<std::size_t>(pv_length_[ply]), raw.size());
        for (std::size_t i = 0; i < length; ++i) raw[i] = pv_[static_cast<std::size_t>(ply)][i].raw();
        tt_->lines().store(key, depth, score, std::span<const std::uint16_t>(raw.data(), length));
    }

    bool is_legal(Move m) const {
        MoveList moves;
        game_.generate(pos_, moves);
        return std::ranges::find(moves, m) != moves.end();
    }

    bool in_tables(Move m) const { return config_.history_captures || !game_.is_capture(m); }

    // A score a node may return: a decided game's (win_in/loss_in), an evaluation, a draw, or
    // anything at all once the search is aborted (the caller drops it).
    bool is_node_score(Score s) const { return aborted_ || (s >= -WinScore && s <= WinScore); }

    // The invariants of every node, checked in debug builds (the sanitizer run of the tests):
    // a window in order within the score range, a ply inside the stacks, and a score within the
    // range it may take (a game must give every position that goes on a move, a pass at least).
    Score alpha_beta(Score alpha, Score beta, int units, int ply, bool after_null, bool cut_node) {
        assert(-Infinity <= alpha && alpha < beta && beta <= Infinity);
        assert(ply >= 0 && ply < MaxPly);
        assert(!(after_null && ply == 0));  // a null move is never tried at the root
        const Score score = search_node(alpha, beta, units, ply, after_null, cut_node);
        assert(is_node_score(score));
        return score;
    }

    // `cut_node`: a node expected to fail high (Knuth and Moore's type 2; node_type.hpp says
    // which children are). Only multi-cut uses it.
    // `units`: the depth left in 1/OnePly plies.
    Score search_node(Score alpha, Score beta, int units, int ply, bool after_null, bool cut_node) {
        clear_pv(ply);
        const bool root = ply == 0;
        const bool pv_node = beta - alpha > 1;
        if (!root) {
            if (const Status s = game_.status(pos_); s != Status::Ongoing) return terminal_score(s, ply);
            if (draws_at(ply)) return DrawScore;
            if (ply >= MaxPly - 1) return evaluate(ply);
        }
        if (units <= 0) return quiescence(alpha, beta, ply, 0);
        if (count_node(ply)) return 0;
        int depth = whole_plies(units);

        const std::uint64_t key = keys_[history_size_ + static_cast<std::size_t>(ply)];
        Move tt_move = root ? root_best_ : Move::none();
        if (tt_) {
            ++stats_.tt_probes;
            // Context-bound entries (decisive results) answer only from this node's context.
            const TTHit hit = trusted(tt_->probe(key, ply, context_key(draw_context_[static_cast<std::size_t>(ply)])));
            if (hit.found) {
                ++stats_.tt_hits;
                if (hit.move) tt_move = Move::from_raw(hit.move);
                const bool deep_enough = config_.tt_reuse == TTReuse::Exact ? hit.depth == depth : hit.depth >= depth;
                // A decisive score at a PV node is searched, not taken: the PV it returns must
                // reach the end of the game it claims.
                if (!root && deep_enough && !(pv_node && is_decisive(hit.score)) &&
                    (hit.bound == Bound::Exact || (hit.bound == Bound::Lower && hit.score >= beta) ||
                     (hit.bound == Bound::Upper && hit.score <= alpha))) {
                    ++stats_.tt_cutoffs;
                    if (pv_node && hit.bound == Bound::Exact && hit.score > alpha && hit.score < beta) complete_line(ply, key, hit);
                    return hit.score;
                }
            }
        }

        // The node's static evaluation, taken once and only where a rule asks for it.
        std::optional<Score> node_eval;
        auto static_eval = [&] {
            if (!node_eval) node_eval = evaluate(ply);
            return *node_eval;
        };
        const bool after_threat = entered_by_extension_[static_cast<std::size_t>(ply)];
        // Whether the side to move may lose on the next move, asked only where a rule needs it.
        std::optional<bool> node_threatened;
        auto threatened = [&] {
            if (!node_threatened) node_threatened = side_to_move_threatened();
            return *node_threatened;
        };

        // Reverse futility: not where the game's length draws every child that does not win at
        // once (the evaluation would stand for a draw), nor where a pass is all the side has.
        if (config_.rfp_margin.on() && !pv_node && !root && depth <= config_.rfp_depth && !after_threat && !is_decisive(beta) &&
            !drawn_by_length(ply + 1) && static_eval() - rfp_margin() * depth >= beta && !threatened() &&
            game_.null_move_allowed(pos_)) {
            ++stats_.rfp_cutoffs;
            return static_eval();
        }

        if (config_.null_move != NullMove::Off && !pv_node && !root && !after_null && depth >= null_reduction(depth) + 2 &&
            !is_decisive(beta) && game_.null_move_allowed(pos_) && static_eval() >= beta) {
            if (const auto cut = try_null_move(beta, depth, units, ply, cut_node)) return *cut;
            if (aborted_) return 0;
        }

        // Frontier selectivity (frontier.hpp): razoring, futility and extended futility.
        int prune_margin = 0;              // quiet moves skipped when > 0
        Score futility_value = -Infinity;  // what a pruned move is taken to be worth at most
        if (!pv_node && !root && !is_decisive(alpha) && !is_decisive(beta) && depth <= 3 &&
            config_.frontier_pruning()) {
            const FrontierDecision decision = frontier_decision(depth, static_eval(), alpha, after_threat, frontier_margins());
            if (decision.razor) {
                ++stats_.razorings;
                units -= OnePly;
                depth = whole_plies(units);
            }
            prune_margin = decision.prune_margin;
            futility_value = static_eval() + prune_margin;
        }

        // Internal iterative reduction: without the table's move the order is a guess, and the
        // next iteration will have one.
        if (config_.iir_depth > 0 && tt_ && !root && (pv_node || cut_node) && tt_move == Move::none() && depth >= config_.iir_depth) {
            ++stats_.iir_reductions;
            units -= OnePly;
            depth = whole_plies(units);
        }
        // Late move pruning: how many moves this node searches before it skips the quiet ones.
        const int lmp_after = config_.lmp_base > 0 && !pv_node && !root && depth <= config_.lmp_depth && !is_decisive(alpha) &&
                                      !is_decisive(beta) && !threatened()
                                  ? config_.lmp_base + depth * depth
                                  : std::numeric_limits<int>::max();

        if (config_.multicut && cut_node && !pv_node && !root && depth >= config_.mc_reduction + 2 && !is_decisive(beta)) {
            if (const auto cut = try_multicut(beta, units, ply, tt_move)) return *cut;
            if (aborted_) return 0;
        }

        MoveList moves;
        game_.generate(pos_, moves);
        // Moves left out at the root (MultiPV) are neither searched nor ordered nor credited.
        if (root && !limits_.excluded_root_moves.empty()) {
            MoveList kept;
            for (const Move m : moves)
                if (!is_excluded(m)) kept.push_back(m);
            moves = kept;
        }
        if (root) root_moves_ = static_cast<int>(moves.size());
        MoveOrder<G> order(game_, pos_, moves);
        order.score_all(config_, history_, killers_, ply, tt_move, refutation(0, ply), refutation(1, ply), countermove(ply));

        const Score alpha_orig = alpha;
        Score best = -Infinity;
        Move best_move = Move::none();
        int searched = 0;
        while (auto next = order.next()) {
            const Move m = next->move;
            const bool capture = game_.is_capture(m);
            const int cost = move_cost(m);  // of the position before the move
            // Asked only of a move LMR may reduce (quiet, past lmr_min_moves).
            const bool unproven = config_.lmr_history && !capture && searched >= config_.lmr_min_moves && history_counts_successes() &&
                                  history_.history(game_.move_index(pos_, m)) == 0;  // before the move is made
            const int extension = enter(m, ply);
            // Futility may skip only a move whose worth the static evaluation bounds: not one
            // that ends the game, draws (a draw can be worth more than alpha when losing) or
            // threatens to connect.
            // Late move pruning skips the same kind of move, by its number instead of a margin,
            // once a move searched has shown the node is not lost (a skipped quiet move may be
            // the one defence: a loss returned then would be a false proof), and not a move that
            // leaves its side two groups, one move from connecting (the game's threat).
            const bool futile = prune_margin > 0 && searched > 0;
            const bool late = searched >= lmp_after && best > -WinThreshold;
            if ((futile || late) && !capture && extension == 0 && MoveOrder<G>::history_band(next->score) &&
                game_.status(pos_) == Status::Ongoing && !draws_at(ply + 1) && (futile || !side_to_move_threatened())) {
                game_.unmake(pos_, m);
                if (futile) {
                    ++stats_.futility_prunes;
                    // Fail-soft: the node's upper bound may not drop below what pruning assumed.
                    best = std::max(best, futility_value);
                } else {
                    ++stats_.lmp_prunes;
                }
                continue;
            }
            // What the move gets beside its plain depth `full`: less for an unlikely move under
            // ERPS (searched again at `full` if it beats alpha), more for a likely one.
            const int full = units - OnePly + OnePly * extension;
            const int new_units = erps_units(full, cost);
            // At the frontier both depths are quiescence: nothing to search again.
            const bool erps_reduced = new_units < full && full > 0 && config_.erps_research;
            Score score;
            if (searched == 0) {
                const bool child_cut = child_expects_cut(config_.mc_types, pv_node, cut_node, true);
                score = -alpha_beta(-beta, -alpha, new_units, ply + 1, false, child_cut);
                if (erps_reduced && score > alpha && !aborted_) {
                    ++stats_.erps_researches;
                    score = -alpha_beta(-beta, -alpha, full, ply + 1, false, child_cut);
                }
            } else {
                const bool child_cut = child_expects_cut(config_.mc_types, pv_node, cut_node, false);
                int r = 0;  // LMR's reduction, in units
                if (config_.lmr && !config_.erps && depth >= config_.lmr_min_depth && searched >= config_.lmr_min_moves &&
                    full == units - OnePly && !capture && MoveOrder<G>::history_band(next->score)) {
                    r = lmr_reduction(depth, searched + 1, pv_node);
                    if (unproven) r += OnePly;
                    r = std::min(r, full - OnePly);
                }
                const int reduced = new_units - r;
                const bool search_again = reduced < full && full > 0 && (r > 0 || config_.erps_research);
                if (config_.pvs) {
                    score = -alpha_beta(-alpha - 1, -alpha, reduced, ply + 1, false, child_cut);
                    if (search_again && score > alpha && !aborted_) {
                        ++(r > 0 ? stats_.lmr_researches : stats_.erps_researches);
                        score = -alpha_beta(-alpha - 1, -alpha, full, ply + 1, false, child_cut);
                    }
                    if (score > alpha && score < beta && !aborted_) {
                        ++stats_.pvs_researches;
                        // The window is opened at the depth the scout last confirmed: `full`
                        // after a re-search, else the move's own depth (plain RPS keeps its
                        // reduction here as at the first move). At the root the move has just
                        // beaten the best so far at that depth: it is the one to play if time
                        // runs out during the re-search.
                        const int confirmed_units = search_again ? full : reduced;
                        const Move confirmed_best = root_best_;
                        const Score confirmed_score = root_best_score_;
                        const Bound confirmed_bound = root_best_bound_;
                        if (root) root_best_ = m, root_best_score_ = score, root_best_bound_ = Bound::Lower;
                        score = -alpha_beta(-beta, -alpha, confirmed_units, ply + 1, false, false);
                        if (root && !aborted_ && score <= alpha)
                            root_best_ = confirmed_best, root_best_score_ = confirmed_score, root_best_bound_ = confirmed_bound;
                    }
                } else {
                    score = -alpha_beta(-beta, -alpha, reduced, ply + 1, false, child_cut);
                    if (search_again && score > alpha && !aborted_) {
                        ++(r > 0 ? stats_.lmr_researches : stats_.erps_researches);
                        score = -alpha_beta(-beta, -alpha, full, ply + 1, false, child_cut);
                    }
                }
            }
            game_.unmake(pos_, m);
            if (aborted_) return 0;
            // A new best root move of this iteration searched again (an aspiration re-search) and
            // not above alpha this time: what made it the best is contradicted, so a stop now plays
            // the last completed iteration's move, not it.
            if (root && m == root_best_ && m != iteration_start_best_ && score <= alpha) root_best_ = iteration_start_best_;
            ++searched;
            const bool cutoff = score >= beta;
            update_butterfly(m, depth, cutoff);
            if (score > best) {
                best = score;
                if (score > alpha) {
                    best_move = m;
                    update_pv(ply, m);
                    if (root) root_best_ = m, root_best_score_ = score, root_best_bound_ = cutoff ? Bound::Lower : Bound::Exact;
                    if (cutoff) {
                        const auto picked = order.picked();
                        on_cutoff(m, capture, depth, ply, searched, picked.first(picked.size() - 1));
                        break;
                    }
                    alpha = score;
                }
            }
        }
        // The best move of a PV node counts as a success too (Schaeffer).
        if (best_move != Move::none() && best < beta) credit_history(best_move, depth);

        // A root searched without some of its moves has not its own value: not stored.
        if (tt_ && !(root && !limits_.excluded_root_moves.empty())) {
            const Bound bound = best >= beta ? Bound::Lower : best > alpha_orig ? Bound::Exact : Bound::Upper;
            // Whole plies searched, rounded down, where a probe asks for its depth rounded up: an
            // entry then answers only a search no deeper than its own. Under ERPS a reduced
            // search's entry can never stand in for the re-search of the same move.
            const bool in_context = bound_to_context(best, bound, ply);
            tt_->store(key, ply, units / OnePly, best, bound, best_move.raw(),
                       in_context ? context_key(draw_context_[static_cast<std::size_t>(ply)]) : 0);
            // The line behind an exact score, for a PV node the entry will answer (complete_line);
            // a decided one is never taken at a PV node.
            if (bound == Bound::Exact && !is_decisive(best)) record_line(key, ply, units / OnePly, best);
        }
        return best;
    }

    // Whether a result must be keyed by its node's draw context in the table: a claim that a
    // side forces the end of the game (a win found, a loss proven) holds where the losing side
    // had no other draw than in the context it was searched in (draw_context.hpp). A game that
    // ends at the next ply whatever the side to move does leaves no room for a repetition;
    // without the repetition rule no result depends on the path.
    bool bound_to_context(Score score, Bound bound, int ply) const {
        const bool claim = (score >= WinThreshold && bound != Bound::Upper) || (score <= -WinThreshold && bound != Bound::Lower);
        return claim && game_.repetition_draws() && std::abs(plies_to_end(score)) - ply > 1;
    }

    // A claim from the table (found in this node's context, or holding in any) ends the game
    // within some plies; with a ply limit nearer than that (the same position reached nearer
    // the end of the game) it is cut down to what still holds: the winning side, playing on
    // as proven, ends every line in its win or in a draw, so it scores at least a draw.
    TTHit trusted(TTHit hit) {
        const bool wins = hit.score >= WinThreshold && hit.bound != Bound::Upper;
        const bool loses = hit.score <= -WinThreshold && hit.bound != Bound::Lower;
        if (!hit.found || (!wins && !loses)) return hit;
        if (limits_.game_plies_left == 0 || std::abs(plies_to_end(hit.score)) <= limits_.game_plies_left) return hit;
        ++stats_.tt_claims_refused;
        hit.score = DrawScore;
        hit.bound = wins ? Bound::Lower : Bound::Upper;
        return hit;
    }

    // LMR's reduction in units for the move numbered `move` (from 1) at `depth` plies.
    int lmr_reduction(int depth, int move, bool pv_node) const {
        if (config_.lmr_formula == LmrFormula::Steps)
            return (move > config_.lmr_deep_moves * config_.lmr_min_moves && depth >= config_.lmr_deep_depth) ? 2 * OnePly : OnePly;
        const int r = lmr_log_[static_cast<std::size_t>(std::min(depth, LmrTableSize - 1))][static_cast<std::size_t>(std::min(move, LmrTableSize - 1))];
        return std::max(r - (pv_node ? 1 : 0), 0) * OnePly;
    }

    // The log formula's reductions in whole plies, by depth and move number (both below 64).
    static constexpr int LmrTableSize = 64;
    using LmrTable = std::array<std::array<int, LmrTableSize>, LmrTableSize>;
    static LmrTable log_reductions(const SearchConfig& c) {
        LmrTable table{};
        for (int d = 1; d < LmrTableSize; ++d)
            for (int m = 1; m < LmrTableSize; ++m)
                table[static_cast<std::size_t>(d)][static_cast<std::size_t>(m)] = static_cast<int>(
                    std::lround(c.lmr_log_base / 100.0 + std::log(d) * std::log(m) * 100.0 / c.lmr_log_div));
        return table;
    }

    // Whether the side to move in pos_ may lose on its next move (the game's hook; false
    // without one). After a move: whether the move left its side one move from winning.
    bool side_to_move_threatened() const {
        if constexpr (has_threat<G>) return game_.threatened(pos_);
        else return false;
    }

    // Whether the history tables count successes (Absolute and Relative do; butterfly boards
    // count the moves that did not succeed).
    bool history_counts_successes() const {
        return config_.history == HistoryMode::Absolute || config_.history == HistoryMode::Relative;
    }

    // The reverse futility margin per ply at the current node, tapered by the game's phase.
    int rfp_margin() const { return tapered(config_.rfp_margin); }

    // Adaptive R (Heinz 1999): R = 3 when more than 6 plies remain, else 2.
    int null_reduction(int depth) const {
        return config_.null_move == NullMove::Adaptive ? (depth > 6 ? 3 : 2) : config_.null_r;
    }

    // The null move is tried only where its reduced search keeps at least one full-width ply
    // (depth >= R + 2): a game won by one move -- a connection in LOA -- is then always seen
    // as a threat, which a bare static evaluation at the horizon would miss.
    std::optional<Score> try_null_move(Score beta, int depth, int units, int ply, bool cut_node) {
        const int r = null_reduction(depth);
        ++stats_.null_tries;
        const Move pass = game_.null_move();
        make(pass, ply, true);  // no repetition may be claimed across a null move
        entered_index_[static_cast<std::size_t>(ply) + 1] = -1;  // a pass nobody played has no reply to learn
        Score score = -alpha_beta(-beta, -beta + 1, units - (1 + r) * OnePly, ply + 1, true, !cut_node);
        game_.unmake(pos_, pass);
        if (aborted_ || score < beta) return std::nullopt;
        if (score >= WinThreshold) score = beta;  // a win proven by passing is not a proof
        if (config_.null_verify) {
            // Verified null move (Tabibi and Netanyahu): confirm with a reduced normal search.
            const Score verified = alpha_beta(beta - 1, beta, units - r * OnePly, ply, true, cut_node);
            if (aborted_ || verified < beta) return std::nullopt;
        }
        ++stats_.null_cutoffs;
        return score;
    }

    // Multi-cut: the first mc_moves moves (in the usual order) searched mc_reduction plies
    // shallower than the normal search would (extensions included), with the null window at
    // beta; mc_cuts fail-highs among them and the node is taken to fail high.
    // Its children are expected all-nodes.
    std::optional<Score> try_multicut(Score beta, int units, int ply, Move tt_move) {
        MoveList moves;
        game_.generate(pos_, moves);
        if (moves.size() < static_cast<std::size_t>(config_.mc_cuts)) return std::nullopt;  // cannot cut
        ++stats_.multicut_tries;
        MoveOrder<G> order(game_, pos_, moves);
        order.score_all(config_, history_, killers_, ply, tt_move, refutation(0, ply), refutation(1, ply), countermove(ply));
        int tried = 0, cuts = 0;
        while (auto next = order.next()) {
            const Move m = next->move;
            const int cost = move_cost(m);
            const int full = units - OnePly + OnePly * enter(m, ply);
            // mc_reduction plies below the depth at which the normal search settles a fail-high:
            // ERPS's depth for the move, or its plain depth where ERPS searches a reduced move
            // again (without ERPS the two are the same).
            const int settled = config_.erps_research ? std::max(full, erps_units(full, cost)) : erps_units(full, cost);
            const int shallow = settled - config_.mc_reduction * OnePly;
            const Score score = -alpha_beta(-beta, -beta + 1, shallow, ply + 1, false, false);
            game_.unmake(pos_, m);
            if (aborted_) return std::nullopt;
            if (score >= beta && ++cuts >= config_.mc_cuts) {
                ++stats_.multicut_prunes;
                return beta;
            }
            ++tried;
            // Stop once the moves left cannot bring the cut-offs still needed.
            if (tried >= config_.mc_moves || cuts + (config_.mc_moves - tried) < config_.mc_cuts) break;
        }
        return std::nullopt;
    }

    // Stand pat on the static evaluation, or follow the game's quiescence moves (captures),
    // at most qsearch_plies deep: LOA has captures almost everywhere, and an unbounded capture
    // search would dwarf the main tree.
    Score quiescence(Score alpha, Score beta, int ply, int qply) {
        assert(-Infinity <= alpha && alpha < beta && beta <= Infinity);
        assert(ply >= 0 && ply < MaxPly && qply >= 0 && qply <= config_.qsearch_plies);
        const Score score = quiescence_node(alpha, beta, ply, qply);
        assert(is_node_score(score));
        return score;
    }

    Score quiescence_node(Score alpha, Score beta, int ply, int qply) {
        clear_pv(ply);
        if (count_node(ply)) return 0;
        ++stats_.qnodes;
        const Score stand_pat = evaluate(ply);
        if (config_.qsearch == 0 || qply >= config_.qsearch_plies || ply >= MaxPly - 1 || stand_pat >= beta)
            return stand_pat;
        Score best = stand_pat;
        alpha = std::max(alpha, stand_pat);
        MoveList moves;
        if constexpr (has_capture_generator<G>) game_.generate_captures(pos_, moves);
        else game_.generate(pos_, moves);
        MoveOrder<G> order(game_, pos_, moves);
        order.score_quiescence(config_, history_, [this](Move m) { return in_tables(m); });
        while (auto next = order.next()) {
            const Move m = next->move;
            clear_pv(ply + 1);  // a child that ends the game leaves no line of its own
            make(m, ply, true);
            // A quiescence move may end the game (for either side, or drawn): the status is the
            // child's, from its side to move's point of view, so it is negated like any child value.
            const Status s = game_.status(pos_);
            const Score score = s != Status::Ongoing  ? -terminal_score(s, ply + 1)
                                : drawn_by_length(ply + 1) ? DrawScore
                                                           : -quiescence(-beta, -alpha, ply + 1, qply + 1);
            game_.unmake(pos_, m);
            if (aborted_) return 0;
            if (score > best) {
                best = score;
                if (score > alpha) {
                    update_pv(ply, m);
                    if (score >= beta) break;
                    alpha = score;
                }
            }
        }
        return best;
    }

    void credit_history(Move m, int depth) {
        if ((config_.history == HistoryMode::Absolute || config_.history == HistoryMode::Relative) && in_tables(m))
            history_.add_history(game_.move_index(pos_, m), HistoryTables::increment(config_.hh_increment(), depth));
    }

    void update_butterfly(Move m, int depth, bool cutoff) {
        if (!in_tables(m)) return;
        const bool count = config_.history == HistoryMode::Butterfly ||
                           (config_.history == HistoryMode::Relative && config_.rhh_update == RhhUpdate::All && !cutoff);
        if (count) history_.add_butterfly(game_.move_index(pos_, m), HistoryTables::increment(config_.bf_increment(), depth));
    }

    void on_cutoff(Move m, bool capture, int depth, int ply, int searched, std::span<const Move> tried_before) {
        ++stats_.beta_cutoffs;
        if (searched == 1) ++stats_.first_move_cutoffs;
        if (config_.killers > 0 && !(config_.captures_first && capture)) killers_.record(ply, m, config_.killers);
        if (const int previous = entered_index_[static_cast<std::size_t>(ply)];
            config_.countermove != CounterMove::Off && previous >= 0 && !(config_.captures_first && capture))
            countermoves_.record(previous, m);
        credit_history(m, depth);
        if (config_.history == HistoryMode::Relative && config_.rhh_update == RhhUpdate::CutNodes) {
            // Hyatt/Romstad: the moves tried before the cutoff move failed at a cut node.
            const std::uint64_t inc = HistoryTables::increment(config_.bf_increment(), depth);
            for (const Move before : tried_before)
                if (in_tables(before)) history_.add_butterfly(game_.move_index(pos_, before), inc);
        }
    }

    // The depth a move of the current position costs: a ply, or under ERPS its category's cost.
    // The depth ERPS gives a move of plain depth `full` and cost `cost` (`full` without ERPS).
    // erps_floor: a reduced move keeps a ply of full-width search before quiescence where its
    // plain depth had one, as LMR does (without it ERPS's trees are 92% quiescence).
    int erps_units(int full, int cost) const {
        return config_.erps_floor ? std::max(full + OnePly - cost, std::min(full, OnePly)) : full + OnePly - cost;
    }

    int move_cost(Move m) const {
        if constexpr (has_realization<G>) {
            if (!erps_costs_.empty()) {
                const int category = game_.realization_category(pos_, m);
                if (category >= 0) return erps_costs_[static_cast<std::size_t>(category)];
            }
        }
        (void)m;
        return OnePly;
    }

    // The frontier margins at the current node: tapered by the game's phase where it has one.
    FrontierMargins frontier_margins() const {
        return {tapered(config_.futility_margin), tapered(config_.ext_futility_margin), tapered(config_.razor_margin)};
    }

    // A margin at the current node's phase (where the game has phases); 0 when it is off.
    int tapered(const TaperedMargin& m) const {
        if (!m.on()) return 0;
        int phase = 1, max_phase = 1;
        if constexpr (has_phase<G>) {
            static_assert(G::MaxPhase > 0);
            max_phase = G::MaxPhase;
            phase = std::clamp<int>(game_.phase(pos_), 0, max_phase);
        }
        return m.at(phase, max_phase);
    }

    // The game's static evaluation of the node at `ply`, through the cache when there is one.
    Score evaluate(int ply) {
        if (!eval_cache_) return game_.evaluate(pos_);
        return eval_cache_->get(keys_[history_size_ + static_cast<std::size_t>(ply)], [&] { return game_.evaluate(pos_); });
    }

    // The reply that last refuted the move into the node at `ply` (none without the heuristic,
    // at the root and after a null move).
    Move countermove(int ply) const {
        const int previous = entered_index_[static_cast<std::size_t>(ply)];
        return config_.countermove != CounterMove::Off && previous >= 0 ? countermoves_.reply(previous) : Move::none();
    }

    Move refutation(int age, int ply) const {
        const auto& line = refutations_[static_cast<std::size_t>(age)];
        return config_.refutation && static_cast<std::size_t>(ply) < line.size() ? line[static_cast<std::size_t>(ply)]
                                                                                 : Move::none();
    }

    G game_;
    SearchConfig config_;
    std::shared_ptr<TranspositionTable> tt_;
    bool tt_shared_ = false;
    int helper_ = 0;  // 0: a searcher of its own or a lazy SMP main thread
    std::unique_ptr<EvalCache> eval_cache_;
    HistoryTables history_;
    KillerTable<Move> killers_;
    CounterMoveTable<Move> countermoves_;
    std::array<std::vector<Move>, 2> refutations_;  // PVs of the last two iterations
    std::vector<int> erps_costs_;                   // per realization category; empty: ERPS off
    LmrTable lmr_log_ = log_reductions(config_);

    Position pos_{};
    SearchLimits limits_;
    SearchStats stats_;
    Stopwatch clock_;
    bool aborted_ = false;
    int iteration_depth_ = 0;
    Move root_best_ = Move::none();
    Move iteration_start_best_ = Move::none();  // root_best_ when the current iteration began
    // root_best_'s score in the current iteration: exact, or a bound.
    Score root_best_score_ = 0;
    Bound root_best_bound_ = Bound::Exact;
    int root_moves_ = 0;

    std::vector<std::uint64_t> keys_;  // game history, then one key per ply of the current path
    std::size_t history_size_ = 0;
    std::array<std::size_t, MaxPly + 2> reversible_from_{};
    // Per ply, the node's draw context (draw_context.hpp): what decisive table results are
    // keyed by (bound_to_context()).
    std::array<std::uint64_t, MaxPly + 2> draw_context_{};
    std::array<bool, MaxPly + 2> entered_by_extension_{};  // the move into the node at a ply was extended
    // Per ply, the history index of the move into the node (with the countermove heuristic), -1
    // for none.
    std::array<int, MaxPly + 2> entered_index_{};
    std::array<std::array<Move, MaxPly + 1>, MaxPly + 1> pv_{};
    std::array<int, MaxPly + 2> pv_length_{};
    // Per ply, how much of pv_'s line the search found itself: the rest was completed from the
    // table's records (complete_line).
    std::array<int, MaxPly + 2> pv_searched_{};
};

}  // namespace search
