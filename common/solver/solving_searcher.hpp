// The αβ search with a proof-number solver in front of it (search key solver=N), the way MIA
// used its endgame solver in play: before each search the solver gets up to N nodes, and at
// most SolverShare of the move's planned time. A proven win is played at once (αβ would have to
// find a win its horizon may not reach): the fastest win, when a search of the same budget
// finds its distance (win_distance.hpp), else the proving move; any other verdict, or none,
// leaves the move to αβ, which gets the rest of the time. The solved table lasts the game: its
// disproofs and numbers make the next move's solve cheaper, while each solve proves its own
// wins (a proof found under one game history may not hold under the next: solved_table.hpp).
//
// With solver_score=S the solver runs only after a search of this game that scored at least S
// for the side to move (a proven win counts, whatever S): where the game is not nearly won
// there is rarely a proof to find, and the solver's share of the clock is lost. The first
// search of a game has no score before it, so it goes to αβ alone; a search stopped before
// its first iteration ended has none either and leaves the last score as it was. The score is
// the engine's, not the position's: it carries over to whatever the next search is asked
// about (a `position` without `ucinewgame`, an undo, the other colour) until new_game().
//
// Off (solver=0), this is exactly the ParallelSearcher it wraps. With fixed depth or nodes
// the solver is bounded by nodes only, so the search stays deterministic. Its memory is the
// proof tree, 24 bytes a node created (the key's largest budget, 10 million nodes, is 240 MB).
#pragma once

#include <algorithm>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "common/search/lazy_smp.hpp"
#include "common/search/multipv.hpp"
#include "common/solver/solver.hpp"
#include "common/solver/win_distance.hpp"

namespace solver {

template <search::Game G>
class SolvingSearcher {
public:
    using Position = typename G::Position;
    using Move = typename G::Move;
    using Result = search::SearchResult<Move>;
    using IterationCallback = typename search::ParallelSearcher<G>::IterationCallback;

    // At most this share of the planned time goes to the solver; αβ has the rest.
    static constexpr double SolverShare = 0.2;

    SolvingSearcher(G game, search::SearchConfig config)
        : solver_(config.solver_nodes > 0 ? std::make_unique<ProofNumberSolver<G>>(game, SolverOptions{}) : nullptr),
          searcher_(std::move(game), std::move(config)) {}

    const search::SearchConfig& config() const { return searcher_.config(); }
    int threads() const { return searcher_.threads(); }
    // MultiPV (search/multipv.hpp) by the alpha-beta search alone: the solver in front plays a
    // proven win at once, a decision of play that gives no lines. Its line 1 is remembered for
    // the solver's gate as a search's score is.
    Result search_lines(const Position& root, const search::SearchLimits& limits, std::span<const std::uint64_t> history,
                        int lines, const std::function<void(const std::vector<search::Iteration<Move>>&)>& on_depth) {
        return remember(search::search_multipv(searcher_, root, limits, history, lines, on_depth));
    }

    void new_game() {
        searcher_.new_game();
        if (solver_) solver_->clear();
        last_score_.reset();
    }

    Result search(const Position& root, const search::SearchLimits& limits, std::span<const std::uint64_t> history = {},
                  const IterationCallback& on_iteration = {}) {
        // A root restricted to some moves (UCI's searchmoves) is αβ's: a proof plays any move.
        if (!solver_ || !solver_due() || single_move(root) || !limits.excluded_root_moves.empty())
            return remember(searcher_.search(root, limits, history, on_iteration));
        const search::Stopwatch clock;
        const auto proof = solver_->solve(root, solver_limits(limits, config().solver_nodes), history);
        const double solver_ms = clock.elapsed_ms();
        if (proof.value == Value::Win && proof.move != Move::none())
            return remember(proven_win(root, limits, history, proof, clock, on_iteration));
        // The rest to αβ: its clock starts now, so every limit it sees counts the solver's time.
        search::SearchLimits rest = limits;
        if (rest.soft_time_ms > 0) rest.soft_time_ms = std::max(1.0, rest.soft_time_ms - solver_ms);
        if (rest.hard_time_ms > 0) rest.hard_time_ms = std::max(1.0, rest.hard_time_ms - solver_ms);
        std::optional<ShiftedTimer> timer;
        if (limits.timer) rest.timer = &timer.emplace(*limits.timer, solver_ms);
        Result result = searcher_.search(root, rest, history, on_iteration);
        result.solver_nodes = proof.nodes;
        result.stats.time_ms += solver_ms;
        return remember(std::move(result));
    }

