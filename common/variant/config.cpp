#include "common/variant/config.hpp"

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/search/presets.hpp"
#include "common/text.hpp"
#include "common/variant/keys.hpp"

namespace variant {
namespace {

using namespace search;  // the alpha-beta switches the presets turn on

using common::InputError;

// Turns on one preset feature token: MCTS's here, the alpha-beta ones in search/presets.hpp.
void apply_token(VariantConfig& c, std::string_view token) {
    if (token == "mcts") {
        c.algorithm = Algorithm::Mcts;
        return;
    }
    if (search::apply_preset_token(c, token)) return;
    std::vector<std::string> known(std::begin(search::AlphaBetaPresetTokens), std::end(search::AlphaBetaPresetTokens));
    known.push_back("mcts");
    std::string names;
    for (const std::string& name : known) names += (names.empty() ? "" : " ") + name;
    const std::string near = common::nearest_word(token, known);
    throw InputError(fmt::format("search config: unknown preset token '{}'{} (known: {})", token,
                                 near.empty() ? "" : fmt::format("; did you mean '{}'?", near), names));
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
