// Statistics of one search, exposed to callers and printed by the tools.
#pragma once

#include <cstdint>

namespace search {

struct SearchStats {
    std::uint64_t nodes = 0;         // every node visited, quiescence included
    std::uint64_t qnodes = 0;        // quiescence nodes
    std::uint64_t tt_probes = 0;
    std::uint64_t tt_hits = 0;
    std::uint64_t tt_cutoffs = 0;
    std::uint64_t tt_claims_refused = 0;  // decisive entries beyond the ply limit here (cut down to a draw bound)
    std::uint64_t beta_cutoffs = 0;
    std::uint64_t first_move_cutoffs = 0;
    std::uint64_t pvs_researches = 0;
    std::uint64_t aspiration_researches = 0;
    std::uint64_t lmr_researches = 0;
    std::uint64_t erps_researches = 0;   // moves ERPS searched shallower, searched again a full ply below
    std::uint64_t null_tries = 0;
    std::uint64_t null_cutoffs = 0;
    std::uint64_t futility_prunes = 0;   // quiet moves skipped at frontier / pre-frontier nodes
    std::uint64_t razorings = 0;         // pre-pre-frontier nodes searched a ply shallower
    std::uint64_t multicut_tries = 0;
    std::uint64_t multicut_prunes = 0;
    std::uint64_t rfp_cutoffs = 0;      // nodes failed high on their static evaluation (reverse futility)
    std::uint64_t lmp_prunes = 0;       // late quiet moves skipped by their number
    std::uint64_t iir_reductions = 0;   // nodes without a table move searched a ply shallower
    int depth = 0;     // last completed iteration
    int seldepth = 0;  // deepest ply reached
    double time_ms = 0;
    double ebf = 0;    // effective branching factor: nodes of the last iteration / the one before

    double first_move_cutoff_rate() const {
        return beta_cutoffs ? static_cast<double>(first_move_cutoffs) / static_cast<double>(beta_cutoffs) : 0;
    }
    double nps() const { return time_ms > 0 ? static_cast<double>(nodes) * 1000.0 / time_ms : 0; }
};

}  // namespace search
