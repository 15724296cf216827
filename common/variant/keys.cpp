#include "common/variant/keys.hpp"

#include <cmath>
#include <type_traits>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.hpp"
#include "common/text.hpp"

namespace variant {
namespace {

using namespace search;  // the alpha-beta switches the keys set
using common::InputError;

[[noreturn]] void bad_value(std::string_view key, std::string_view value, std::string_view expected) {
    throw InputError(fmt::format("search config: bad value '{}' for '{}' (expected {})", value, key, expected));
}

// "a, b or c", as the errors name what a key takes.
std::string alternatives(const std::vector<std::string>& words) {
    std::string out;
    for (std::size_t i = 0; i < words.size(); ++i)
        out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
    return out;
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

VariantKey key_base(std::string name, KeyKind kind, std::string values, std::string help) {
    VariantKey k;
    k.name = std::move(name);
    k.kind = kind;
    k.values = std::move(values);
    k.help = std::move(help);
    return k;
}

const char* on_off(bool b) { return b ? "on" : "off"; }

// Where a key's value lives: a member of VariantConfig (or of the alpha-beta SearchConfig it extends), or a callable that gives a reference
// into it (the MCTS settings: in_mcts).
template <class Field>
decltype(auto) at(const Field& field, auto& c) {
    if constexpr (std::is_member_object_pointer_v<Field>) return (c.*field);
    else return field(c);
}

template <class T>
auto in_mcts(T mcts::MctsConfig::*member) {
    return [member](auto& c) -> auto& { return c.mcts.*member; };
}

template <class Field>
VariantKey switch_key(std::string name, Field field, std::string help) {
    VariantKey k = key_base(std::move(name), KeyKind::Switch, "on|off", std::move(help));
    k.set = [field, key = k.name](VariantConfig& c, std::string_view v) { at(field, c) = parse_on_off(key, v); };
    k.get = [field](const VariantConfig& c) -> std::string { return on_off(at(field, c)); };
    return k;
}

template <class Field>
VariantKey integer_key(std::string name, Field field, int lo, int hi, std::string help) {
    VariantKey k = key_base(std::move(name), KeyKind::Integer, fmt::format("{}..{}", lo, hi), std::move(help));
    k.min = lo;
    k.max = hi;
    k.set = [field, lo, hi, key = k.name](VariantConfig& c, std::string_view v) { at(field, c) = parse_range(key, v, lo, hi); };
    k.get = [field](const VariantConfig& c) { return std::to_string(at(field, c)); };
    return k;
}

// A key whose words name the values of one field (an enum, or an int coding a few modes).
// The type a key's field holds (the words of a choice key are read as that type).
template <class Field>
using FieldValue = std::remove_cvref_t<decltype(at(std::declval<const Field&>(), std::declval<VariantConfig&>()))>;

template <class Field>
VariantKey choice_key(std::string name, Field field, std::vector<std::pair<std::string, FieldValue<Field>>> words, std::string help) {
    VariantKey k = key_base(std::move(name), KeyKind::Choice, {}, std::move(help));
    for (const auto& [word, value] : words) k.choices.push_back(word);
    k.values = fmt::format("{}", fmt::join(k.choices, "|"));
    k.set = [field, words, key = k.name, expected = alternatives(k.choices)](VariantConfig& c, std::string_view v) {
        for (const auto& [word, value] : words)
            if (v == word) {
                at(field, c) = value;
                return;
            }
        bad_value(key, v, expected);
    };
    k.get = [field, words](const VariantConfig& c) {
        for (const auto& [word, value] : words)
            if (at(field, c) == value) return word;
        return std::string("?");
    };
    return k;
}

// A switch with a size: off | on (the current size) | <size> in 1..largest, e.g. a table in MB.
// `words`: what the error names beside the range.
VariantKey sized_switch_key(std::string name, bool VariantConfig::*on, int VariantConfig::*size, int largest, std::string values,
                           std::string help, std::string words = {}) {
    VariantKey k = key_base(std::move(name), KeyKind::Text, std::move(values), std::move(help));
    k.set = [on, size, largest, words, key = k.name](VariantConfig& c, std::string_view v) {
        if (v == "on") c.*on = true;
        else if (v == "off") c.*on = false;
        else c.*on = true, c.*size = parse_range(key, v, 1, largest, words);
    };
    k.get = [on, size](const VariantConfig& c) { return c.*on ? std::to_string(c.*size) : std::string("off"); };
    return k;
}

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

VariantKey margin_key(std::string name, TaperedMargin VariantConfig::*field, TaperedMargin standard, std::string help) {
    VariantKey k = key_base(std::move(name), KeyKind::Text, "off|on|<margin>|<opening>:<endgame>", std::move(help));
    k.set = [field, standard, key = k.name](VariantConfig& c, std::string_view v) { c.*field = parse_margin(key, v, standard); };
    k.get = [field](const VariantConfig& c) { return to_string(c.*field); };
    return k;
}


// off | <n> in lo..hi, for a number whose 0 means off.
VariantKey off_or_integer_key(std::string name, int VariantConfig::*field, int lo, int hi, std::string help) {
    VariantKey k = key_base(std::move(name), KeyKind::Text, fmt::format("off|{}..{}", lo, hi), std::move(help));
    k.set = [field, lo, hi, key = k.name](VariantConfig& c, std::string_view v) {
        c.*field = v == "off" ? 0 : parse_range(key, v, lo, hi, "off");
    };
    k.get = [field](const VariantConfig& c) { return c.*field > 0 ? std::to_string(c.*field) : std::string("off"); };
    return k;
}

// hh_inc / bf_inc: unset means the mode's own default, which to_string spells out.
VariantKey increment_key(std::string name, std::optional<Increment> VariantConfig::*field,
                        Increment (VariantConfig::*effective)() const, std::string help) {
    VariantKey k = key_base(std::move(name), KeyKind::Choice, "1|d|d2|2d", std::move(help));
    k.choices = {"1", "d", "d2", "2d"};
    k.set = [field, key = k.name](VariantConfig& c, std::string_view v) {
        static constexpr std::pair<std::string_view, Increment> IncrementWords[] = {
            {"1", Increment::One}, {"d", Increment::Depth}, {"d2", Increment::DepthSquared}, {"2d", Increment::TwoPowDepth}};
        for (const auto& [word, inc] : IncrementWords)
            if (v == word) {
                c.*field = inc;
                return;
            }
        bad_value(key, v, "1, d, d2 or 2d");
    };
    k.get = [effective](const VariantConfig& c) { return std::string(to_string((c.*effective)())); };
    return k;
}

// The keys of Monte Carlo tree search (common/mcts/config.hpp), listed after the alpha-beta
// keys and only in the texts of MCTS variants.
void add_mcts_keys(std::vector<VariantKey>& keys) {
    const std::size_t first = keys.size();
    // The preset follows the algorithm (mcts, or ab when leaving it), so that the text, which
    // lists the algorithm's keys only, reads back as the same search.
    VariantKey algorithm = choice_key("algorithm", &VariantConfig::algorithm, {{"alphabeta", Algorithm::AlphaBeta}, {"mcts", Algorithm::Mcts}},
                                     "the searcher: alpha-beta (the core) or Monte Carlo tree search (the keys below; preset mcts)");
    algorithm.set = [set = algorithm.set](VariantConfig& c, std::string_view v) {
        set(c, v);
        if (c.algorithm == Algorithm::Mcts) c.preset = "mcts";
        else if (c.preset == "mcts") c.preset = "ab";
    };
    keys.push_back(std::move(algorithm));

    VariantKey uct = key_base("uct_c", KeyKind::Text, "0..10", "MCTS: UCT exploration constant (results in [0, 1])");
    uct.set = [](VariantConfig& c, std::string_view v) {
        const auto x = common::parse_double(v);
        if (!x || !(*x >= 0 && *x <= 10)) bad_value("uct_c", v, "a number in 0..10");
        c.mcts.exploration = std::round(*x * 1e4) / 1e4;  // four decimals: the text reads back exactly
    };
    uct.get = [](const VariantConfig& c) { return fmt::format("{:.10g}", c.mcts.exploration); };
    keys.push_back(std::move(uct));

    keys.push_back(switch_key("mcts_solver", in_mcts(&mcts::MctsConfig::solver),
                               "MCTS-Solver: proven wins, losses and draws backed up through the tree"));

    keys.push_back(choice_key("playout", in_mcts(&mcts::MctsConfig::playout),
                              {{"random", mcts::Playout::Random},
                               {"cutoff", mcts::Playout::EvalCutoff},
                               {"weighted", mcts::Playout::Weighted},
                               {"ab", mcts::Playout::AlphaBeta}},
                              "MCTS play-outs: random to the end; cutoff_plies moves, random, weighted by their "
                              "realization probabilities (rps=FILE) or each by a shallow alpha-beta search (MC-LOAab), "
                              "then the evaluation"));
    keys.push_back(integer_key("cutoff_plies", in_mcts(&mcts::MctsConfig::cutoff_plies), 0, 200,
                                "MCTS: play-out moves before the evaluation scores it (playout=cutoff, weighted and ab)"));
    keys.push_back(integer_key("mcts_bias", in_mcts(&mcts::MctsConfig::bias_percent), 0, 10000,
                                "MCTS: progressive bias in percent of a win, times the move's realization probability over "
                                "its visits + 1 (rps=FILE); 0 is off"));
    keys.push_back(integer_key("eval_scale", in_mcts(&mcts::MctsConfig::eval_scale), 1, 10000,
                                "MCTS: evaluation units per logistic unit of a play-out's win probability"));
    keys.push_back(integer_key("ab_depth", in_mcts(&mcts::MctsConfig::ab_depth), 1, 3, "MCTS: depth of a play-out move's search (playout=ab)"));
    keys.push_back(integer_key("ab_random", in_mcts(&mcts::MctsConfig::ab_random_percent), 0, 100,
                                "MCTS: percent of play-out moves played at random instead (playout=ab)"));
    keys.push_back(integer_key("mcts_expand", in_mcts(&mcts::MctsConfig::expand_visits), 1, 1000,
                                "MCTS: a leaf's children are added at its this-many-th visit"));
    keys.push_back(integer_key("mcts_tree", in_mcts(&mcts::MctsConfig::tree_mb), 1, 65536, "MCTS: the tree's memory in MB"));
    keys.push_back(switch_key("mcts_reuse", in_mcts(&mcts::MctsConfig::reuse), "MCTS: the next search of the game starts from the old subtree"));

    VariantKey seed = key_base("mcts_seed", KeyKind::Integer, "1..1000000000", "MCTS: the random stream's seed");
    seed.min = 1, seed.max = 1'000'000'000;
    seed.set = [](VariantConfig& c, std::string_view v) { c.mcts.seed = static_cast<std::uint64_t>(parse_range("mcts_seed", v, 1, 1'000'000'000)); };
    seed.get = [](const VariantConfig& c) { return std::to_string(c.mcts.seed); };
    keys.push_back(std::move(seed));
    for (std::size_t i = first; i < keys.size(); ++i) keys[i].scope = KeyScope::Mcts;
}

std::vector<VariantKey> make_keys() {
    std::vector<VariantKey> keys;
    VariantKey preset = key_base("preset", KeyKind::Text, "<token>+<token>...",
                                "'+'-joined tokens: ab pvs asp tt killers hh bf rhh ref caps null lmr ext frontier full, or mcts alone");
    preset.set = [](VariantConfig& c, std::string_view v) { c = preset_variant(v); };
    preset.get = [](const VariantConfig& c) { return c.preset; };
    preset.scope = KeyScope::Both;
    keys.push_back(std::move(preset));

    keys.push_back(switch_key("pvs", &VariantConfig::pvs, "NegaScout / principal variation search"));
    keys.push_back(sized_switch_key("aspiration", &VariantConfig::aspiration, &VariantConfig::aspiration_window, 10000,
                                    "off|on|<window>", "aspiration window around the previous iteration's score", "on, off"));
    keys.push_back(choice_key("aspiration_research", &VariantConfig::aspiration_research,
                              {{"full", AspirationResearch::Full}, {"widen", AspirationResearch::Widen}},
                              "after a fail, search the full window or widen the failing side"));
    keys.push_back(sized_switch_key("tt", &VariantConfig::tt, &VariantConfig::tt_mb, 65536, "off|on|<MB>", "transposition table"));
    keys.push_back(choice_key("tt_replace", &VariantConfig::tt_replace,
                              {{"always", TTReplace::Always}, {"depth", TTReplace::Depth}, {"twodeep", TTReplace::TwoDeep}},
                              "replacement scheme (Breuker et al.)"));
    keys.push_back(choice_key("tt_reuse", &VariantConfig::tt_reuse, {{"deeper", TTReuse::Deeper}, {"exact", TTReuse::Exact}},
                              "reuse entries searched at least as deep, or exactly as deep"));
    keys.push_back(sized_switch_key("eval_cache", &VariantConfig::eval_cache, &VariantConfig::eval_cache_mb, 4096, "off|on|<MB>",
                                    "cache of static evaluations (time only: values and node counts are unchanged)"));
    keys.push_back(switch_key("captures_first", &VariantConfig::captures_first, "captures ordered first by the game's knowledge rule"));
    keys.push_back(integer_key("killers", &VariantConfig::killers, 0, 8, "killer moves per ply"));
    keys.push_back(choice_key("countermove", &VariantConfig::countermove,
                              {{"off", CounterMove::Off}, {"killer", CounterMove::Killer}, {"history", CounterMove::History}},
                              "countermove heuristic: the reply that last refuted the previous move, after the killers, searched "
                              "as a killer (killer) or as the first history move (history)"));
    keys.push_back(switch_key("refutation", &VariantConfig::refutation, "refutation table (previous iterations' PV moves per ply)"));
    keys.push_back(choice_key("history", &VariantConfig::history,
                              {{"none", HistoryMode::None},
                               {"absolute", HistoryMode::Absolute},
                               {"butterfly", HistoryMode::Butterfly},
                               {"relative", HistoryMode::Relative}},
                              "history heuristic, butterfly board, relative history"));
    keys.push_back(increment_key("hh_inc", &VariantConfig::hh_inc, &VariantConfig::hh_increment,
                                 "history increment (unset: 2d for absolute history, 1 otherwise)"));
    keys.push_back(increment_key("bf_inc", &VariantConfig::bf_inc, &VariantConfig::bf_increment, "butterfly increment"));
    keys.push_back(choice_key("rhh_update", &VariantConfig::rhh_update, {{"all", RhhUpdate::All}, {"cutnodes", RhhUpdate::CutNodes}},
                              "butterfly counts all non-cutoff moves, or moves tried before a cutoff"));
    keys.push_back(switch_key("history_captures", &VariantConfig::history_captures, "captures enter the history and butterfly tables"));
    keys.push_back(switch_key("history_aging", &VariantConfig::history_aging, "halve the history tables between searches"));

    VariantKey null = key_base("null", KeyKind::Choice, "off|1|2|3|adaptive",
                              "null-move pruning with fixed or adaptive R (Heinz)");
    null.choices = {"off", "1", "2", "3", "adaptive"};
    null.set = [](VariantConfig& c, std::string_view v) {
        if (v == "off") c.null_move = NullMove::Off;
        else if (v == "adaptive") c.null_move = NullMove::Adaptive;
        else c.null_move = NullMove::Fixed, c.null_r = parse_range("null", v, 1, 3, "off, adaptive");
    };
    null.get = [](const VariantConfig& c) {
        return c.null_move == NullMove::Off        ? std::string("off")
               : c.null_move == NullMove::Adaptive ? std::string("adaptive")
                                                   : std::to_string(c.null_r);
    };
    keys.push_back(std::move(null));
    keys.push_back(switch_key("null_verify", &VariantConfig::null_verify, "verified null-move pruning"));
    keys.push_back(switch_key("lmr", &VariantConfig::lmr, "late move reductions"));
    keys.push_back(integer_key("lmr_min_depth", &VariantConfig::lmr_min_depth, 2, 20, "least remaining depth for a reduction"));
    keys.push_back(integer_key("lmr_min_moves", &VariantConfig::lmr_min_moves, 1, 60, "moves searched at full depth before reductions"));
    keys.push_back(integer_key("lmr_deep_depth", &VariantConfig::lmr_deep_depth, 2, 64, "least remaining depth for a two-ply reduction"));
    keys.push_back(integer_key("lmr_deep_moves", &VariantConfig::lmr_deep_moves, 1, 20,
                               "a reduction is two plies from this many times lmr_min_moves moves on"));
    keys.push_back(choice_key("lmr_formula", &VariantConfig::lmr_formula, {{"steps", LmrFormula::Steps}, {"log", LmrFormula::Log}},
                              "LMR's reduction: one or two plies (the lmr_deep keys), or growing with ln(depth) * ln(move)"));
    keys.push_back(integer_key("lmr_log_base", &VariantConfig::lmr_log_base, -200, 400,
                               "lmr_formula=log: the reduction's constant part, in hundredths of a ply"));
    keys.push_back(integer_key("lmr_log_div", &VariantConfig::lmr_log_div, 50, 2000,
                               "lmr_formula=log: ln(depth) * ln(move) is divided by this over 100"));
    keys.push_back(switch_key("lmr_history", &VariantConfig::lmr_history,
                              "LMR: one ply more for a move that has never been a node's best (history count 0)"));
    keys.push_back(margin_key("rfp", &VariantConfig::rfp_margin, StandardRfp,
                              fmt::format("reverse futility pruning: a non-PV node whose evaluation is margin x depth above beta "
                                          "fails high unsearched; per ply, tapering with the phase (on: {})",
                                          to_string(StandardRfp))));
    keys.push_back(integer_key("rfp_depth", &VariantConfig::rfp_depth, 1, 64, "reverse futility pruning: most plies left"));
    keys.push_back(off_or_integer_key("lmp", &VariantConfig::lmp_base, 1, 256,
                                      "late move pruning: non-PV nodes skip quiet moves after this + depth^2 moves"));
    keys.push_back(integer_key("lmp_depth", &VariantConfig::lmp_depth, 1, 64, "late move pruning: most plies left"));
    keys.push_back(off_or_integer_key("iir", &VariantConfig::iir_depth, 2, 64,
                                      "internal iterative reduction: PV and cut nodes of at least this depth without a table "
                                      "move lose a ply"));
    keys.push_back(choice_key("qsearch", &VariantConfig::qsearch, {{"off", 0}, {"captures", 1}, {"quads", 2}}, "horizon treatment"));
    keys.push_back(integer_key("qsearch_plies", &VariantConfig::qsearch_plies, 1, 64, "longest quiescence line"));
    keys.push_back(choice_key("qs_order", &VariantConfig::qs_order, {{"captures", QsOrder::Captures}, {"history", QsOrder::History}},
                              "quiescence move order, the game's capture ranking or the history tables"));
    keys.push_back(switch_key("extensions", &VariantConfig::extensions, "the game's extension hook"));
    keys.push_back(margin_key("futility", &VariantConfig::futility_margin, StandardFutility,
                              fmt::format("skip quiet moves at depth 1 when the evaluation + margin <= alpha; a margin tapers "
                                          "from opening to endgame with the game's phase (on: {})",
                                          to_string(StandardFutility))));
    keys.push_back(margin_key("ext_futility", &VariantConfig::ext_futility_margin, StandardExtFutility,
                              fmt::format("the same at depth 2 (extended futility pruning; on: {}), not below an extended move",
                                          to_string(StandardExtFutility))));
    keys.push_back(margin_key("razoring", &VariantConfig::razor_margin, StandardRazoring,
                              fmt::format("depth 3 nodes that far below alpha are searched a ply shallower, not below an "
                                          "extended move (on: {})",
                                          to_string(StandardRazoring))));
    keys.push_back(switch_key("multicut", &VariantConfig::multicut, "multi-cut pruning at expected cut nodes"));
    keys.push_back(integer_key("mc_moves", &VariantConfig::mc_moves, 1, 64, "multi-cut: moves tried"));
    keys.push_back(integer_key("mc_cuts", &VariantConfig::mc_cuts, 1, 64, "multi-cut: fail-highs needed"));
    keys.push_back(integer_key("mc_reduction", &VariantConfig::mc_reduction, 1, 8, "multi-cut: depth reduction of its searches"));
    keys.push_back(choice_key("mc_types", &VariantConfig::mc_types, {{"retype", McTypes::Retype}, {"alternate", McTypes::Alternate}},
                              "multi-cut: later children of an expected cut node are cut nodes (retype) or all nodes (alternate)"));
    keys.push_back(switch_key("erps", &VariantConfig::erps,
                              "enhanced realization probability search (needs the game's probabilities: rps=FILE in LOA)"));
    keys.push_back(switch_key("erps_research", &VariantConfig::erps_research,
                              "ERPS: search a reduced move again a full ply below when it beats alpha (off: plain RPS)"));
    keys.push_back(switch_key("erps_floor", &VariantConfig::erps_floor,
                              "ERPS: a reduced move keeps one ply before quiescence where its plain depth had one"));
    keys.push_back(integer_key("erps_base", &VariantConfig::erps_base, 1, 99, "ERPS: a move of probability base/100 costs one ply"));
    keys.push_back(integer_key("erps_min", &VariantConfig::erps_min, 10, 100, "ERPS: least depth a move costs, in hundredths of a ply"));
    keys.push_back(integer_key("erps_max", &VariantConfig::erps_max, 100, 800, "ERPS: most depth a move costs, in hundredths of a ply"));
    keys.push_back(integer_key("threads", &VariantConfig::threads, 1, 64,
                               "search threads: lazy SMP sharing the transposition table, or MCTS sharing its tree (1: deterministic)"));
    keys.back().scope = KeyScope::Both;

    VariantKey solver = key_base("solver", KeyKind::Text, "off|<nodes>",
                                "proof-number solver before each search, a proven win played at once (at most a fifth of the "
                             "move's time); 0 is off");
    solver.set = [](VariantConfig& c, std::string_view v) {
        c.solver_nodes = v == "off" ? 0 : parse_range("solver", v, 0, 10'000'000, "off");
    };
    solver.get = [](const VariantConfig& c) { return c.solver_nodes > 0 ? std::to_string(c.solver_nodes) : std::string("off"); };
    keys.push_back(std::move(solver));
    VariantKey solver_score = key_base("solver_score", KeyKind::Text, "off|<centi-units>",
                                      "the solver runs only after a search of this game that scored at least this for the mover "
                                   "(needs solver=N; off: before every search)");
    solver_score.set = [](VariantConfig& c, std::string_view v) {
        if (v == "off") c.solver_score.reset();
        else c.solver_score = parse_range("solver_score", v, -30'000, 30'000, "off");
    };
    solver_score.get = [](const VariantConfig& c) { return c.solver_score ? std::to_string(*c.solver_score) : std::string("off"); };
    keys.push_back(std::move(solver_score));
    keys.push_back(choice_key("timeman", &VariantConfig::timeman, {{"classic", TimePolicy::Classic}, {"tournament", TimePolicy::Tournament}},
                              "time per move from the clock (fixed slice, or game length and search stability)"));
    keys.back().scope = KeyScope::Both;
    // The time manager's constants (TimeTuning), for SPSA.
    auto time_key = [&](std::string name, int TimeTuning::*member, int lo, int hi, std::string help) {
        keys.push_back(integer_key(std::move(name), [member](auto& c) -> auto& { return c.time_tuning.*member; }, lo, hi, std::move(help)));
        keys.back().scope = KeyScope::Both;
    };
    time_key("tm_start", &TimeTuning::start_percent, 10, 100, "a clock: no new iteration past this percentage of the move's target time");
    time_key("tm_max", &TimeTuning::max_slice_percent, 100, 1000,
             "timeman=tournament: a move's hard limit, in percent of its slice (at most 0.3 of the time left)");
    time_key("tm_stable", &TimeTuning::stable_percent, 20, 100,
             "timeman=tournament: the target, in percent, once one move has been best four iterations");
    add_mcts_keys(keys);
    return keys;
}

}  // namespace

const std::vector<VariantKey>& variant_keys() {
    static const std::vector<VariantKey> keys = make_keys();
    return keys;
}

bool key_applies(const VariantKey& key, const VariantConfig& config) {
    switch (key.scope) {
        case KeyScope::Both: return true;
        case KeyScope::AlphaBeta: return config.algorithm == Algorithm::AlphaBeta;
        case KeyScope::Mcts: return config.algorithm == Algorithm::Mcts;
    }
    return true;
}

const VariantKey* find_variant_key(std::string_view name) {
    for (const VariantKey& key : variant_keys())
        if (key.name == name) return &key;
    return nullptr;
}

std::vector<std::string> variant_key_names() {
    std::vector<std::string> names;
    for (const VariantKey& key : variant_keys()) names.push_back(key.name);
    return names;
}

}  // namespace variant
