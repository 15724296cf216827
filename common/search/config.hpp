// SearchConfig: the switches of the alpha-beta core, each enhancement one of them, so that
// variants can be compared honestly. The variant layer (common/variant/) names them, and the
// searcher, in one string: "preset=pvs+tt,killers=2,history=relative,hh_inc=1,null=adaptive".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace search {

enum class HistoryMode { None, Absolute, Butterfly, Relative };
enum class Increment { One, Depth, DepthSquared, TwoPowDepth };  // 1, d, d^2, 2^d
enum class RhhUpdate { All, CutNodes };
enum class TTReplace { Always, Depth, TwoDeep };
enum class TTReuse { Deeper, Exact };
enum class NullMove { Off, Fixed, Adaptive };
enum class AspirationResearch { Full, Widen };
enum class TimePolicy { Classic, Tournament };  // see time_manager.hpp

// The time manager's constants, in percent, as search keys so that SPSA can tune them
// (time_manager.hpp says what each does; the defaults are the values SPRT accepted).
struct TimeTuning {
    int start_percent = 60;         // tm_start: no new iteration past this share of the target
    int max_slice_percent = 400;    // tm_max: the hard limit, in slices (tournament)
    int stable_percent = 60;        // tm_stable: the target once the best move has held (tournament)
    friend bool operator==(const TimeTuning&, const TimeTuning&) = default;
};
enum class QsOrder { Captures, History };
enum class McTypes { Retype, Alternate };  // see node_type.hpp
enum class LmrFormula { Steps, Log };       // see SearchConfig::lmr_formula
enum class CounterMove { Off, Killer, History };  // see SearchConfig::countermove

// A frontier margin, in evaluation units: `opening` at the game's largest phase (and for a game
// without phases), `endgame` at phase 0, linear between. Off when `opening` is 0.
struct TaperedMargin {
    int opening = 0;
    int endgame = 0;

    static constexpr TaperedMargin constant(int margin) { return {margin, margin}; }
    constexpr bool on() const { return opening > 0; }
    constexpr int at(int phase, int max_phase) const {
        return (opening * phase + endgame * (max_phase - phase)) / max_phase;
    }
    friend bool operator==(const TaperedMargin&, const TaperedMargin&) = default;
};

// What `on` means for the frontier margins (opening:endgame): the least tapered margins that
// cover 99% of the nodes of every band of pieces in `loa-match margins --eval nnue` on
// data/margins/positions.txt (docs/results/margins/evals/margins-nnue.txt, measured with
// loa-net-1; SPSA and the SPRTs played them with loa-net-2). The best quiet move's lift at the
// 99th percentile grows from about 30 with 21-24 pieces to about 100 with 9-12, so one fixed
// margin is too wide early and too narrow late. The hand-written evaluation swings further: its
// margins, measured the same way, are 40:320, 50:250 and 50:340 (spell them out beside
// eval=hce).
inline constexpr TaperedMargin StandardFutility{30, 150};
inline constexpr TaperedMargin StandardExtFutility{50, 130};
inline constexpr TaperedMargin StandardRazoring{50, 190};
// Reverse futility pruning's margin per ply (rfp=on): a first guess from the futility margins
// above (what one quiet move may gain), to be measured.
inline constexpr TaperedMargin StandardRfp{50, 150};

struct SearchConfig {
    std::string preset = "ab";  // informational: the preset the switches started from

    bool pvs = false;

    bool aspiration = false;
    int aspiration_window = 50;
    AspirationResearch aspiration_research = AspirationResearch::Widen;

    bool tt = false;
    int tt_mb = 16;
    TTReplace tt_replace = TTReplace::TwoDeep;
    TTReuse tt_reuse = TTReuse::Deeper;

    // Static evaluations cached by key: can save time only, never changes a value or a node
    // count. Off in every preset: in LOA searches fewer than 1% of evaluations hit (the TT
    // already catches repeated interior nodes; quiescence leaves are nearly all distinct), and
    // the probe's cache miss costs more than it saves (docs/evaluation.md).
    bool eval_cache = false;
    int eval_cache_mb = 1;

