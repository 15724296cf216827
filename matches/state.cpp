#include "matches/state.hpp"


#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "common/bounded_io.hpp"
#include "common/error.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "matches/file_digest.hpp"
#include "matches/own_files.hpp"

namespace matches {

using common::InputError;

namespace {

// A file the engine reads with its content's digest ("net.nnue#<fnv1a>"), so that a weights
// file, network or probabilities file changed in place makes another match, not a resumed one.
std::string with_digest(const std::string& file) {
    const std::string fingerprint = file_fingerprint(file);
    if (fingerprint == file) return file;
    return file + "#" + fingerprint.substr(fingerprint.size() - 17, 16);
}

// An engine as it will play: for one in process, every search switch its text resolves to
// (this binary's defaults included), its evaluation, its probabilities and its limits; for an
// external one, its text (its own defaults are out of sight).
nlohmann::ordered_json resolved_engine(const EngineSpec& e) {
    if (e.external()) return {{"engine", e.name}, {"external", true}, {"plays", e.text}};
    const auto tc = e.time_control ? fmt::format("{:g}+{:g}", e.time_control->base_ms / 1000, e.time_control->increment_ms / 1000)
                                   : std::string("off");
    return {{"engine", e.name},
            {"external", false},
            {"plays", fmt::format("{},eval={},rps={},depth={},nodes={},st={:g},tc={}", variant::to_string(e.config),
                                  with_digest(e.eval), e.rps.empty() ? "none" : with_digest(e.rps), e.depth, e.nodes, e.move_time_ms / 1000, tc)}};
}

// "w.json" and "w.json#<digest>": the same file, named by a state written before files had their
// digest recorded and by one written since; both resume (as they did before). Two digests
// that differ are two files.
bool same_file_without_digest(std::string_view a, std::string_view b) {
    const auto without = [](std::string_view v) { return v.substr(0, v.find('#')); };
    const bool digest_a = a.find('#') != std::string_view::npos, digest_b = b.find('#') != std::string_view::npos;
    return digest_a != digest_b && without(a) == without(b);
}

// Whether an engine text names its evaluation (or is an external engine, whose own it is).
bool names_evaluation(const std::string& text) {
    try {
        for (const auto& [key, value] : common::parse_key_values(text, "engine"))
            if (key == "eval" || key == "weights" || key == "cmd") return true;
    } catch (const InputError&) {
        return true;  // not an engine text: the comparison of the texts decides
    }
    return false;
}

// A resolved engine's "key=value,..." as a map (throws InputError when malformed).
std::map<std::string_view, std::string_view> key_values(std::string_view text) {
    std::map<std::string_view, std::string_view> out;
    for (const auto& [key, value] : common::parse_key_values(text, "resolved engine")) out.emplace(key, value);
    return out;
}

const nlohmann::json* string_field(const nlohmann::json& j, const char* key) {
    return j.is_object() && j.contains(key) && j[key].is_string() ? &j[key] : nullptr;
}

// Why the engines of `saved` are not those of `now`; empty when they are the same players.
// Where both record how their engines resolved, that decides: the texts may differ (a switch
// given explicitly that was a default before), a switch both know may not, and a switch only
// one knows (added by a later version) is no difference. Before that record, the texts decide.
std::string engine_difference(const nlohmann::json& saved, const nlohmann::json& now) {
    const std::string other = "it belongs to another match (other engines)";
    if (!saved.is_object() || !now.is_object()) return other;
    if (!saved.contains("resolved") || !now.contains("resolved")) {
        if (saved.value("engines", nlohmann::json()) != now.value("engines", nlohmann::json())) return other;
        // Written before engines' settings were recorded, and so before the network became the
        // default evaluation: an in-process engine that names none played the hand-written one,
        // and would now play the network. Given eval=hce its text is another match's.
        for (const auto& text : now.value("engines", nlohmann::json::array()))
            if (text.is_string() && !names_evaluation(text.get<std::string>()))
                return fmt::format("it was written before the network became the default evaluation: engine '{}' names no "
                                   "evaluation, so its games were played with the hand-written one, which this build does not "
                                   "play by that text (resume it with a build from before 5efeec8, or start again with --fresh)",
                                   text.get<std::string>());
        return "";
    }
    const nlohmann::json &a = saved["resolved"], &b = now["resolved"];
    if (!a.is_array() || !b.is_array() || a.size() != b.size()) return other;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const nlohmann::json *name_a = string_field(a[i], "engine"), *name_b = string_field(b[i], "engine");
        const nlohmann::json *plays_a = string_field(a[i], "plays"), *plays_b = string_field(b[i], "plays");
        if (!name_a || !name_b || !plays_a || !plays_b || *name_a != *name_b) return other;
        auto external_flag = [](const nlohmann::json& j) { return !j.contains("external") || !j["external"].is_boolean() || j["external"].get<bool>(); };
        const bool external = external_flag(a[i]) || external_flag(b[i]);
        if (external) {
            if (*plays_a != *plays_b) return other;
            continue;
        }
        const std::string& text_a = plays_a->get_ref<const std::string&>();
        const std::string& text_b = plays_b->get_ref<const std::string&>();
        const auto before = key_values(text_a);
        for (const auto& [key, value] : key_values(text_b)) {
            const auto it = before.find(key);
            if (it != before.end() && it->second != value && !same_file_without_digest(it->second, value))
                return fmt::format("engine '{}' now plays with {}={} where the saved games had {}={} (a default of the "
                                   "binary changed, or the engine did: give the setting explicitly{})",
                                   name_b->get<std::string>(), key, value, key, it->second,
                                   key == "eval" && it->second == "full" ? ", eval=hce for the hand-written evaluation" : "");
        }
    }
    return {};
}

// Settings recorded only since a later version: compared when both runs record them, so that
// a state or result file written before still resumes or merges (on what it does record).
constexpr const char* LaterSettings[] = {"openings_digest", "time_margin_ms"};

// What makes two runs one match besides their engines (and, unless kept, their shard).
nlohmann::json identity(const nlohmann::json& settings, bool keep_shard) {
    nlohmann::json x = settings;
    if (!x.is_object()) return x;
    x.erase("resolved");
    x.erase("engines");
    x.erase("test_vs_base");  // how the summary reads, not what was played
    x.erase("pgn");           // where the records went (a state file's), idem
    if (!keep_shard) x.erase("shard");
    return x;
}

// "file <path> order=<o> seed=<s>" without its path: where the file was read from, which is
// another path in another clone or on another node, and says nothing of what it holds.
void drop_openings_path(nlohmann::json& settings) {
    const auto source = settings.find("openings");
    if (source == settings.end() || !source->is_string()) return;
    const std::string text = source->get<std::string>();
    constexpr std::string_view File = "file ", Order = " order=";
    const std::size_t order = text.rfind(Order);  // a path may hold " order=", the tail never
    if (text.starts_with(File) && order != std::string::npos && order >= File.size())
        *source = "file" + text.substr(order);
}

bool same_identity(const nlohmann::json& a, const nlohmann::json& b, bool keep_shard) {
    nlohmann::json x = identity(a, keep_shard), y = identity(b, keep_shard);
    if (!x.is_object() || !y.is_object()) return x == y;
    for (const char* key : LaterSettings)
        if (!x.contains(key) || !y.contains(key)) {
            x.erase(key);
            y.erase(key);
        }
    // Where both record the openings' digest, it says whether they are the same openings: a
    // run paused in one clone resumes in another, shards played on other nodes merge. Without
    // it, the path is all there is to compare.
    if (x.contains("openings_digest")) {
        drop_openings_path(x);
        drop_openings_path(y);
    }
    return x == y;
}

}  // namespace

