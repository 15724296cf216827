#include "matches/engine_spec.hpp"

#include <cmath>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/search/config_keys.hpp"
#include "common/text.hpp"
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

}  // namespace

std::optional<TimeControl> named_time_control(std::string_view name) {
    if (name == "stc") return TimeControl{5000, 50};
    if (name == "ltc") return TimeControl{20000, 200};
    return std::nullopt;
}

TimeControl parse_time_control(std::string_view text, const std::string& context) {
    if (const auto named = named_time_control(text)) return *named;
    const auto plus = text.find('+');
    const auto base = common::parse_double(text.substr(0, plus));
    const auto increment = plus == std::string_view::npos ? std::optional<double>(0) : common::parse_double(text.substr(plus + 1));
    if (!base || !increment || !(*base > 0) || !(*increment >= 0) || !std::isfinite(*base) || !std::isfinite(*increment))
        throw InputError(fmt::format("{}: tc must be stc, ltc or BASE+INC in seconds (BASE > 0), not '{}'", context, text));
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