    bool captures_first = false;  // order captures (by the game's knowledge) before quiet moves
    int killers = 0;              // killer moves kept per ply
    // The countermove heuristic: the reply that last refuted the previous move, tried after the
    // killers and searched as a killer (Killer: neither reduced nor pruned), or first of the
    // history band (History: reduced and pruned as any history-ordered move).
    CounterMove countermove = CounterMove::Off;
    bool refutation = false;      // previous iterations' PV moves per ply, tried early

    HistoryMode history = HistoryMode::None;
    std::optional<Increment> hh_inc;  // unset: 2^d for absolute (Schaeffer), 1 for relative (Winands)
    std::optional<Increment> bf_inc;  // unset: 1
    RhhUpdate rhh_update = RhhUpdate::All;
    bool history_captures = true;  // false: captures stay out of the history/butterfly tables
    bool history_aging = true;     // halve the tables between searches

    NullMove null_move = NullMove::Off;
    int null_r = 2;  // reduction for NullMove::Fixed
    bool null_verify = false;

    bool lmr = false;
    int lmr_min_depth = 3;
    int lmr_min_moves = 3;  // moves searched at full depth before reductions start
    // The reduction is two plies from lmr_deep_moves times lmr_min_moves moves on, where at
    // least lmr_deep_depth plies remain (one ply elsewhere): numbers for SPSA to tune.
    int lmr_deep_depth = 6;
    int lmr_deep_moves = 3;
    // Steps: the one- and two-ply reductions above. Log: the reduction grows with the depth and
    // the move's number, lmr_log_base/100 + ln(depth) * ln(move) / (lmr_log_div/100) plies,
    // rounded, one ply less at PV nodes (the form of Stockfish and most engines since about
    // 2010): a late move at depth 10 loses 3-4 plies where Steps takes 2. The same moves are
    // candidates under both (lmr_min_depth, lmr_min_moves, quiet history-band moves); the log
    // formula may reduce some of them by 0 (at PV nodes, at small depths and move numbers).
    LmrFormula lmr_formula = LmrFormula::Steps;
    int lmr_log_base = 75;
    int lmr_log_div = 225;
    // One ply more for a reduced move that has not been a node's best lately (its history count
    // is 0: never, or aged away between searches), under either formula; with history=absolute
    // or relative (butterfly boards count the other moves, and the switch leaves them alone).
    bool lmr_history = false;

    // Reverse futility pruning (static null-move pruning, Heinz's "futility" turned to beta): a
    // non-PV node with at most rfp_depth plies left whose static evaluation stands rfp_margin
    // times the depth above beta fails high on that evaluation, unsearched. Like the null move
    // it assumes the side to move can at least keep what it has; unlike it, nothing checks.
    // Not below an extended move, nor where the game says the side to move may lose at once
    // (search::has_threat), nor where the game's length draws the children or the side to move
    // can only pass. The margin tapers with the phase (per ply).
    TaperedMargin rfp_margin;
    int rfp_depth = 6;
    // Late move pruning (move-count pruning): at a non-PV node with at most lmp_depth plies
    // left, quiet history-band moves after lmp_base + depth^2 moves are skipped: not one that
    // ends the game, draws or leaves its side one move from winning (search::has_threat), not
    // before a searched move has scored above a proven loss, and nowhere the game says the side
    // to move may lose at once. 0: off.
    int lmp_base = 0;
    int lmp_depth = 3;
    // Internal iterative reduction: a PV or expected cut node of at least iir_depth plies with
    // no move from the table (there is a table: tt=on) is searched a ply shallower (its ordering is a guess; the next
    // iteration finds the table's move). 0: off.
    int iir_depth = 0;

