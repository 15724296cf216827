#include "loa/engine/engine_options.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/text.hpp"

namespace loa::engine {
namespace {

using common::InputError;

OptionInfo text_info(std::string name, std::string help) {
    OptionInfo o;
    o.name = std::move(name);
    o.help = std::move(help);
    return o;
}

// A whole number within [min, max]; `unit` follows the range in the message ("MB", "ms").
EngineOption whole_number(std::string name, int min, int max, std::string unit, std::string help, int EngineSettings::*field) {
    EngineOption o;
    o.info = text_info(name, std::move(help));
    o.info.kind = variant::KeyKind::Integer;
    o.info.min = min, o.info.max = max;
    o.set = [name, min, max, unit, field](EngineSettings& s, std::string_view value) {
        const auto v = common::parse_int(value);
        if (!v || *v < min || *v > max)
            throw InputError(fmt::format("{} must be {}..{}{}, not '{}'", name, min, max, unit.empty() ? "" : " " + unit, value));
        s.*field = *v;
    };
    o.get = [field](const EngineSettings& s) { return std::to_string(s.*field); };
    return o;
}

EngineOption hash_option() {
    EngineOption o;
    o.info = text_info("Hash", "transposition table size in MB (MCTS: the tree's)");
    o.info.kind = variant::KeyKind::Integer;
    o.info.min = 1, o.info.max = MaxHashMb;
    o.set = [](EngineSettings& s, std::string_view value) {
        const auto mb = common::parse_int(value);
        if (!mb || *mb < 1 || *mb > MaxHashMb) throw InputError(fmt::format("Hash must be 1..{} MB, not '{}'", MaxHashMb, value));
        // The engine's main table: the transposition table, or MCTS's tree.
        s.config.tt = true;
        s.config.tt_mb = *mb;
        s.config.mcts.tree_mb = *mb;
    };
    o.get = [](const EngineSettings& s) {
        return std::to_string(s.config.algorithm == variant::Algorithm::Mcts ? s.config.mcts.tree_mb : s.config.tt_mb);
    };
    return o;
}

EngineOption text_option(std::string name, std::string help, std::function<void(EngineSettings&, std::string_view)> set,
                         std::function<std::string(const EngineSettings&)> get) {
    EngineOption o;
    o.info = text_info(std::move(name), std::move(help));
    o.set = std::move(set);
    o.get = std::move(get);
    return o;
}

std::vector<EngineOption> make_options() {
    std::vector<EngineOption> options;
    options.push_back(hash_option());
    options.push_back(text_option(
        "Variant", "a whole search-variant string (see 'loa variants')",
        [](EngineSettings& s, std::string_view v) { s.config = variant::parse_variant(v); },
        [](const EngineSettings& s) { return s.config.preset; }));
    EngineOption preset = text_option(
        "Preset", "a preset alone, as Variant preset=NAME",
        [](EngineSettings& s, std::string_view v) { s.config = variant::parse_variant("preset=" + std::string(v)); },
        [](const EngineSettings& s) { return s.config.preset; });
    preset.listed = false;
    options.push_back(std::move(preset));
    EngineOption eval = text_option(
        "Eval",
        "evaluation: nnue (the shipped network, the default), hce (= full, the tuned hand-written one), hand, concentration, "
        "simple, material, a JSON weights file or a .nnue network",
        // Empty: back to the default.
        [](EngineSettings& s, std::string_view v) { s.eval = v.empty() ? std::string(DefaultEval) : std::string(v); },
        [](const EngineSettings& s) { return s.eval; });
    eval.spellings = {"weights", "evalfile"};
    options.push_back(std::move(eval));
    options.push_back(text_option(
        "Rps", "realization probabilities (JSON from loa-match learn-rps) for erps=on",
        [](EngineSettings& s, std::string_view v) { s.rps = std::string(v); }, [](const EngineSettings& s) { return s.rps; }));
    options.push_back(text_option(
        "Rules", "a named set (olympiad, codingame, loabot, openspiel) and/or key=value list",
        [](EngineSettings& s, std::string_view v) { s.rules = parse_rules(v); }, [](const EngineSettings& s) { return to_string(s.rules); }));
    EngineOption overhead = whole_number("MoveOverhead", 0, MaxMoveOverheadMs, "ms", "milliseconds kept back per move for communication",
                                         &EngineSettings::move_overhead_ms);
    overhead.spellings = {"move overhead"};  // the GUIs' and Stockfish's spelling
    options.push_back(std::move(overhead));
    // The search key `threads`, registered here for its place among the engine's options.
    const variant::VariantKey* threads_key = variant::find_variant_key("threads");
    EngineOption threads;
    threads.info = text_info("Threads", "search threads: lazy SMP, or MCTS sharing its tree (1: deterministic)");
    threads.info.kind = variant::KeyKind::Integer;
    threads.info.min = threads_key->min, threads.info.max = threads_key->max;
    threads.set = [threads_key](EngineSettings& s, std::string_view v) { threads_key->set(s.config, v); };
    threads.get = [threads_key](const EngineSettings& s) { return threads_key->get(s.config); };
    options.push_back(std::move(threads));
    EngineOption multipv = whole_number("MultiPV", 1, MaxMultiPv, "",
                                        "lines shown: the best N root moves, each with its score and PV (alpha-beta; MCTS shows one)",
                                        &EngineSettings::multipv);
    multipv.keeps_searcher = true;  // how many lines are shown: the searcher and its tables stay
    options.push_back(std::move(multipv));
    return options;
}

}  // namespace

const std::vector<EngineOption>& engine_options() {
    static const std::vector<EngineOption> options = make_options();
    return options;
}

const EngineOption* find_engine_option(std::string_view raw_name) {
    const std::string name = common::lowercase(common::trim(raw_name));
    for (const EngineOption& o : engine_options()) {
        if (common::lowercase(o.info.name) == name) return &o;
        if (std::find(o.spellings.begin(), o.spellings.end(), name) != o.spellings.end()) return &o;
    }
    return nullptr;
}

bool apply_engine_option(EngineSettings& settings, std::string_view raw_name, std::string_view raw_value) {
    // "<empty>" is how UCI GUIs write an empty string (`loa uci` registers empty defaults so).
    const std::string_view value = common::trim(raw_value) == "<empty>" ? std::string_view() : common::trim(raw_value);
    EngineSettings changed = settings;
    if (const EngineOption* option = find_engine_option(raw_name)) {
        option->set(changed, value);
    } else if (!variant::apply_variant_key(changed.config, common::lowercase(common::trim(raw_name)), value)) {
        return false;
    }
    settings = std::move(changed);
    return true;
}

std::vector<OptionInfo> option_infos(const EngineSettings& settings) {
    std::vector<OptionInfo> out;
    for (const EngineOption& o : engine_options()) {
        if (!o.listed) continue;
        OptionInfo info = o.info;
        info.value = o.get(settings);
        out.push_back(std::move(info));
    }
    for (const variant::VariantKey& key : variant::variant_keys()) {
        if (key.name == "preset" || key.name == "threads") continue;  // Variant and Threads
        OptionInfo o = text_info(key.name, key.help);
        o.value = key.get(settings.config);
        o.kind = key.kind, o.min = key.min, o.max = key.max, o.choices = key.choices;
        out.push_back(std::move(o));
    }
    return out;
}

std::vector<std::string> option_names() {
    std::vector<std::string> names;
    for (const OptionInfo& o : option_infos(EngineSettings{})) names.push_back(o.name);
    return names;
}

std::string nearest_option(std::string_view name) {
    const std::vector<std::string> names = option_names();
    std::vector<std::string> lowered;
    for (const std::string& n : names) lowered.push_back(common::lowercase(n));
    const std::string near = common::nearest_word(common::lowercase(common::trim(name)), lowered);
    for (std::size_t i = 0; i < names.size(); ++i)
        if (!near.empty() && lowered[i] == near) return names[i];
    return {};
}

}  // namespace loa::engine
