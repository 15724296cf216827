#include "common/variant/config.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/text.hpp"
#include "common/variant/keys.hpp"

namespace variant {
namespace {

using namespace search;  // the alpha-beta switches the presets turn on

using common::InputError;

// Turns on one preset feature token.
void apply_token(VariantConfig& c, std::string_view token) {
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

VariantConfig preset_variant(std::string_view preset) {
    VariantConfig c;
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

bool apply_variant_key(VariantConfig& c, std::string_view key, std::string_view value) {
    const VariantKey* k = find_variant_key(key);
    if (!k) return false;
    k->set(c, value);
    return true;
}

VariantConfig parse_variant(std::string_view spec) {
    const auto items = common::parse_key_values(spec, "search config");
    // A bare item ("pvs+tt") names the preset, like preset=pvs+tt.
    auto is_preset = [](std::string_view key, std::string_view value) { return key == "preset" || value.empty(); };
    VariantConfig c;
    // The preset is the base whatever its place in the string; other keys override it.
    for (const auto& [key, value] : items)
        if (is_preset(key, value)) c = preset_variant(value.empty() ? key : value);
    for (const auto& [key, value] : items) {
        if (is_preset(key, value)) continue;
        if (!apply_variant_key(c, key, value)) {
            const std::string near = common::nearest_word(key, variant_key_names());
            throw InputError(fmt::format("search config: unknown key '{}'{} (the keys: loa variants)", key,
                                         near.empty() ? "" : fmt::format("; did you mean '{}'?", near)));
        }
    }
    // A key of the other searcher would change nothing, silently. (A UCI GUI sets keys one by
    // one through apply_variant_key, which takes them all: it sends every option it shows.)
    for (const auto& [key, value] : items) {
        const VariantKey* k = is_preset(key, value) || key == "algorithm" ? nullptr : find_variant_key(key);
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

std::string to_string(const VariantConfig& c) {
    std::string text;
    for (const VariantKey& key : variant_keys())
        if (key_applies(key, c)) text += fmt::format("{}{}={}", text.empty() ? "" : ",", key.name, key.get(c));
    return text;
}

std::string preset_and_changes(const VariantConfig& c) {
    VariantConfig preset;
    try {
        preset = preset_variant(c.preset);
    } catch (const InputError&) {
        return to_string(c);  // no preset to start from (a config built key by key): every key
    }
    std::string text = c.preset;
    for (const VariantKey& key : variant_keys())
        if (key.name != "preset" && key_applies(key, c) && key.get(c) != key.get(preset))
            text += fmt::format(",{}={}", key.name, key.get(c));
    return text;
}

const search::SearchConfig& alpha_beta(const VariantConfig& c) {
    if (c.algorithm != Algorithm::AlphaBeta)
        throw common::InputError("this runs the alpha-beta search, and the variant is MCTS (algorithm=mcts)");
    return c;
}

double table_memory_mb(const VariantConfig& c) {
    if (c.algorithm == Algorithm::Mcts) return mcts_memory_mb(c.mcts);
    return search::table_memory_mb(c);
}

std::string table_memory_text(const VariantConfig& c) {
    if (c.algorithm == Algorithm::Mcts)
        return fmt::format("memory {:.0f} MB: MCTS tree {} MB{}", table_memory_mb(c), c.mcts.tree_mb,
                           c.mcts.reuse ? " + its reuse map 1/8" : "");
    return search::table_memory_text(c);
}

}  // namespace variant
