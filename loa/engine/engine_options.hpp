// The engine's options beside the search keys (Hash, Variant, Eval, Rps, Rules, MoveOverhead,
// Threads, MultiPV), each declared once: its name and other spellings, type, range, help text
// and the setting it writes, as common/variant/keys.hpp declares the search keys. `loa
// uci` registers and applies them from this table (Session), `loa gtp`'s set_option too, and the
// match runner applies an in-process engine's option.NAME= with it (matches/engine_spec.cpp):
// one list of names, one set of bounds, one message for a bad value.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "common/variant/config.hpp"
#include "common/variant/keys.hpp"
#include "loa/rules.hpp"
#include "loa/search_game.hpp"

namespace loa::engine {

// The most a front end keeps back per move for communication.
inline constexpr int MaxMoveOverheadMs = 5000;
// The most lines a MultiPV search shows.
inline constexpr int MaxMultiPv = 64;
// The largest Hash, in MB.
inline constexpr int MaxHashMb = 65536;

// What the options set. The files Eval and Rps name are read by whoever applies them (the
// session at once, the match runner before its first game): here they are names.
struct EngineSettings {
    variant::VariantConfig config = variant::preset_variant("full");
    std::string eval = std::string(DefaultEval);
    std::string rps;
    RuleSet rules;
    int move_overhead_ms = 30;
    int multipv = 1;
};

// An option as a protocol registers it: typed as its search key is (common/variant/keys.hpp).
struct OptionInfo {
    std::string name;
    std::string value;  // current
    std::string help;
    variant::KeyKind kind = variant::KeyKind::Text;
    int min = 0, max = 0;              // Integer
    std::vector<std::string> choices;  // Choice
};

struct EngineOption {
    OptionInfo info;                     // name, help, kind and range (its value: `get`)
    std::vector<std::string> spellings;  // other names it is set by, lower case ("weights")
    bool listed = true;                  // registered (false: a spelling of another's, e.g. Preset)
    bool keeps_searcher = false;         // the searcher and its tables stay (MultiPV: lines shown)
    // Writes the value; throws common::InputError with what the option takes.
    std::function<void(EngineSettings&, std::string_view)> set;
    std::function<std::string(const EngineSettings&)> get;
};

const std::vector<EngineOption>& engine_options();
// The option called `name` in any case and any of its spellings, or nullptr (a search key, or
// no option at all).
const EngineOption* find_engine_option(std::string_view name);

// Sets the option or search key `name` (any case; "<empty>", as UCI GUIs write an empty string,
// is empty). Returns false when there is no such option; throws common::InputError for a bad
// value, `settings` then as it was.
bool apply_engine_option(EngineSettings& settings, std::string_view name, std::string_view value);

// Every registered option with its current value: the table's, then each search key (but
// preset and threads, which Variant and Threads are).
std::vector<OptionInfo> option_infos(const EngineSettings& settings);

// The registered names.
std::vector<std::string> option_names();
// The registered name nearest to `name` (any case), for "did you mean"; empty when none is near.
std::string nearest_option(std::string_view name);

}  // namespace loa::engine
