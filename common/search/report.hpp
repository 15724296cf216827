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

inline std::string format_stats(const SearchStats& s) {
    return fmt::format(
        "nodes {} qnodes {} nps {:.0f} time_ms {:.0f} depth {} seldepth {} ebf {:.2f} tt_probes {} tt_hits {} "
        "tt_cutoffs {} cutoffs {} first_move_cutoff_rate {:.3f} pvs_researches {} aspiration_researches {} "
        "lmr_researches {} null_tries {} null_cutoffs {} futility_prunes {} razorings {} multicut_tries {} "
        "multicut_prunes {} erps_researches {} tt_claims_refused {}",
        s.nodes, s.qnodes, s.nps(), s.time_ms, s.depth, s.seldepth, s.ebf, s.tt_probes, s.tt_hits, s.tt_cutoffs,
        s.beta_cutoffs, s.first_move_cutoff_rate(), s.pvs_researches, s.aspiration_researches, s.lmr_researches,
        s.null_tries, s.null_cutoffs, s.futility_prunes, s.razorings, s.multicut_tries, s.multicut_prunes, s.erps_researches, s.tt_claims_refused);
}

}  // namespace search