    // Selective search at the frontier (Heinz; the seed on selective search), off by default:
    // with the static evaluation `margin` below alpha, quiet moves that do not end the game
    // are skipped at depth 1 (futility) and 2 (extended futility); at depth 3 the node is
    // searched a ply shallower (razoring). As in limited razoring, a node entered by an
    // extended move is neither razored nor pruned at depth 2. Each margin may taper with the
    // game's phase (PhasedGame), since one quiet move swings the evaluation more in a sparse
    // endgame: `loa margins` measures by how much.
    TaperedMargin futility_margin;
    TaperedMargin ext_futility_margin;
    TaperedMargin razor_margin;
    // Any of the three on: the search evaluates at frontier nodes and prunes by a margin.
    bool frontier_pruning() const { return futility_margin.on() || ext_futility_margin.on() || razor_margin.on(); }
    // Multi-cut (Björnsson and Marsland) at expected cut nodes: when `mc_cuts` of the first
    // `mc_moves` moves fail high on a search `mc_reduction` plies shallower, the node fails high.
    // `mc_types`: which nodes count as expected cut nodes (node_type.hpp).
    bool multicut = false;
    int mc_moves = 10;
    int mc_cuts = 3;
    int mc_reduction = 2;
    McTypes mc_types = McTypes::Retype;
    // Enhanced realization probability search (realization.hpp): a move costs log(P) / log(base)
    // plies, P its category's realization probability (the game must provide them: in LOA the
    // key rps=FILE), within [min, max]; values in hundredths (of a ply for min and max). LMR
    // stays out of it: ERPS does its reductions. The defaults won an equal-node screen in LOA
    // (docs/erps.md): likely moves (mostly captures) at half a ply, unlikely ones up to three.
    bool erps = false;
    int erps_base = 25;
    int erps_min = 50;
    int erps_max = 300;
    // The safeguard that makes RPS "enhanced": a reduced move above alpha searched again a full
    // ply below. Off: plain realization probability search (reductions only).
    bool erps_research = true;
    // A reduced move keeps at least one ply before quiescence where its plain depth had one (as
    // LMR's reductions do). Off: the equal-node screen preferred it off (docs/erps.md).
    bool erps_floor = false;

    int qsearch = 1;  // 0 off, 1 captures, 2 the game's stricter tactical rule ("quads" in LOA)
    int qsearch_plies = 4;  // longest quiescence line
    // How quiescence orders its moves: by the game's capture ranking (Captures), or by the
    // history tables of the main search, capture ranking breaking ties (History: the order of
    // the MIA papers, where one history table orders every move). Quiescence never updates
    // the tables either way.
    QsOrder qs_order = QsOrder::Captures;
    bool extensions = false;

    // Lazy SMP: threads searching the same root through one shared transposition table.
    // 1 is the deterministic single-threaded search.
    int threads = 1;

    // A proof-number solver in front of the search (solver::SolvingSearcher): up to this many
    // nodes a move (and a fifth of the planned time); a proven win is played at once. 0: off.
    int solver_nodes = 0;
    // Where the solver runs: only when the previous search of this game scored at least this
    // much for the side to move (it pays where the game is nearly decided, and its share of
    // the clock is lost everywhere else). Unset: before every search.
    std::optional<int> solver_score;

    // How a clock becomes a time per move (not a search feature: the engine and the match
    // runner's in-process players read it). Tournament is the default since its SPRTs accepted
    // at stc and ltc (docs/strength.md); classic stays for the lab and for resuming older runs.
    TimePolicy timeman = TimePolicy::Tournament;
    TimeTuning time_tuning;

    Increment hh_increment() const {
        if (hh_inc) return *hh_inc;
        return history == HistoryMode::Absolute ? Increment::TwoPowDepth : Increment::One;
    }
    Increment bf_increment() const { return bf_inc.value_or(Increment::One); }
    friend bool operator==(const SearchConfig&, const SearchConfig&) = default;
};

// The memory, in MB, that the tables of a search with `config` claim: the transposition table
// (one, shared by every thread), each thread's evaluation cache, and the solver's proof tree at
// its node budget (24 bytes a node). Move-ordering tables and the like are a few KB a thread.
double table_memory_mb(const SearchConfig& config);
// The same, said: "memory 48 MB: hash 16 MB + eval cache 1 MB x 32 threads".
std::string table_memory_text(const SearchConfig& config);
std::string_view to_string(Increment inc);
// "off", "<margin>" or "<opening>:<endgame>", as the keys futility, ext_futility, razoring take.
std::string to_string(const TaperedMargin& margin);

}  // namespace search
