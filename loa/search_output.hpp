// UCI-style lines for LOA searches, shared by `loa analyze`, `loa bench` and the UCI front end.
#pragma once

#include <string>
#include <vector>

#include "common/search/report.hpp"
#include "common/search/search.hpp"
#include "loa/notation.hpp"

namespace loa {

inline std::string format_pv(const std::vector<Move>& pv) {
    std::string out;
    for (const Move m : pv) {
        if (!out.empty()) out += ' ';
        out += move_to_compact(m);
    }
    return out;
}

// How a decided score is written: "win N" / "loss N" in plies (loa analyze, loa bench), or UCI's
// "mate M" in moves (the UCI front end: what GUIs and python-chess parse).
enum class ScoreStyle { Plies, UciMate };

// "info depth D seldepth S [multipv K] score cp N [lowerbound|upperbound] nodes N nps N time MS hashfull H pv
// m1 m2 ..." (a bound as UCI writes a fail-high or a fail-low: the score is at least, or at most, N).
inline std::string format_info(const search::Iteration<Move>& it, ScoreStyle style = ScoreStyle::Plies,
                               search::Bound bound = search::Bound::Exact) {
    const double nps = it.time_ms > 0 ? static_cast<double>(it.nodes) * 1000.0 / it.time_ms : 0.0;
    const std::string score = style == ScoreStyle::UciMate ? search::format_uci_score(it.score) : search::format_score(it.score);
    const char* bound_word = bound == search::Bound::Lower ? " lowerbound" : bound == search::Bound::Upper ? " upperbound" : "";
    // "multipv K" only in a MultiPV search, where UCI GUIs expect it after seldepth.
    const std::string multipv = it.multipv > 0 ? fmt::format(" multipv {}", it.multipv) : std::string();
    return fmt::format("info depth {} seldepth {}{} score {}{} nodes {} nps {:.0f} time {:.0f} hashfull {} pv {}", it.depth,
                       it.seldepth, multipv, score, bound_word, it.nodes, nps, it.time_ms, it.hashfull, format_pv(it.pv));
}

// The line of the move played when it came from an unfinished iteration (empty otherwise): printed
// after the iterations' lines, so that the last PV a controller reads starts with the best move.
inline std::string format_unfinished_info(const search::SearchResult<Move>& r, ScoreStyle style = ScoreStyle::Plies) {
    return r.unfinished ? format_info(*r.unfinished, style, r.unfinished_bound) : std::string();
}

}  // namespace loa
