#include "common/search/config.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/search/tt.hpp"

namespace search {

std::string to_string(const TaperedMargin& m) {
    if (!m.on()) return "off";
    return m.endgame == m.opening ? std::to_string(m.opening) : fmt::format("{}:{}", m.opening, m.endgame);
}

std::string_view to_string(Increment inc) {
    switch (inc) {
        case Increment::One: return "1";
        case Increment::Depth: return "d";
        case Increment::DepthSquared: return "d2";
        case Increment::TwoPowDepth: return "2d";
    }
    return "?";
}

double table_memory_mb(const SearchConfig& c) {
    // The table, and the PV lines kept beside it (pv_store.hpp).
    const double tt = c.tt ? c.tt_mb + TranspositionTable::line_megabytes(static_cast<std::size_t>(c.tt_mb)) : 0;
    const double eval_cache = c.eval_cache ? static_cast<double>(std::max(1, c.threads)) * c.eval_cache_mb : 0;
    const double solver = 24.0 * c.solver_nodes / (1024 * 1024);
    return tt + eval_cache + solver;
}

std::string table_memory_text(const SearchConfig& c) {
    std::string parts;
    auto add = [&](const std::string& part) { parts += (parts.empty() ? "" : " + ") + part; };
    if (c.tt) add(fmt::format("hash {} MB + PV lines {:.1f} MB", c.tt_mb, TranspositionTable::line_megabytes(static_cast<std::size_t>(c.tt_mb))));
    if (c.eval_cache) add(fmt::format("eval cache {} MB x {} thread{}", c.eval_cache_mb, std::max(1, c.threads), c.threads > 1 ? "s" : ""));
    if (c.solver_nodes > 0) add(fmt::format("solver {:.0f} MB", 24.0 * c.solver_nodes / (1024 * 1024)));
    return fmt::format("memory {:.0f} MB{}{}", table_memory_mb(c), parts.empty() ? "" : ": ", parts);
}

}  // namespace search
