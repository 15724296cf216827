#include "matches/engine_spec.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/variant/keys.hpp"
#include "common/text.hpp"
#include "loa/engine/engine_options.hpp"
#include "loa/nnue/network.hpp"
#include "loa/realization.hpp"

namespace matches {
namespace {

using common::InputError;

double parse_seconds(std::string_view key, std::string_view value, const std::string& engine) {
    if (const auto v = common::parse_double(value); v && *v > 0) return *v;
    throw InputError(fmt::format("engine '{}': '{}' needs a positive number of seconds, not '{}'", engine, key, value));
}

// Whether a search config knows `key` (a bad value still counts: the parse names it later).
bool key_is_known(variant::VariantConfig& probe, std::string_view key, std::string_view value) {
    try {
        return variant::apply_variant_key(probe, key, value);
    } catch (const InputError&) {
        return true;
    }
}

// The UCI options of `loa uci` (loa/engine/session.cpp) that mean nothing to an engine the
// runner plays in its own process, with why: refused, never dropped without a word.
const std::vector<std::pair<std::string, std::string>> OptionsWithoutMeaningHere = {
    {"rules", "the rules are the match's: --rules"},
    {"ponder", "engines in process do not ponder"},
};

// An option.NAME=VALUE of an in-process engine, applied from the table `loa uci` applies
// `setoption` from (loa/engine/engine_options.hpp): the same names, bounds and messages.
void apply_builtin_option(EngineSpec& spec, const std::string& name, const std::string& value) {
    const std::string id = fmt::format("engine '{}': option.{}", spec.name, name);
    const std::string lowered = common::lowercase(name);
    if (const auto it = std::find_if(OptionsWithoutMeaningHere.begin(), OptionsWithoutMeaningHere.end(),
                                     [&](const auto& o) { return o.first == lowered; });
        it != OptionsWithoutMeaningHere.end())
        throw InputError(fmt::format("{}: not an option of an engine in process ({})", id, it->second));
    loa::engine::EngineSettings settings;
    settings.config = spec.config;
    settings.eval = spec.eval;
    settings.rps = spec.rps;
    settings.multipv = spec.multipv;
    settings.move_overhead_ms = static_cast<int>(std::lround(spec.move_overhead_ms));
    bool known = false;
    try {
        known = loa::engine::apply_engine_option(settings, name, value);
    } catch (const InputError& e) {
        throw InputError(fmt::format("{}: {}", id, e.what()));
    }
    if (!known) {
        const std::string near = loa::engine::nearest_option(name);
        throw InputError(fmt::format("{}: no such option of this engine{} (its options: loa uci, then uci)", id,
                                     near.empty() ? "" : fmt::format("; did you mean 'option.{}'?", near)));
    }
    spec.config = settings.config;
    spec.eval = settings.eval;
    spec.rps = settings.rps;
    spec.multipv = settings.multipv;
    spec.move_overhead_ms = settings.move_overhead_ms;
}

// The engine keys beside the search keys (name= is read first, option.NAME= is the engine's
// own), each declared once: parse_engine_spec reads the table, and so do its list of keys and
// its "did you mean". eval=, weights= and rps= are the options Eval and Rps of `loa uci`.
using KeySetter = std::function<void(EngineSpec&, std::string_view value, const std::string& engine)>;

void set_engine_option(EngineSpec& spec, std::string_view option, std::string_view value) {
    loa::engine::EngineSettings settings;
    settings.eval = spec.eval;
    settings.rps = spec.rps;
    loa::engine::apply_engine_option(settings, option, value);
    spec.eval = settings.eval;
    spec.rps = settings.rps;
}

const std::vector<std::pair<std::string, KeySetter>>& engine_keys() {
    static const std::vector<std::pair<std::string, KeySetter>> keys = {
        {"depth",
         [](EngineSpec& spec, std::string_view value, const std::string& id) {
             const auto v = common::parse_int(value);
             if (!v || *v < 1 || *v > 100) throw InputError(fmt::format("engine '{}': bad depth '{}' (1..100)", id, value));
             spec.depth = *v;
         }},
        {"nodes",
         [](EngineSpec& spec, std::string_view value, const std::string& id) {
             const auto v = common::parse_int64(value);
             if (!v || *v < 1) throw InputError(fmt::format("engine '{}': bad nodes '{}'", id, value));
             spec.nodes = static_cast<std::uint64_t>(*v);
         }},
        {"st", [](EngineSpec& spec, std::string_view value, const std::string& id) { spec.move_time_ms = 1000 * parse_seconds("st", value, id); }},
        {"tc",
         [](EngineSpec& spec, std::string_view value, const std::string& id) {
             spec.time_control = parse_time_control(value, fmt::format("engine '{}'", id));
         }},
        {"eval", [](EngineSpec& spec, std::string_view value, const std::string&) { set_engine_option(spec, "eval", value); }},
        {"weights", [](EngineSpec& spec, std::string_view value, const std::string&) { set_engine_option(spec, "weights", value); }},
        {"rps", [](EngineSpec& spec, std::string_view value, const std::string&) { set_engine_option(spec, "rps", value); }},
        {"cmd", [](EngineSpec& spec, std::string_view value, const std::string&) { spec.cmd = std::string(value); }},
        {"args",
         [](EngineSpec& spec, std::string_view value, const std::string&) {
             for (const std::string_view a : common::split(value, ' '))
                 if (!a.empty()) spec.args.emplace_back(a);
         }},
        {"proto",
         [](EngineSpec& spec, std::string_view value, const std::string& id) {
             if (value != "uci" && value != "gtp") throw InputError(fmt::format("engine '{}': proto must be uci or gtp, not '{}'", id, value));
             spec.proto = std::string(value);
         }},
        {"position",
         [](EngineSpec& spec, std::string_view value, const std::string& id) {
             if (value == "auto") spec.position_command = PositionCommand::Auto;
             else if (value == "startpos") spec.position_command = PositionCommand::StartPos;
             else if (value == "fen") spec.position_command = PositionCommand::Fen;
             else throw InputError(fmt::format("engine '{}': position must be auto, startpos or fen, not '{}'", id, value));
         }},
        {"timeout",
         [](EngineSpec& spec, std::string_view value, const std::string& id) { spec.move_timeout_ms = 1000 * parse_seconds("timeout", value, id); }},
    };
    return keys;
}

const KeySetter* find_engine_key(std::string_view name) {
    for (const auto& [key, set] : engine_keys())
        if (key == name) return &set;
    return nullptr;
}

}  // namespace

std::optional<TimeControl> named_time_control(std::string_view name) {
    if (name == "stc") return TimeControl{5000, 50};
    if (name == "ltc") return TimeControl{20000, 200};
    return std::nullopt;
}

TimeControl parse_time_control(std::string_view text, const std::string& context) {
    if (const auto named = named_time_control(text)) return *named;
    const auto plus = text.find('+');
    // BASE is seconds, or minutes:seconds as cutechess writes it (tc=1:30+1 is 90 s + 1 s).
    const std::string_view base_text = text.substr(0, plus);
    std::optional<double> base = common::parse_double(base_text);
    if (const auto colon = base_text.find(':'); colon != std::string_view::npos) {
        const auto minutes = common::parse_int(base_text.substr(0, colon));
        const auto seconds = common::parse_double(base_text.substr(colon + 1));
        base = minutes && *minutes >= 0 && seconds && *seconds >= 0 && *seconds < 60 ? std::optional(60.0 * *minutes + *seconds)
                                                                                   : std::nullopt;
    }
    const auto increment = plus == std::string_view::npos ? std::optional<double>(0) : common::parse_double(text.substr(plus + 1));
    if (!base || !increment || !(*base > 0) || !(*increment >= 0) || !std::isfinite(*base) || !std::isfinite(*increment))
        throw InputError(fmt::format("{}: tc must be stc, ltc or BASE+INC in seconds (BASE > 0; or M:SS+INC), not '{}'", context, text));
    return TimeControl{1000 * *base, 1000 * *increment};
}

bool has_limit(std::string_view text) {
    for (const auto& [key, value] : common::parse_key_values(text, "engine"))
        if (key == "depth" || key == "nodes" || key == "st" || key == "tc") return true;
    return false;
}

std::string EngineSpec::limit_text() const {
    std::string out;
    auto add = [&](const std::string& s) {
        if (!out.empty()) out += ',';
        out += s;
    };
    if (depth) add(fmt::format("depth={}", depth));
    if (nodes) add(fmt::format("nodes={}", nodes));
    if (move_time_ms > 0) add(fmt::format("st={:g}", move_time_ms / 1000));
    if (time_control) add(fmt::format("tc={:g}+{:g}", time_control->base_ms / 1000, time_control->increment_ms / 1000));
    return out;
}

EngineSpec parse_engine_spec(std::string_view text, int index) {
    EngineSpec spec;
    spec.text = std::string(text);
    const auto items = common::parse_key_values(text, "engine");
    for (const auto& [key, value] : items)
        if (key == "name") spec.name = std::string(value);
    if (spec.name.empty()) spec.name = fmt::format("engine{}", index + 1);
    if (common::has_control_character(spec.name))
        throw InputError("engine name: it must not hold control characters (a newline, a tab): records and reports name it");
    // The search part is parsed like every other variant string: preset first, then overrides.
    std::string search_part;
    bool has_preset = false, has_search_keys = false;
    for (const auto& [key, value] : items) {
        const std::string id = spec.name;
        if (key == "name") continue;
        if (const KeySetter* set = find_engine_key(key)) {
            (*set)(spec, value, id);
        } else if (key.starts_with("option.")) {
            spec.options.emplace_back(key.substr(7), value);
        } else {
            if (variant::VariantConfig probe; !value.empty() && key != "preset" && !key_is_known(probe, key, value)) {
                std::vector<std::string> known = {"name"};
                std::string listed = "name";
                for (const auto& [name, set] : engine_keys()) {
                    known.push_back(name);
                    listed += ", " + name;
                }
                for (std::string& name : variant::variant_key_names()) known.push_back(std::move(name));
                const std::string near = common::nearest_word(key, known);
                throw InputError(fmt::format("engine '{}': unknown key '{}'{} (engine keys: {}, option.NAME; search keys: loa variants)", id, key,
                                             near.empty() ? "" : fmt::format("; did you mean '{}'?", near), listed));
            }
            has_preset = has_preset || key == "preset" || value.empty();
            has_search_keys = true;
            search_part += fmt::format("{}{}{}{}", search_part.empty() ? "" : ",", key, value.empty() ? "" : "=", value);
        }
    }
    // Switches given without a preset apply on top of the strongest one, `full`.
    if (!has_preset) search_part = "preset=full" + (search_part.empty() ? "" : "," + search_part);
    try {
        spec.config = variant::parse_variant(search_part);
    } catch (const InputError& e) {
        throw InputError(fmt::format("engine '{}': {}", spec.name, e.what()));
    }
    if (!spec.external())
        for (const auto& [name, value] : spec.options) apply_builtin_option(spec, name, value);
    if (spec.config.erps && spec.rps.empty())
        throw InputError(fmt::format("engine '{}': erps=on needs rps=FILE (realization probabilities from loa-match learn-rps)", spec.name));
    const bool mcts_knowledge = spec.config.algorithm == variant::Algorithm::Mcts &&
                                (spec.config.mcts.bias_percent > 0 || spec.config.mcts.playout == mcts::Playout::Weighted);
    if (mcts_knowledge && spec.rps.empty() && !spec.external())
        throw InputError(fmt::format("engine '{}': mcts_bias and playout=weighted need rps=FILE (realization probabilities from "
                                     "loa-match learn-rps, e.g. data/rps/selfplay-1.json)",
                                     spec.name));
    if (!spec.rps.empty() && spec.external())
        throw InputError(fmt::format("engine '{}': rps= applies to in-process engines", spec.name));
    if (spec.external() && has_search_keys)
        throw InputError(fmt::format("engine '{}': search keys apply to in-process engines; pass options with option.NAME=", spec.name));
    if (spec.external() && spec.proto == "gtp" && !spec.time_control)
        throw InputError(fmt::format("engine '{}': GTP engines play with a clock: give tc=", spec.name));
    if (!spec.depth && !spec.nodes && spec.move_time_ms <= 0 && !spec.time_control)
        throw InputError(fmt::format("engine '{}' has no limit: give depth=, nodes=, st= or tc=", spec.name));
    if (spec.eval != "full" && spec.eval != "hce" && spec.eval != "nnue" && spec.eval != "hand" && spec.eval != "concentration" && spec.eval != "simple" &&
        spec.eval != "material" && !spec.eval.ends_with(".json") && !spec.eval.ends_with(".nnue"))
        throw InputError(fmt::format(
            "engine '{}': eval must be full (= hce), nnue, hand, concentration, simple, material, a .json weights file or a .nnue network, not '{}'",
            spec.name, spec.eval));
    if (spec.eval.ends_with(".nnue") && spec.external())
        throw InputError(fmt::format("engine '{}': eval= applies to in-process engines", spec.name));
    if (spec.eval == "hce") spec.eval = "full";  // one name in state files, so either resumes the other
    return spec;
}

void check_engine_files(const EngineSpec& spec) {
    try {
        if (!spec.rps.empty()) (void)loa::load_realization_file(spec.rps);
        if (spec.eval.ends_with(".nnue")) (void)loa::nnue::load_network_file(spec.eval);
    } catch (const InputError& e) {
        throw InputError(fmt::format("engine '{}': {}", spec.name, e.what()));
    }
}

}  // namespace matches
