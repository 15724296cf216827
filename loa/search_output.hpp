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

// "info depth D seldepth S score cp N nodes N nps N time MS hashfull H pv m1 m2 ..."
inline std::string format_info(const search::Iteration<Move>& it) {
    const double nps = it.time_ms > 0 ? static_cast<double>(it.nodes) * 1000.0 / it.time_ms : 0.0;
    return fmt::format("info depth {} seldepth {} score {} nodes {} nps {:.0f} time {:.0f} hashfull {} pv {}", it.depth,
                       it.seldepth, search::format_score(it.score), it.nodes, nps, it.time_ms, it.hashfull,
                       format_pv(it.pv));
}

}  // namespace loa