nlohmann::ordered_json settings_json(const MatchSettings& s) {
    nlohmann::ordered_json j;
    for (const EngineSpec& e : s.engines) j["engines"].push_back(e.text);
    for (const EngineSpec& e : s.engines) j["resolved"].push_back(resolved_engine(e));
    j["format"] = s.format == Format::Gauntlet ? "gauntlet" : "roundrobin";
    j["games"] = s.games;
    j["rules"] = loa::to_string(s.rules);
    j["openings"] = s.openings_source;
    j["start"] = s.start_name;
    j["sprt"] = s.sprt_text;
    j["resign"] = {{"score", s.adjudication.resign_score}, {"moves", s.adjudication.resign_moves}};
    j["shard"] = fmt::format("{}/{}", s.shard_index + 1, s.shard_count);
    // The openings themselves, not only how they were named: a file edited in place, or
    // generated openings that a rebuilt binary's balance search picks differently.
    if (!s.openings_digest.empty()) j["openings_digest"] = s.openings_digest;
    j["time_margin_ms"] = s.adjudication.time_margin_ms;  // it decides time losses
    if (s.test_vs_base) j["test_vs_base"] = true;
    return j;
}

bool same_match(const nlohmann::json& a, const nlohmann::json& b) {
    return same_identity(a, b, false) && engine_difference(a, b).empty();
}

