#include "common/search/config.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/text.hpp"

namespace search {
namespace {

using common::InputError;

[[noreturn]] void bad_value(std::string_view key, std::string_view value, std::string_view expected) {
    throw InputError(fmt::format("search config: bad value '{}' for '{}' (expected {})", value, key, expected));
}

bool parse_on_off(std::string_view key, std::string_view value) {
    if (value == "on" || value == "1" || value == "true") return true;
    if (value == "off" || value == "0" || value == "false") return false;
    bad_value(key, value, "on or off");
}

// `words`: what else the key takes (e.g. "off"), named in the error with the range.
int parse_range(std::string_view key, std::string_view value, int lo, int hi, std::string_view words = {}) {
    const auto v = common::parse_int(value);
    if (!v || *v < lo || *v > hi)
        bad_value(key, value, fmt::format("{}{}an integer in {}..{}", words, words.empty() ? "" : " or ", lo, hi));
    return *v;
}

Increment parse_increment(std::string_view key, std::string_view value) {
    if (value == "1") return Increment::One;
    if (value == "d") return Increment::Depth;
    if (value == "d2") return Increment::DepthSquared;
    if (value == "2d") return Increment::TwoPowDepth;
    bad_value(key, value, "1, d, d2 or 2d");
}

// What `on` means for the frontier margins (opening:endgame): the least tapered margins that
// cover 99% of the nodes of every band of pieces in `loa-match margins` on
// data/margins/positions.txt (docs/strength.md). One quiet move lifts a node by about 40 in the
// opening and 200-300 in a sparse endgame, so one fixed margin is too wide early and too
// narrow late.
constexpr TaperedMargin StandardFutility{40, 320};
constexpr TaperedMargin StandardExtFutility{50, 250};
constexpr TaperedMargin StandardRazoring{50, 340};

// off | on | <margin> | <opening>:<endgame>
TaperedMargin parse_margin(std::string_view key, std::string_view value, TaperedMargin standard) {
    if (value == "off") return {};
    if (value == "on") return standard;
    const auto parts = common::split(value, ':');
    const auto opening = parts.size() <= 2 ? common::parse_int(parts[0]) : std::nullopt;
    const auto endgame = parts.size() == 2 ? common::parse_int(parts[1]) : opening;
    constexpr int Largest = 10000;
    if (!opening || !endgame || *opening < 1 || *opening > Largest || *endgame < 1 || *endgame > Largest)
        bad_value(key, value, fmt::format("off, on, a margin in 1..{0} or <opening>:<endgame> margins in 1..{0}", Largest));
    return {*opening, *endgame};
}

// Turns on one preset feature token.
void apply_token(SearchConfig& c, std::string_view token) {
    if (token == "ab") return;
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
    } else if (token == "full") {
        // The frontier trio joined `full` when its SPRTs accepted (docs/strength.md): +19.4 Elo
        // at stc, +16.1 at ltc.
        for (const char* t : {"pvs", "asp", "tt", "killers", "rhh", "caps", "null", "lmr", "frontier"}) apply_token(c, t);
    } else {
        throw InputError(fmt::format(
            "search config: unknown preset token '{}' (known: ab pvs asp tt killers hh bf rhh ref caps null lmr ext frontier full)",
            token));
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
    for (const std::string_view token : common::split(name, '+')) apply_token(c, common::trim(token));
    c.preset = std::string(name);
    return c;
}

bool apply_search_option(SearchConfig& c, std::string_view key, std::string_view value) {
    if (key == "preset") {
        c = preset_config(value);
    } else if (key == "futility" || key == "ext_futility" || key == "razoring") {
        TaperedMargin& margin = key == "futility" ? c.futility_margin : key == "ext_futility" ? c.ext_futility_margin : c.razor_margin;
        margin = parse_margin(key, value, key == "futility" ? StandardFutility : key == "ext_futility" ? StandardExtFutility : StandardRazoring);
    } else if (key == "multicut") {
        c.multicut = parse_on_off(key, value);
    } else if (key == "mc_moves") {
        c.mc_moves = parse_range(key, value, 1, 64);
    } else if (key == "mc_cuts") {
        c.mc_cuts = parse_range(key, value, 1, 64);
    } else if (key == "mc_reduction") {
        c.mc_reduction = parse_range(key, value, 1, 8);
    } else if (key == "mc_types") {
        if (value == "retype") c.mc_types = McTypes::Retype;
        else if (value == "alternate") c.mc_types = McTypes::Alternate;
        else bad_value(key, value, "retype or alternate");
    } else if (key == "timeman") {
        if (value == "classic") c.timeman = TimePolicy::Classic;
        else if (value == "tournament") c.timeman = TimePolicy::Tournament;
        else bad_value(key, value, "classic or tournament");
    } else if (key == "erps") {
        c.erps = parse_on_off(key, value);
    } else if (key == "erps_research") {
        c.erps_research = parse_on_off(key, value);
    } else if (key == "erps_floor") {
        c.erps_floor = parse_on_off(key, value);
    } else if (key == "erps_base") {
        c.erps_base = parse_range(key, value, 1, 99);
    } else if (key == "erps_min") {
        c.erps_min = parse_range(key, value, 10, 100);
    } else if (key == "erps_max") {
        c.erps_max = parse_range(key, value, 100, 800);
    } else if (key == "threads") {
        c.threads = parse_range(key, value, 1, 64);
    } else if (key == "solver") {
        c.solver_nodes = value == "off" ? 0 : parse_range(key, value, 0, 10'000'000, "off");
    } else if (key == "solver_score") {
        if (value == "off") c.solver_score.reset();
        else c.solver_score = parse_range(key, value, -30'000, 30'000, "off");
    } else if (key == "pvs") {
        c.pvs = parse_on_off(key, value);
    } else if (key == "aspiration") {
        if (value == "on") c.aspiration = true;
        else if (value == "off") c.aspiration = false;
        else c.aspiration = true, c.aspiration_window = parse_range(key, value, 1, 10000, "on, off");
    } else if (key == "aspiration_research") {
        if (value == "full") c.aspiration_research = AspirationResearch::Full;
        else if (value == "widen") c.aspiration_research = AspirationResearch::Widen;
        else bad_value(key, value, "full or widen");
    } else if (key == "tt") {
        if (value == "on") c.tt = true;
        else if (value == "off") c.tt = false;
        else c.tt = true, c.tt_mb = parse_range(key, value, 1, 65536);
    } else if (key == "eval_cache") {
        if (value == "on") c.eval_cache = true;
        else if (value == "off") c.eval_cache = false;
        else c.eval_cache = true, c.eval_cache_mb = parse_range(key, value, 1, 4096);
    } else if (key == "tt_replace") {
        if (value == "always") c.tt_replace = TTReplace::Always;
        else if (value == "depth") c.tt_replace = TTReplace::Depth;
        else if (value == "twodeep") c.tt_replace = TTReplace::TwoDeep;
        else bad_value(key, value, "always, depth or twodeep");
    } else if (key == "tt_reuse") {
        if (value == "deeper") c.tt_reuse = TTReuse::Deeper;
        else if (value == "exact") c.tt_reuse = TTReuse::Exact;
        else bad_value(key, value, "deeper or exact");
    } else if (key == "captures_first") {
        c.captures_first = parse_on_off(key, value);
    } else if (key == "killers") {
        c.killers = parse_range(key, value, 0, 8);
    } else if (key == "refutation") {
        c.refutation = parse_on_off(key, value);
    } else if (key == "history") {
        if (value == "none") c.history = HistoryMode::None;
        else if (value == "absolute") c.history = HistoryMode::Absolute;
        else if (value == "butterfly") c.history = HistoryMode::Butterfly;
        else if (value == "relative") c.history = HistoryMode::Relative;
        else bad_value(key, value, "none, absolute, butterfly or relative");
    } else if (key == "hh_inc") {
        c.hh_inc = parse_increment(key, value);
    } else if (key == "bf_inc") {
        c.bf_inc = parse_increment(key, value);
    } else if (key == "rhh_update") {
        if (value == "all") c.rhh_update = RhhUpdate::All;
        else if (value == "cutnodes") c.rhh_update = RhhUpdate::CutNodes;
        else bad_value(key, value, "all or cutnodes");
    } else if (key == "history_captures") {
        c.history_captures = parse_on_off(key, value);
    } else if (key == "history_aging") {
        c.history_aging = parse_on_off(key, value);
    } else if (key == "null") {
        if (value == "off") c.null_move = NullMove::Off;
        else if (value == "adaptive") c.null_move = NullMove::Adaptive;
        else c.null_move = NullMove::Fixed, c.null_r = parse_range(key, value, 1, 3);
    } else if (key == "null_verify") {
        c.null_verify = parse_on_off(key, value);
    } else if (key == "lmr") {
        c.lmr = parse_on_off(key, value);
    } else if (key == "lmr_min_depth") {
        c.lmr_min_depth = parse_range(key, value, 2, 20);
    } else if (key == "lmr_min_moves") {
        c.lmr_min_moves = parse_range(key, value, 1, 60);
    } else if (key == "qsearch") {
        if (value == "off") c.qsearch = 0;
        else if (value == "captures") c.qsearch = 1;
        else if (value == "quads") c.qsearch = 2;
        else bad_value(key, value, "off, captures or quads");
    } else if (key == "qsearch_plies") {
        c.qsearch_plies = parse_range(key, value, 1, 64);
    } else if (key == "qs_order") {
        if (value == "captures") c.qs_order = QsOrder::Captures;
        else if (value == "history") c.qs_order = QsOrder::History;
        else bad_value(key, value, "captures or history");
    } else if (key == "extensions") {
        c.extensions = parse_on_off(key, value);
    } else {
        return false;
    }
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
            std::vector<std::string> known;
            for (const auto& [name, help] : config_keys()) known.push_back(name);
            const std::string near = common::nearest_word(key, known);
            throw InputError(fmt::format("search config: unknown key '{}'{} (the keys: loa variants)", key,
                                         near.empty() ? "" : fmt::format("; did you mean '{}'?", near)));
        }
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
    auto on = [](bool b) { return b ? "on" : "off"; };
    auto history = [&] {
        switch (c.history) {
            case HistoryMode::None: return "none";
            case HistoryMode::Absolute: return "absolute";
            case HistoryMode::Butterfly: return "butterfly";
            case HistoryMode::Relative: return "relative";
        }
        return "?";
    };
    const char* replace = c.tt_replace == TTReplace::Always  ? "always"
                          : c.tt_replace == TTReplace::Depth ? "depth"
                                                             : "twodeep";
    const std::string null = c.null_move == NullMove::Off        ? "off"
                             : c.null_move == NullMove::Adaptive ? "adaptive"
                                                                 : std::to_string(c.null_r);
    const char* qsearch = c.qsearch == 0 ? "off" : c.qsearch == 1 ? "captures" : "quads";
    auto nodes = [](int n) { return n > 0 ? std::to_string(n) : std::string("off"); };
    return fmt::format(
        "preset={},pvs={},aspiration={},aspiration_research={},tt={},tt_replace={},tt_reuse={},eval_cache={},"
        "captures_first={},killers={},refutation={},history={},hh_inc={},bf_inc={},rhh_update={},"
        "history_captures={},history_aging={},null={},null_verify={},lmr={},lmr_min_depth={},"
        "lmr_min_moves={},qsearch={},qsearch_plies={},qs_order={},extensions={},futility={},ext_futility={},razoring={},multicut={},mc_moves={},mc_cuts={},"
        "mc_reduction={},mc_types={},erps={},erps_research={},erps_floor={},erps_base={},erps_min={},erps_max={},threads={},solver={},solver_score={},timeman={}",
        c.preset, on(c.pvs), c.aspiration ? std::to_string(c.aspiration_window) : "off",
        c.aspiration_research == AspirationResearch::Full ? "full" : "widen",
        c.tt ? std::to_string(c.tt_mb) : "off", replace, c.tt_reuse == TTReuse::Exact ? "exact" : "deeper",
        c.eval_cache ? std::to_string(c.eval_cache_mb) : "off",
        on(c.captures_first), c.killers, on(c.refutation), history(), to_string(c.hh_increment()),
        to_string(c.bf_increment()), c.rhh_update == RhhUpdate::All ? "all" : "cutnodes", on(c.history_captures),
        on(c.history_aging), null, on(c.null_verify), on(c.lmr), c.lmr_min_depth, c.lmr_min_moves, qsearch,
        c.qsearch_plies, c.qs_order == QsOrder::History ? "history" : "captures", on(c.extensions), to_string(c.futility_margin), to_string(c.ext_futility_margin),
        to_string(c.razor_margin), on(c.multicut), c.mc_moves, c.mc_cuts, c.mc_reduction, c.mc_types == McTypes::Retype ? "retype" : "alternate", on(c.erps), on(c.erps_research), on(c.erps_floor), c.erps_base, c.erps_min, c.erps_max, c.threads, nodes(c.solver_nodes),
        c.solver_score ? std::to_string(*c.solver_score) : std::string("off"), c.timeman == TimePolicy::Tournament ? "tournament" : "classic");
}

const std::vector<std::pair<std::string, std::string>>& config_keys() {
    static const std::vector<std::pair<std::string, std::string>> keys = {
        {"preset", "'+'-joined tokens: ab pvs asp tt killers hh bf rhh ref caps null lmr ext frontier full"},
        {"pvs", "on|off: NegaScout / principal variation search"},
        {"aspiration", "off|on|<window>: aspiration window around the previous iteration's score"},
        {"aspiration_research", "full|widen: after a fail, search the full window or widen the failing side"},
        {"tt", "off|on|<MB>: transposition table"},
        {"eval_cache", "off|on|<MB>: cache of static evaluations (time only: values and node counts are unchanged)"},
        {"tt_replace", "always|depth|twodeep: replacement scheme (Breuker et al.)"},
        {"tt_reuse", "deeper|exact: reuse entries searched at least as deep, or exactly as deep"},
        {"captures_first", "on|off: captures ordered first by the game's knowledge rule"},
        {"killers", "0..8: killer moves per ply"},
        {"refutation", "on|off: refutation table (previous iterations' PV moves per ply)"},
        {"history", "none|absolute|butterfly|relative: history heuristic, butterfly board, relative history"},
        {"hh_inc", "1|d|d2|2d: history increment"},
        {"bf_inc", "1|d|d2|2d: butterfly increment"},
        {"rhh_update", "all|cutnodes: butterfly counts all non-cutoff moves, or moves tried before a cutoff"},
        {"history_captures", "on|off: captures enter the history and butterfly tables"},
        {"history_aging", "on|off: halve the history tables between searches"},
        {"null", "off|1|2|3|adaptive: null-move pruning with fixed or adaptive R (Heinz)"},
        {"null_verify", "on|off: verified null-move pruning"},
        {"lmr", "on|off: late move reductions"},
        {"lmr_min_depth", "2..20: least remaining depth for a reduction"},
        {"lmr_min_moves", "1..60: moves searched at full depth before reductions"},
        {"qsearch", "off|captures|quads: horizon treatment"},
        {"qsearch_plies", "1..64: longest quiescence line"},
        {"qs_order", "captures|history: quiescence move order, the game's capture ranking or the history tables"},
        {"extensions", "on|off: the game's extension hook"},
        {"futility", fmt::format("off|on|<margin>|<opening>:<endgame>: skip quiet moves at depth 1 when the evaluation + margin "
                                 "<= alpha; a margin tapers from opening to endgame with the game's phase (on: {})",
                                 to_string(StandardFutility))},
        {"ext_futility", fmt::format("the same at depth 2 (extended futility pruning; on: {}), not below an extended move",
                                     to_string(StandardExtFutility))},
        {"razoring", fmt::format("the same form: depth 3 nodes that far below alpha are searched a ply shallower, not below an "
                                 "extended move (on: {})",
                                 to_string(StandardRazoring))},
        {"multicut", "on|off: multi-cut pruning at expected cut nodes"},
        {"mc_moves", "1..64: multi-cut: moves tried"},
        {"mc_cuts", "1..64: multi-cut: fail-highs needed"},
        {"mc_reduction", "1..8: multi-cut: depth reduction of its searches"},
        {"mc_types", "retype|alternate: multi-cut: later children of an expected cut node are cut nodes (retype) or all nodes (alternate)"},
        {"erps", "on|off: enhanced realization probability search (needs the game's probabilities: rps=FILE in LOA)"},
        {"erps_research", "on|off: ERPS: search a reduced move again a full ply below when it beats alpha (off: plain RPS)"},
        {"erps_floor", "on|off: ERPS: a reduced move keeps one ply before quiescence where its plain depth had one"},
        {"erps_base", "1..99: ERPS: a move of probability base/100 costs one ply"},
        {"erps_min", "10..100: ERPS: least depth a move costs, in hundredths of a ply"},
        {"erps_max", "100..800: ERPS: most depth a move costs, in hundredths of a ply"},
        {"threads", "1..64: lazy SMP threads sharing the transposition table (1: deterministic)"},
        {"solver", "off|0|<nodes>: proof-number solver before each search, a proven win played at once (at most a fifth of the move's time)"},
        {"solver_score", "off|<centi-units>: the solver runs only after a search of this game that scored at least this for the mover (needs solver=N; off: before every search)"},
        {"timeman", "classic|tournament: time per move from the clock (fixed slice, or game length and search stability)"},
    };
    return keys;
}

double table_memory_mb(const SearchConfig& c) {
    const double tt = c.tt ? c.tt_mb : 0;
    const double eval_cache = c.eval_cache ? static_cast<double>(std::max(1, c.threads)) * c.eval_cache_mb : 0;
    const double solver = 24.0 * c.solver_nodes / (1024 * 1024);
    return tt + eval_cache + solver;
}

std::string table_memory_text(const SearchConfig& c) {
    std::string parts;
    auto add = [&](const std::string& part) { parts += (parts.empty() ? "" : " + ") + part; };
    if (c.tt) add(fmt::format("hash {} MB", c.tt_mb));
    if (c.eval_cache) add(fmt::format("eval cache {} MB x {} thread{}", c.eval_cache_mb, std::max(1, c.threads), c.threads > 1 ? "s" : ""));
    if (c.solver_nodes > 0) add(fmt::format("solver {:.0f} MB", 24.0 * c.solver_nodes / (1024 * 1024)));
    return fmt::format("memory {:.0f} MB{}{}", table_memory_mb(c), parts.empty() ? "" : ": ", parts);
}

}  // namespace search
