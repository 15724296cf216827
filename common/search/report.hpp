// Text forms of search output shared by every front end.
#pragma once

#include <string>

#include <fmt/format.h>

#include "common/search/score.hpp"
#include "common/search/stats.hpp"

namespace search {

// UCI-style score: "cp N" for an evaluation, "win N" / "loss N" with N plies to the end.
inline std::string format_score(Score s) {
    if (s >= WinThreshold) return fmt::format("win {}", plies_to_end(s));
    if (s <= -WinThreshold) return fmt::format("loss {}", -plies_to_end(s));
    return fmt::format("cp {}", s);
}

// UCI's own score, as GUIs and python-chess parse it: "cp N", or "mate M" with M moves (not
// plies) to the end, negative when the engine loses. A win in N plies takes (N + 1) / 2 of the
// engine's moves; a loss in N plies comes after N / 2 of them (rounded up: in LOA a move can
// connect the opponent's pieces, a loss on the engine's own move).
inline int mate_moves(Score s) {
    const int plies = plies_to_end(s);
    return plies > 0 ? (plies + 1) / 2 : -((-plies + 1) / 2);
}
inline std::string format_uci_score(Score s) {
    if (s >= WinThreshold || s <= -WinThreshold) return fmt::format("mate {}", mate_moves(s));
    return fmt::format("cp {}", s);
}
// The score a "mate M" stands for (the nearest in plies: a win on the engine's M-th move, a
// loss on the opponent's |M|-th; "mate 0": lost now). An M beyond the decided range (another
// engine's) is the least decided score.
inline Score score_of_mate(int moves) {
    const int most = MaxPly / 2;
    moves = moves > most ? most : moves < -most ? -most : moves;
    return moves > 0 ? win_in(2 * moves - 1) : loss_in(-2 * moves);
}

inline std::string format_stats(const SearchStats& s) {
    return fmt::format(
        "nodes {} qnodes {} nps {:.0f} time_ms {:.0f} depth {} seldepth {} ebf {:.2f} tt_probes {} tt_hits {} "
        "tt_cutoffs {} cutoffs {} first_move_cutoff_rate {:.3f} pvs_researches {} aspiration_researches {} "
        "lmr_researches {} null_tries {} null_cutoffs {} futility_prunes {} razorings {} multicut_tries {} "
        "multicut_prunes {} erps_researches {} tt_claims_refused {} rfp_cutoffs {} lmp_prunes {} iir_reductions {}",
        s.nodes, s.qnodes, s.nps(), s.time_ms, s.depth, s.seldepth, s.ebf, s.tt_probes, s.tt_hits, s.tt_cutoffs,
        s.beta_cutoffs, s.first_move_cutoff_rate(), s.pvs_researches, s.aspiration_researches, s.lmr_researches,
        s.null_tries, s.null_cutoffs, s.futility_prunes, s.razorings, s.multicut_tries, s.multicut_prunes, s.erps_researches, s.tt_claims_refused,
        s.rfp_cutoffs, s.lmp_prunes, s.iir_reductions);
}

}  // namespace search