namespace {

// Milliseconds, rounded to 0.1 ms: a state line of a long game stays short.
nlohmann::json times_json(const std::vector<double>& ms) {
    nlohmann::json a = nlohmann::json::array();
    for (const double t : ms) a.push_back(std::round(t * 10) / 10);
    return a;
}

// An optional array of non-negative times; at most `max_count` (a side's moves).
std::vector<double> times_field(const nlohmann::json& j, const char* key, std::size_t max_count) {
    std::vector<double> out;
    if (!j.contains(key)) return out;
    const nlohmann::json& a = j.at(key);
    if (!a.is_array() || a.size() > max_count)
        throw InputError(fmt::format("'{}' must be an array of at most {} times", key, max_count));
    for (const nlohmann::json& v : a) {
        if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>()))
            throw InputError(fmt::format("'{}' must hold non-negative milliseconds", key));
        out.push_back(v.get<double>());
    }
    return out;
}

// An integer field within [low, high]. nlohmann's own conversion casts any number, which is
// undefined for a float out of range (found by fuzzing): a number of another kind or range is
// an input error here. `fallback` is used when the field is absent (nullopt: it is required).
long long integer_field(const nlohmann::json& j, const char* key, long long low, long long high,
                        std::optional<long long> fallback = std::nullopt) {
    if (!j.contains(key)) {
        if (fallback) return *fallback;
        throw InputError(fmt::format("missing '{}'", key));
    }
    const nlohmann::json& v = j.at(key);
    // Non-negative numbers parse as unsigned: compare those as unsigned, before any cast.
    const bool fits = v.is_number_unsigned() ? v.get<unsigned long long>() <= static_cast<unsigned long long>(high)
                                             : v.is_number_integer();
    const bool in_range = fits && v.get<long long>() >= low && v.get<long long>() <= high;
    if (!in_range) throw InputError(fmt::format("'{}' must be an integer from {} to {}", key, low, high));
    return v.get<long long>();
}

constexpr long long MaxCount = 1'000'000'000;

// How every state file this program writes begins: its settings line's first key.
constexpr std::string_view StatePrefix = "{\"engines\":";

// Whether a file that begins with `head` can be a state file of this program: its settings
// line, or that line cut short by a kill. (The program never leaves an empty one: a file it
// created is removed when its first write fails.)
bool looks_like_state(std::string_view head) {
    return !head.empty() && (head.starts_with(StatePrefix) || StatePrefix.starts_with(head));
}

}  // namespace

MatchSettings settings_from_json(const nlohmann::json& j) {
    MatchSettings s;
    try {
        int i = 0;
        for (const auto& text : j.at("engines")) s.engines.push_back(parse_engine_spec(text.get<std::string>(), i++));
        if (s.engines.size() < 2) throw InputError("result file: a match needs at least two engines");
        // Each engine with the evaluation it played, not this build's default: the record names
        // it (digest cut off); a file written before the record, and so before the network became
        // the default, played the hand-written one where the text names none.
        const nlohmann::json resolved = j.value("resolved", nlohmann::json::array());
        for (std::size_t e = 0; e < s.engines.size(); ++e) {
            EngineSpec& spec = s.engines[e];
            if (spec.external()) continue;
            const nlohmann::json* plays = e < resolved.size() ? string_field(resolved[e], "plays") : nullptr;
            if (plays) {
                for (const auto& [key, value] : key_values(plays->get_ref<const std::string&>()))
                    if (key == "eval") spec.eval = std::string(value.substr(0, value.find('#')));
            } else if (!names_evaluation(spec.text)) {
                spec.eval = "full";
            }
        }
        s.format = j.at("format") == "gauntlet" ? Format::Gauntlet : Format::RoundRobin;
        s.games = static_cast<int>(integer_field(j, "games", 1, MaxCount));
        s.rules = loa::parse_rules(j.at("rules").get<std::string>());
        s.openings_source = j.at("openings").get<std::string>();
        s.start_name = j.at("start").get<std::string>();
        s.sprt_text = j.at("sprt").get<std::string>();
        if (!s.sprt_text.empty()) s.sprt = parse_sprt(s.sprt_text);
        s.openings_digest = j.value("openings_digest", std::string());
        if (j.contains("time_margin_ms")) {
            const nlohmann::json& margin = j.at("time_margin_ms");
            if (!margin.is_number() || !std::isfinite(margin.get<double>()) || margin.get<double>() < 0)
                throw InputError("result file: 'time_margin_ms' must be a non-negative number");
            s.adjudication.time_margin_ms = margin.get<double>();
        }
        s.test_vs_base = j.value("test_vs_base", false);
    } catch (const nlohmann::json::exception& e) {
        throw InputError(fmt::format("result file: bad settings ({})", e.what()));
    }
    check_schedule_size(s);
    return s;
}

