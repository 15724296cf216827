#include "matches/engine_spec.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/search/config_keys.hpp"
#include "common/text.hpp"
#include "loa/engine/session.hpp"
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
bool key_is_known(search::SearchConfig& probe, std::string_view key, std::string_view value) {
    try {
        return search::apply_search_option(probe, key, value);
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

// An option.NAME=VALUE of an in-process engine, applied as `loa uci` applies `setoption`
// (loa/engine/session.cpp), within the same bounds.
void apply_builtin_option(EngineSpec& spec, const std::string& raw_name, const std::string& value) {
    const std::string name = common::lowercase(raw_name);
    const std::string id = fmt::format("engine '{}': option.{}", spec.name, raw_name);
    auto whole_number = [&](int low, int high) {
        const auto v = common::parse_int(value);
        if (!v || *v < low || *v > high) throw InputError(fmt::format("{}: needs a whole number {}..{}, not '{}'", id, low, high, value));
        return *v;
    };
    if (name == "hash") {  // the main table: the transposition table, or MCTS's tree
        const int mb = whole_number(1, loa::engine::MaxHashMb);
        spec.config.tt = true;
        spec.config.tt_mb = mb;
        spec.config.mcts.tree_mb = mb;
    } else if (name == "multipv") {
        spec.multipv = whole_number(1, loa::engine::MaxMultiPv);
    } else if (name == "moveoverhead" || name == "move overhead") {
        spec.move_overhead_ms = whole_number(0, loa::engine::MaxMoveOverheadMs);
    } else if (name == "eval" || name == "weights" || name == "evalfile") {
        spec.eval = value.empty() || value == "<empty>" ? std::string("nnue") : value;
    } else if (name == "rps") {
        spec.rps = value == "<empty>" ? std::string() : value;
    } else if (name == "variant" || name == "preset") {
        try {
            spec.config = search::parse_search_config(name == "preset" ? "preset=" + value : value);
        } catch (const InputError& e) {
            throw InputError(fmt::format("{}: {}", id, e.what()));
        }
    } else if (const auto it = std::find_if(OptionsWithoutMeaningHere.begin(), OptionsWithoutMeaningHere.end(),
                                            [&](const auto& o) { return o.first == name; });
               it != OptionsWithoutMeaningHere.end()) {
        throw InputError(fmt::format("{}: not an option of an engine in process ({})", id, it->second));
    } else {
        bool known = false;
        try {
            known = search::apply_search_option(spec.config, name, value);
        } catch (const InputError& e) {
            throw InputError(fmt::format("{}: {}", id, e.what()));
        }
        if (!known) {
            std::vector<std::string> names = {"Hash", "Threads", "MultiPV", "MoveOverhead", "Eval", "Rps", "Variant"};
            for (std::string& key : search::search_key_names()) names.push_back(std::move(key));
            std::vector<std::string> lowered;
            for (const std::string& n : names) lowered.push_back(common::lowercase(n));
            const std::string near = common::nearest_word(name, lowered);
            std::string meant;
            for (std::size_t i = 0; i < names.size(); ++i)
                if (lowered[i] == near) meant = names[i];
            throw InputError(fmt::format("{}: no such option of this engine{} (its options: loa uci, then uci)", id,
                                         meant.empty() ? "" : fmt::format("; did you mean 'option.{}'?", meant)));
        }
    }
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
        if (key == "depth") {
            const auto v = common::parse_int(value);
            if (!v || *v < 1 || *v > 100) throw InputError(fmt::format("engine '{}': bad depth '{}' (1..100)", id, value));
            spec.depth = *v;
        } else if (key == "nodes") {
            const auto v = common::parse_int64(value);
            if (!v || *v < 1) throw InputError(fmt::format("engine '{}': bad nodes '{}'", id, value));
            spec.nodes = static_cast<std::uint64_t>(*v);
        } else if (key == "st") {
            spec.move_time_ms = 1000 * parse_seconds(key, value, id);
        } else if (key == "tc") {
            spec.time_control = parse_time_control(value, fmt::format("engine '{}'", id));
        } else if (key == "eval") {
            spec.eval = std::string(value);
        } else if (key == "weights") {
            spec.eval = std::string(value);
        } else if (key == "rps") {
            spec.rps = std::string(value);
        } else if (key == "cmd") {
            spec.cmd = std::string(value);
        } else if (key == "args") {
            for (const std::string_view a : common::split(value, ' '))
                if (!a.empty()) spec.args.emplace_back(a);
        } else if (key == "proto") {
            if (value != "uci" && value != "gtp")
                throw InputError(fmt::format("engine '{}': proto must be uci or gtp, not '{}'", id, value));
            spec.proto = std::string(value);
        } else if (key.starts_with("option.")) {
            spec.options.emplace_back(key.substr(7), value);
        } else if (key == "position") {
            if (value == "auto") spec.position_command = PositionCommand::Auto;
            else if (value == "startpos") spec.position_command = PositionCommand::StartPos;
            else if (value == "fen") spec.position_command = PositionCommand::Fen;
            else throw InputError(fmt::format("engine '{}': position must be auto, startpos or fen, not '{}'", id, value));
        } else if (key == "timeout") {
            spec.move_timeout_ms = 1000 * parse_seconds(key, value, id);
        } else {
            if (search::SearchConfig probe; !value.empty() && key != "preset" && !key_is_known(probe, key, value)) {
                std::vector<std::string> known = {"name", "depth", "nodes", "st", "tc", "eval", "weights", "rps",
                                                  "cmd", "args", "proto", "position", "timeout"};
                for (std::string& name : search::search_key_names()) known.push_back(std::move(name));
                const std::string near = common::nearest_word(key, known);
                throw InputError(fmt::format("engine '{}': unknown key '{}'{} (engine keys: name, depth, nodes, st, tc, eval, "
                                             "rps, cmd, args, proto, option.NAME, position, timeout; search keys: loa variants)",
                                             id, key, near.empty() ? "" : fmt::format("; did you mean '{}'?", near)));
            }
            has_preset = has_preset || key == "preset" || value.empty();
            has_search_keys = true;
            search_part += fmt::format("{}{}{}{}", search_part.empty() ? "" : ",", key, value.empty() ? "" : "=", value);
        }
    }
    // Switches given without a preset apply on top of the strongest one, `full`.
    if (!has_preset) search_part = "preset=full" + (search_part.empty() ? "" : "," + search_part);
    try {
        spec.config = search::parse_search_config(search_part);
    } catch (const InputError& e) {
        throw InputError(fmt::format("engine '{}': {}", spec.name, e.what()));
    }
    if (!spec.external())
        for (const auto& [name, value] : spec.options) apply_builtin_option(spec, name, value);
    if (spec.config.erps && spec.rps.empty())
        throw InputError(fmt::format("engine '{}': erps=on needs rps=FILE (realization probabilities from loa-match learn-rps)", spec.name));
    const bool mcts_knowledge = spec.config.algorithm == search::Algorithm::Mcts &&
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