    // The solver's limits for a search with `limits`: `solver_nodes`, fewer when the search
    // itself has a node limit; SolverShare of the planned time (the timer's plan, else the
    // soft time, else the hard time), never more than the hard time; the search's stop flag.
    static SolveLimits solver_limits(const search::SearchLimits& limits, std::uint64_t solver_nodes) {
        SolveLimits s;
        s.nodes = limits.nodes > 0 ? std::min<std::uint64_t>(solver_nodes, limits.nodes) : solver_nodes;
        s.stop = limits.stop;
        s.game_plies_left = limits.game_plies_left;
        const double planned = limits.timer && limits.timer->target_ms() > 0 ? limits.timer->target_ms()
                               : limits.soft_time_ms > 0                     ? limits.soft_time_ms
                                                                             : limits.hard_time_ms;
        if (planned > 0) s.time_ms = std::max(1.0, SolverShare * planned);
        if (limits.hard_time_ms > 0) s.time_ms = std::min(s.time_ms, limits.hard_time_ms);
        return s;
    }

private:
    // A timer seen from a clock started `offset_ms` after its own.
    class ShiftedTimer final : public search::SearchTimer {
    public:
        ShiftedTimer(search::SearchTimer& inner, double offset_ms) : inner_(inner), offset_ms_(offset_ms) {}
        bool stop_after_iteration(const search::IterationReport& it) override {
            search::IterationReport shifted = it;
            shifted.elapsed_ms += offset_ms_;
            return inner_.stop_after_iteration(shifted);
        }
        bool must_stop(double elapsed_ms) const override { return inner_.must_stop(elapsed_ms + offset_ms_); }
        double target_ms() const override { return inner_.target_ms(); }
        void anytime_report(const search::IterationReport& it) override {
            search::IterationReport shifted = it;
            shifted.elapsed_ms += offset_ms_;
            inner_.anytime_report(shifted);
        }
        bool anytime_stop(double elapsed_ms) const override { return inner_.anytime_stop(elapsed_ms + offset_ms_); }

    private:
        search::SearchTimer& inner_;
        double offset_ms_;
    };

    // A proven win, played at once. The proof has no distance: the shortest win is searched
    // for within the solver's budget (win_distance.hpp) and played with its line, its score
    // the true distance; beyond the budget the proving move is played with ProvenWinScore,
    // won without a distance, which every front end prints as a plain score.
    Result proven_win(const Position& root, const search::SearchLimits& limits, std::span<const std::uint64_t> history,
                      const SolveResult<Move>& proof, const search::Stopwatch& clock, const IterationCallback& on_iteration) {
        // What the proof left of the solver's budget, not a budget of its own: a proven move
        // costs the solver's share of the clock and of the node limit once.
        const SolveLimits budget = solver_limits(limits, config().solver_nodes);
        WinDistanceLimits distance_limits;
        distance_limits.nodes = budget.nodes > proof.nodes ? budget.nodes - proof.nodes : 1;
        distance_limits.stop = limits.stop;
        distance_limits.game_plies_left = limits.game_plies_left;
        if (budget.time_ms > 0) distance_limits.time_ms = std::max(1.0, budget.time_ms - clock.elapsed_ms());
        WinDistance<G> distance(searcher_.game(), distance_limits);
        const auto win = distance.shortest_win(root, history);
        Result result;
        result.proven_win = true;
        result.solver_nodes = proof.nodes;
        result.stats.nodes = distance.nodes();
        result.stats.time_ms = clock.elapsed_ms();
        if (win) {
            result.best_move = win->line.front();
            result.pv = win->line;
            result.score = search::win_in(win->plies);
        } else {
            result.best_move = proof.move;
            result.pv = {proof.move};
            result.score = search::ProvenWinScore;
        }
        // No αβ iteration ran: one report says what was found, at the distance searched.
        const int depth = win ? win->plies : 0;
        result.stats.depth = result.stats.seldepth = depth;  // (result.depth: the αβ iterations, none)
        if (on_iteration)
            on_iteration({depth, depth, result.score, proof.nodes + distance.nodes(), result.stats.time_ms, 0, result.pv, result.stats});
        return result;
    }

    // Whether this search may start with the solver (solver_score: the last search's score).
    bool solver_due() const {
        const auto& gate = config().solver_score;
        return !gate || (last_score_ && *last_score_ >= *gate);
    }

    // A proven win is stored as the best score there is: its reported score, the least decisive
    // win, would fall below a gate set between that and WinScore. A search interrupted in its
    // first iteration reports a score of 0 that no search computed, so it is not stored.
    Result remember(Result result) {
        if (result.proven_win) last_score_ = search::WinScore;
        else if (result.depth > 0) last_score_ = result.score;
        return result;
    }

    // One legal move: nothing to choose, so nothing worth proving.
    bool single_move(const Position& root) const {
        typename G::MoveList moves;
        searcher_.game().generate(root, moves);
        return moves.size() == 1;
    }

    std::unique_ptr<ProofNumberSolver<G>> solver_;
    search::ParallelSearcher<G> searcher_;
    std::optional<search::Score> last_score_;  // of this game's last search (solver_score)
};

}  // namespace solver