nlohmann::ordered_json game_json(const GameRecord& g) {
    std::string moves;
    for (const loa::Move m : g.moves) common::append_word(moves, loa::move_to_text(m));
    return {{"game", g.index + 1},
            {"pair", g.pair + 1},
            {"white", g.white},
            {"black", g.black},
            {"result", g.result_text()},
            {"termination", g.termination},
            {"date", g.date},
            {"rules_ending", g.rules_ending},
            {"opening", g.opening},
            {"start", g.start.to_text()},
            {"opening_plies", g.opening_plies},
            {"plies", g.moves.size()},
            {"black_limit", g.black_limit},
            {"white_limit", g.white_limit},
            {"black_nodes", g.black_nodes},
            {"white_nodes", g.white_nodes},
            {"black_ms", g.black_ms},
            {"white_ms", g.white_ms},
            {"black_max_move_ms", g.black_max_move_ms},
            {"white_max_move_ms", g.white_max_move_ms},
            {"max_overshoot_ms", g.max_overshoot_ms},
            {"black_move_ms", times_json(g.black_move_ms)},
            {"white_move_ms", times_json(g.white_move_ms)},
            {"moves", moves}};
}

GameRecord game_from_json(const nlohmann::json& j) {
    GameRecord g;
    try {
        g.index = static_cast<int>(integer_field(j, "game", 1, MaxCount)) - 1;
        g.pair = static_cast<int>(integer_field(j, "pair", 1, MaxCount)) - 1;
        g.white = j.at("white").get<std::string>();
        g.black = j.at("black").get<std::string>();
        const std::string result = j.at("result").get<std::string>();
        g.outcome = result == "1-0" ? loa::Outcome::WhiteWins
                    : result == "0-1" ? loa::Outcome::BlackWins
                    : result == "1/2-1/2" ? loa::Outcome::Draw
                                          : throw InputError(fmt::format("bad result '{}'", result));
        g.termination = j.at("termination").get<std::string>();
        g.date = j.value("date", "");  // not recorded before PGN's Date tag: "????.??.??" in the records
        g.rules_ending = j.value("rules_ending", true);
        g.opening = j.at("opening").get<std::string>();
        g.start = loa::parse_position(j.at("start").get<std::string>());
        g.opening_plies = static_cast<int>(integer_field(j, "opening_plies", 0, MaxCount, 0));
        g.black_limit = j.value("black_limit", "");
        g.white_limit = j.value("white_limit", "");
        g.black_nodes = static_cast<std::uint64_t>(integer_field(j, "black_nodes", 0, std::numeric_limits<long long>::max(), 0));
        g.white_nodes = static_cast<std::uint64_t>(integer_field(j, "white_nodes", 0, std::numeric_limits<long long>::max(), 0));
        g.black_ms = j.value("black_ms", 0.0);
        g.white_ms = j.value("white_ms", 0.0);
        g.black_max_move_ms = j.value("black_max_move_ms", 0.0);
        g.white_max_move_ms = j.value("white_max_move_ms", 0.0);
        g.max_overshoot_ms = j.value("max_overshoot_ms", 0.0);
        loa::Position pos = g.start;
        const std::string move_text = j.at("moves").get<std::string>();
        for (const std::string_view text : loa::split_move_list(move_text)) {
            const loa::Move m = loa::parse_move(pos, text);
            g.moves.push_back(m);
            pos.make(m);
        }
        // A side's moves, and one more: a game lost on time, by an illegal move or by a failure
        // ends with an answer that was timed and not played. (Without it, such a game's record
        // was refused on resume: seen in a loaded -j 2 run that lost a game on time.)
        const std::size_t side_moves = (g.moves.size() + 1) / 2 + 1;
        g.black_move_ms = times_field(j, "black_move_ms", side_moves);
        g.white_move_ms = times_field(j, "white_move_ms", side_moves);
    } catch (const nlohmann::json::exception& e) {
        throw InputError(fmt::format("game record: {}", e.what()));
    }
    return g;
}

