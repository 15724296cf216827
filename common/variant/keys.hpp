// The search keys, each described once: its name, the kind and range of its values, its help
// text and the VariantConfig field it reads and writes. Everything that speaks of keys is driven
// from this table: parse_variant and to_string, `loa variants`, help texts, and the typed
// options a UCI engine registers (a switch is a `check`, an integer a `spin`, a choice a `combo`).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/variant/config.hpp"

namespace variant {

enum class KeyKind {
    Switch,   // on|off (UCI check: true|false)
    Integer,  // an integer in [min, max] (UCI spin)
    Choice,   // one word of `choices` (UCI combo)
    Text,     // anything else: "off|on|<MB>", margins, presets (UCI string)
};

// Which searcher a key configures. The canonical text lists a key only when it applies to the
// variant's algorithm, so that the texts of alpha-beta variants (every saved run's identity)
// stay as they were before MCTS existed; the key `algorithm` itself is listed for MCTS only.
enum class KeyScope { Both, AlphaBeta, Mcts };

struct VariantKey {
    std::string name;
    KeyKind kind = KeyKind::Text;
    KeyScope scope = KeyScope::AlphaBeta;
    std::string values;  // the accepted values as the help shows them: "on|off", "0..8", "none|absolute|..."
    std::string help;
    int min = 0, max = 0;              // Integer
    std::vector<std::string> choices;  // Choice
    // Sets the field from a value text; throws common::InputError naming the key and what it takes.
    std::function<void(VariantConfig&, std::string_view)> set;
    // The field's value as canonical text, the form `set` reads back.
    std::function<std::string(const VariantConfig&)> get;
};

// Every key, in the order of to_string(VariantConfig).
const std::vector<VariantKey>& variant_keys();
// Whether `key` configures the searcher `config` names (and so is listed in its text).
bool key_applies(const VariantKey& key, const VariantConfig& config);
// The key called `name`, or nullptr.
const VariantKey* find_variant_key(std::string_view name);
// The names alone, for "did you mean".
std::vector<std::string> variant_key_names();

}  // namespace variant
