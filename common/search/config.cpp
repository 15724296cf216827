#include "common/search/config.hpp"
#include "common/search/config_keys.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/search/tt.hpp"
#include "common/text.hpp"

namespace search {
namespace {

using common::InputError;

// Turns on one preset feature token.
void apply_token(SearchConfig& c, std::string_view token) {
    if (token == "ab") return;
    if (token == "mcts") {
        c.algorithm = Algorithm::Mcts;
        return;
    }
    if (token == "pvs") c.pvs = true;
    else if (token == "asp") c.aspiration = true;
    else if (token == "tt") c.tt = true;
    else if (token == "killers") c.killers = 2;
    else if (token == "hh") c.history = HistoryMode::Absolute;
    else if (token == "bf") c.history = HistoryMode::Butterfly;
    else if (token == "rhh") c.history = HistoryMode::Relative;
    else if (token == "ref") c.refutation = true;
    else if (token == "caps") c.captures_first = true;
    else if (token == "null") c.null_move = NullMove::Adaptive;
    else if (token == "lmr") c.lmr = true;
    else if (token == "ext") c.extensions = true;
    else if (token == "frontier") {
        c.futility_margin = StandardFutility;
        c.ext_futility_margin = StandardExtFutility;
        c.razor_margin = StandardRazoring;
    } else if (token == "tuned") {
        // The numbers SPSA tuned on `full` with the network (net2-spsa, docs/spsa.md): LMR's, the
        // aspiration window and the time manager's. The other presets keep the values they
        // started from, the struct's defaults.
        c.lmr_min_depth = 2;
        c.lmr_min_moves = 4;
        c.lmr_deep_depth = 4;
        c.lmr_deep_moves = 2;
        c.aspiration_window = 27;
        c.time_tuning = TimeTuning{.start_percent = 64, .max_slice_percent = 440, .stable_percent = 68};
    } else if (token == "full") {
        // The frontier trio joined `full` when its SPRTs accepted (docs/strength.md): +19.4 Elo
        // at stc, +16.1 at ltc; the tuned numbers with loa-net-2 (rows 27 and 28).
        for (const char* t : {"pvs", "asp", "tt", "killers", "rhh", "caps", "null", "lmr", "frontier", "tuned"}) apply_token(c, t);
    } else {
        const std::string near = common::nearest_word(
            token, {"ab", "pvs", "asp", "tt", "killers", "hh", "bf", "rhh", "ref", "caps", "null", "lmr", "ext", "frontier", "tuned", "full", "mcts"});
        throw InputError(fmt::format(
            "search config: unknown preset token '{}'{} (known: ab pvs asp tt killers hh bf rhh ref caps null lmr ext frontier tuned full mcts)",
            token, near.empty() ? "" : fmt::format("; did you mean '{}'?", near)));
    }
}

}  // namespace

Increment SearchConfig::hh_increment() const {
    if (hh_inc) return *hh_inc;
    return history == HistoryMode::Absolute ? Increment::TwoPowDepth : Increment::One;
}

Increment SearchConfig::bf_increment() const { return bf_inc.value_or(Increment::One); }

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

SearchConfig preset_config(std::string_view preset) {
    SearchConfig c;
    const std::string_view name = common::trim(preset);
    if (name.empty()) throw InputError("search config: empty preset name");
    const auto tokens = common::split(name, '+');
    for (const std::string_view token : tokens) apply_token(c, common::trim(token));
    // The alpha-beta tokens would switch on what MCTS never reads.
    if (c.algorithm == Algorithm::Mcts && tokens.size() > 1)
        throw InputError(fmt::format("search config: the preset mcts stands alone, not in '{}' (its keys: loa variants)", name));
    c.preset = std::string(name);
    return c;
}

bool apply_search_option(SearchConfig& c, std::string_view key, std::string_view value) {
    const SearchKey* k = find_search_key(key);
    if (!k) return false;
    k->set(c, value);
    return true;
}

SearchConfig parse_search_config(std::string_view spec) {
    const auto items = common::parse_key_values(spec, "search config");
    // A bare item ("pvs+tt") names the preset, like preset=pvs+tt.
    auto is_preset = [](std::string_view key, std::string_view value) { return key == "preset" || value.empty(); };
    SearchConfig c;
    // The preset is the base whatever its place in the string; other keys override it.
    for (const auto& [key, value] : items)
        if (is_preset(key, value)) c = preset_config(value.empty() ? key : value);
    for (const auto& [key, value] : items) {
        if (is_preset(key, value)) continue;
        if (!apply_search_option(c, key, value)) {
            const std::string near = common::nearest_word(key, search_key_names());
            throw InputError(fmt::format("search config: unknown key '{}'{} (the keys: loa variants)", key,
                                         near.empty() ? "" : fmt::format("; did you mean '{}'?", near)));
        }
    }
    // A key of the other searcher would change nothing, silently. (A UCI GUI sets keys one by
    // one through apply_search_option, which takes them all: it sends every option it shows.)
    for (const auto& [key, value] : items) {
        const SearchKey* k = is_preset(key, value) || key == "algorithm" ? nullptr : find_search_key(key);
        if (k && !key_applies(*k, c))
            throw InputError(c.algorithm == Algorithm::Mcts
                                 ? fmt::format("search config: '{}' is an alpha-beta key, and this variant is MCTS (algorithm=mcts)", key)
                                 : fmt::format("search config: '{}' is an MCTS key, and this variant is alpha-beta (add preset=mcts)", key));
    }
    // Multi-cut could then never fire, yet would pay for its reduced searches at every cut node.
    if (c.mc_cuts > c.mc_moves)
        throw InputError(fmt::format("search config: mc_cuts ({}) must not exceed mc_moves ({})", c.mc_cuts, c.mc_moves));
    // A gate without the solver it gates would change nothing, silently.
    if (c.solver_score && c.solver_nodes == 0)
        throw InputError("search config: solver_score gates the solver, which is off: add solver=<nodes>");
    return c;
}

std::string to_string(const SearchConfig& c) {
    std::string text;
    for (const SearchKey& key : search_keys())
        if (key_applies(key, c)) text += fmt::format("{}{}={}", text.empty() ? "" : ",", key.name, key.get(c));
    return text;
}

std::string preset_and_changes(const SearchConfig& c) {
    SearchConfig preset;
    try {
        preset = preset_config(c.preset);
    } catch (const InputError&) {
        return to_string(c);  // no preset to start from (a config built key by key): every key
    }
    std::string text = c.preset;
    for (const SearchKey& key : search_keys())
        if (key.name != "preset" && key_applies(key, c) && key.get(c) != key.get(preset))
            text += fmt::format(",{}={}", key.name, key.get(c));
    return text;
}

double table_memory_mb(const SearchConfig& c) {
    if (c.algorithm == Algorithm::Mcts) return mcts_memory_mb(c.mcts);
    // The table, and the PV lines kept beside it (pv_store.hpp).
    const double tt = c.tt ? c.tt_mb + TranspositionTable::line_megabytes(static_cast<std::size_t>(c.tt_mb)) : 0;
    const double eval_cache = c.eval_cache ? static_cast<double>(std::max(1, c.threads)) * c.eval_cache_mb : 0;
    const double solver = 24.0 * c.solver_nodes / (1024 * 1024);
    return tt + eval_cache + solver;
}

std::string table_memory_text(const SearchConfig& c) {
    if (c.algorithm == Algorithm::Mcts)
        return fmt::format("memory {:.0f} MB: MCTS tree {} MB{}", table_memory_mb(c), c.mcts.tree_mb,
                           c.mcts.reuse ? " + its reuse map 1/8" : "");
    std::string parts;
    auto add = [&](const std::string& part) { parts += (parts.empty() ? "" : " + ") + part; };
    if (c.tt) add(fmt::format("hash {} MB + PV lines {:.1f} MB", c.tt_mb, TranspositionTable::line_megabytes(static_cast<std::size_t>(c.tt_mb))));
    if (c.eval_cache) add(fmt::format("eval cache {} MB x {} thread{}", c.eval_cache_mb, std::max(1, c.threads), c.threads > 1 ? "s" : ""));
    if (c.solver_nodes > 0) add(fmt::format("solver {:.0f} MB", 24.0 * c.solver_nodes / (1024 * 1024)));
    return fmt::format("memory {:.0f} MB{}{}", table_memory_mb(c), parts.empty() ? "" : ": ", parts);
}

}  // namespace search