StateFile::StateFile(std::string path, const MatchSettings& s) : path_(std::move(path)), match_(s), settings_(settings_json(s)) {
    settings_["pgn"] = pgn_starts_json({});
}

std::optional<PgnStarts> StateFile::recorded_pgn_starts() const {
    if (common::names_a_special_file(path_)) return std::nullopt;  // refused by load_all
    const std::optional<std::string> text = common::read_file_if_exists(path_, common::MaxRecordFile, "state file");
    if (!text || text->find('\n') == std::string::npos) return std::nullopt;
    const std::string first = text->substr(0, text->find('\n'));
    if (!looks_like_state(first)) return std::nullopt;
    const nlohmann::json j = nlohmann::json::parse(first, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("pgn")) return std::nullopt;
    return pgn_starts_from_json(j["pgn"]);
}

void StateFile::set_pgn_starts(const PgnStarts& starts) { settings_["pgn"] = pgn_starts_json(starts); }

void StateFile::save_header() const {
    const std::optional<std::string> saved = common::read_file_if_exists(path_, common::MaxRecordFile, "state file");
    if (!saved) return;
    const std::string& text = *saved;
    const std::size_t first_line_end = text.find('\n');
    if (!looks_like_state(text) || first_line_end == std::string::npos) return;
    common::replace_file(path_, settings_.dump() + text.substr(first_line_end), own::state_file());
}

void check_result_path(const std::string& path, const nlohmann::json& settings, const std::string& option, bool any_shard) {
    std::error_code absent;
    if (path.empty() || !std::filesystem::exists(path, absent)) return;
    if (common::names_a_special_file(path)) return;  // /dev/null and the like: written in place
    if (common::is_symbolic_link(path))
        throw InputError(fmt::format("{} '{}' is a symbolic link: it is left as it is (name the file itself)", option, path));
    const nlohmann::json there = nlohmann::json::parse(common::read_file(path, common::MaxRecordFile, option), nullptr, false);
    if (!there.is_discarded() && there.is_object() && there.contains("settings") &&
        same_identity(there["settings"], settings, !any_shard) && engine_difference(there["settings"], settings).empty())
        return;
    throw InputError(fmt::format("{} '{}' already exists and is not a result of this match: it is left as it is (name "
                                 "another file, or move it away)",
                                 option, path));
}

std::vector<GameRecord> saved_games(const std::vector<std::string_view>& lines, const MatchSettings& s, const std::string& source) {
    // The lines are in the order the run counted the games (appended as each was counted),
    // which is not the schedule's with -j > 1; a replay in that order takes every SPRT decision
    // where the run took it, so the order is kept. A later record of the same game replaces an
    // earlier one and takes its place in the order.
    std::map<int, std::pair<std::size_t, GameRecord>> by_index;  // game index -> (line, record)
    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (common::trim(lines[i]).empty()) continue;
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(lines[i]);
        } catch (const nlohmann::json::exception&) {
            // A line cut short and then followed by others (written by versions before
            // StateFile::load_all rewrote the file): that game is played again.
            continue;
        }
        try {
            GameRecord g = game_from_json(j);
            check_scheduled(s, g);
            const int index = g.index;
            by_index.insert_or_assign(index, std::pair{i, std::move(g)});
        } catch (const InputError& e) {
            // The settings line is line 1 of the file.
            throw InputError(fmt::format("{}, line {}: {}", source, i + 2, e.what()));
        }
    }
    std::vector<std::pair<std::size_t, GameRecord>> ordered(by_index.size());
    std::transform(by_index.begin(), by_index.end(), ordered.begin(), [](auto& entry) { return std::move(entry.second); });
    std::sort(ordered.begin(), ordered.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::vector<GameRecord> games;
    for (auto& [line, g] : ordered) games.push_back(std::move(g));
    return games;
}

std::vector<GameRecord> whole_pairs(const std::vector<GameRecord>& games) {
    std::set<int> seen;
    for (const GameRecord& g : games) seen.insert(g.index);
    std::vector<GameRecord> out;
    for (const GameRecord& g : games)
        if (seen.contains(g.index ^ 1)) out.push_back(g);  // games 2p and 2p + 1 make pair p
    return out;
}

std::vector<GameRecord> StateFile::load_all() const {
    if (common::names_a_special_file(path_)) throw InputError(fmt::format("state file '{}' is not a regular file", path_));
    const std::optional<std::string> file = common::read_file_if_exists(path_, common::MaxRecordFile, "state file");
    if (!file) return {};
    const std::string& text = *file;
    if (!looks_like_state(text))
        throw InputError(fmt::format("'{}' is not a loa-match state file: it is left as it is (give --state a file of its own)", path_));
    // Only lines that end in a newline were written whole: a kill may cut the last one short.
    std::vector<std::string_view> lines = common::split(std::string_view(text).substr(0, text.rfind('\n') + 1), '\n');
    lines.pop_back();  // what follows the last newline: empty, or the torn tail
    if (lines.empty()) {  // nothing but (part of) the settings line of a run killed at once
        remove();
        return {};
    }
    nlohmann::json saved;
    try {
        saved = nlohmann::json::parse(lines.front());
    } catch (const nlohmann::json::exception&) {
        throw InputError(fmt::format("state file '{}' is not a loa-match state", path_));
    }
    if (!saved.is_object() || !same_identity(saved, settings_, true)) {
        // The same match but for the openings' digest: the openings changed under their name.
        nlohmann::json with_our_digest = saved;
        if (saved.is_object() && saved.contains("openings_digest") && settings_.contains("openings_digest"))
            with_our_digest["openings_digest"] = settings_["openings_digest"];
        if (same_identity(with_our_digest, settings_, true))
            throw InputError(fmt::format("state file '{}': the openings are not the ones its games were played from (the "
                                         "openings file changed, or this binary generates other openings); delete it "
                                         "or pass --fresh",
                                         path_));
        throw InputError(fmt::format("state file '{}' belongs to another match (other games, openings, rules, SPRT, clock "
                                     "margin or shard); delete it or pass --fresh",
                                     path_));
    }
    // The engines: the same texts may play differently (a binary whose defaults changed), and
    // other texts the same (a default given explicitly).
    if (const std::string difference = engine_difference(saved, settings_); !difference.empty())
        throw InputError(fmt::format("state file '{}': {}; delete it or pass --fresh", path_, difference));
    std::vector<GameRecord> games =
        saved_games(std::vector<std::string_view>(lines.begin() + 1, lines.end()), match_, fmt::format("state file '{}'", path_));
    // Rewrite to exactly what is kept, in that order (a new file renamed over the old: a kill
    // leaves one or the other, both whole). A half-played pair's game stays: the resume needs
    // to know the pair was in flight, and the game played again replaces it.
    std::string kept = settings_.dump() + '\n';
    for (const GameRecord& g : games) kept += game_json(g).dump() + '\n';
    common::replace_file(path_, kept, own::state_file());
    return games;
}

std::vector<GameRecord> StateFile::load() const { return whole_pairs(load_all()); }

void StateFile::append(const GameRecord& g) {
    std::error_code absent;
    const bool fresh = std::filesystem::file_size(path_, absent) == 0 || absent;
    std::string text = fresh ? settings_.dump() + '\n' : std::string();
    text += game_json(g).dump() + '\n';
    common::append_to_file(path_, text);  // one checked write of whole lines: cut back if it fails
}

void StateFile::remove() const {
    if (common::names_a_special_file(path_))
        throw InputError(fmt::format("'{}' is not a regular file: it is not a state file to delete", path_));
    std::error_code absent;
    if (!std::filesystem::exists(std::filesystem::symlink_status(path_, absent))) return;  // nothing to remove
    const std::string head = common::file_head(path_, StatePrefix.size());
    if (!looks_like_state(head))
        throw InputError(fmt::format("'{}' is not a loa-match state file: it is not deleted (give --state a file of its own)", path_));
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
}

}  // namespace matches
