#include "matches/web/operator_games.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <regex>

#include <fmt/format.h>

#include "common/files.hpp"
#include "common/text.hpp"
#include "loa/notation.hpp"
#include "matches/own_files.hpp"

namespace matches::web {
namespace {

namespace fs = std::filesystem;

constexpr double Day = 86'400'000;
// A game file is a game and its clocks: a long game of a few hundred moves is a few KB.
constexpr std::uint64_t MaxGameFile = 8 << 20;
// The file's first key, what the server recognises its own files by.
constexpr const char* Mark = "loa_operator_game";
constexpr int FormatVersion = 1;

double now_ms() {
    return static_cast<double>(
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
}

const nlohmann::json& field(const nlohmann::json& object, const char* key, const char* where = "") {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) throw InputError(fmt::format("'{}{}' is missing", where, key));
    return *it;
}

std::string text_field(const nlohmann::json& state, const char* key) {
    const auto it = state.find(key);
    if (it == state.end() || it->is_null()) return "";
    if (!it->is_string()) throw InputError(fmt::format("'{}' must be a string", key));
    const std::string& s = it->get_ref<const std::string&>();
    if (s.size() > 200 || common::has_control_character(s))
        throw InputError(fmt::format("'{}' must be a line of at most 200 bytes", key));
    return s;
}

double number_field(const nlohmann::json& object, const char* key, double low, double high, const char* where = "") {
    const nlohmann::json& value = field(object, key, where);
    if (!value.is_number() || !(value.get<double>() >= low) || value.get<double>() > high)
        throw InputError(fmt::format("'{}{}' must be a number from {} to {}", where, key, low, high));
    return value.get<double>();
}

std::string side_field(const nlohmann::json& object, const char* key, bool none_allowed) {
    const auto it = object.find(key);
    const std::string side = it == object.end() || it->is_null() ? "" : it->is_string() ? it->get<std::string>() : "?";
    if (side == "b" || side == "w" || (none_allowed && side.empty())) return side;
    throw InputError(fmt::format("'{}' must be \"b\" or \"w\"{}", key, none_allowed ? " or \"\"" : ""));
}

bool valid_id(const std::string& id) {
    static const std::regex pattern(R"(\d{8}-\d{6}(-\d{1,4})?)");
    return std::regex_match(id, pattern);
}

// "20261205-101530": the moment a game is created, UTC.
std::string id_of_now() {
    const std::time_t t = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&t, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", &utc);
    return text;
}

}  // namespace

nlohmann::json checked_operator_state(const nlohmann::json& state, const RuleSet& rules, const RequestLimits& limits) {
    if (!state.is_object()) throw InputError("the game must be a JSON object");
    nlohmann::json out = nlohmann::json::object();
    // The game replays under its rules: the moves kept are the rules' own spelling.
    const Game game = game_from_request(state, rules, limits);
    const std::string start = text_field(state, "start");
    out["start"] = start.empty() ? "startpos" : start;
    out["rules"] = text_field(state, "rules");
    nlohmann::json moves = nlohmann::json::array();
    for (const Move m : game.moves()) moves.push_back(move_to_text(m));
    out["moves"] = moves;
    for (const char* key : {"event", "round", "site", "opponent", "engine"}) out[key] = text_field(state, key);
    out["engine_side"] = side_field(state, "engine_side", false);
    out["revision"] = static_cast<std::int64_t>(number_field(state, "revision", 0, 1e15));

    const nlohmann::json& clocks = field(state, "clocks");
    if (!clocks.is_object()) throw InputError("'clocks' must be {\"b\": {...}, \"w\": {...}}");
    for (const char* side : {"b", "w"}) {
        const nlohmann::json& clock = field(clocks, side, "clocks.");
        if (!clock.is_object()) throw InputError(fmt::format("'clocks.{}' must be {{\"base_ms\", \"increment_ms\"}}", side));
        const std::string where = fmt::format("clocks.{}.", side);
        out["clocks"][side] = {{"base_ms", number_field(clock, "base_ms", 1000, Day, where.c_str())},
                               {"increment_ms", number_field(clock, "increment_ms", 0, Day / 24, where.c_str())}};
    }
    (void)field(state, "clock_after_ms");  // (present, even before the first move)
    out["clock_after_ms"] = clock_times(state, "clock_after_ms", game.moves().size());
    const nlohmann::json& left = field(state, "left_ms");
    if (!left.is_object()) throw InputError("'left_ms' must be {\"b\": ms, \"w\": ms}");
    for (const char* side : {"b", "w"}) out["left_ms"][side] = number_field(left, side, -Day, 100 * Day, "left_ms.");
    out["running"] = side_field(state, "running", true);

    const nlohmann::json ending_json = state.contains("ending") && !state.at("ending").is_null() ? state.at("ending") : nlohmann::json::object();
    if (!ending_json.is_object()) throw InputError("'ending' must be {\"time_forfeit\", \"resigned\", \"draw_agreed\"}");
    const OffBoardEnding ending = off_board_ending(ending_json, "ending.");
    out["ending"] = {{"time_forfeit", ending.time_forfeit}, {"resigned", ending.resigned}, {"draw_agreed", ending.draw_agreed}};
    const bool over = game.over() || ending.any();
    if (!out["running"].get<std::string>().empty() && over) throw InputError("'running': no clock runs in a game that is over");
    out["over"] = over;
    return out;
}

OperatorGames::OperatorGames(fs::path records_dir) : dir_(std::move(records_dir) / "operator") {}

fs::path OperatorGames::path_of(const std::string& id) const {
    if (!valid_id(id)) throw NotFound(fmt::format("no operator's game '{}' (an id is like 20261205-101530)", common::excerpt(id, 40)));
    return dir_ / (id + ".json");
}

void OperatorGames::write(const std::string& id, const nlohmann::json& state, bool create) const {
    // The mark first, then the state: how the server knows the file for its own.
    nlohmann::ordered_json file;
    file[Mark] = FormatVersion;
    for (const auto& [key, value] : state.items()) file[key] = value;
    const std::string text = file.dump(1) + "\n";
    const std::string path = path_of(id).string();
    if (create) common::create_file(path, text);
    else common::replace_file(path, text, own::operator_game());
    common::sync_directory_of(path);  // the game survives a crash of the machine too
}

nlohmann::json OperatorGames::create(const nlohmann::json& request, const RuleSet& rules, const RequestLimits& limits) {
    nlohmann::json state = checked_operator_state(request, rules, limits);
    if (state["revision"] != 0) throw InputError("a new game's 'revision' is 0");
    const std::lock_guard guard(mutex_);
    std::error_code error;
    fs::create_directory(dir_, error);
    if (error && !fs::is_directory(dir_))
        throw InputError(fmt::format("cannot make the operator's games directory {}: {}", dir_.string(), error.message()));
    const std::string base = id_of_now();
    for (int n = 1; n <= 9999; ++n) {
        const std::string id = n == 1 ? base : fmt::format("{}-{}", base, n);
        if (fs::exists(fs::symlink_status(path_of(id)))) continue;
        state["id"] = id;
        state["revision"] = 1;
        state["saved_at_ms"] = now_ms();
        write(id, state, true);
        return state;
    }
    throw InputError("too many operator's games made in one second");
}

nlohmann::json OperatorGames::save(const std::string& id, const nlohmann::json& request, const RuleSet& rules, const RequestLimits& limits) {
    nlohmann::json state = checked_operator_state(request, rules, limits);
    const std::lock_guard guard(mutex_);
    const nlohmann::json saved = load(id);
    if (saved["revision"] != state["revision"])
        throw Conflict(fmt::format("the game was saved elsewhere meanwhile (revision {}, this page has {}): open it again "
                                   "to go on from there",
                                   saved["revision"].dump(), state["revision"].dump()));
    state["id"] = id;
    state["revision"] = saved["revision"].get<std::int64_t>() + 1;
    state["saved_at_ms"] = now_ms();
    write(id, state, false);
    return state;
}

nlohmann::json OperatorGames::load(const std::string& id) const {
    const fs::path path = path_of(id);
    if (!fs::is_regular_file(fs::symlink_status(path))) throw NotFound(fmt::format("no operator's game '{}'", id));
    const std::string text = common::read_file(path.string(), MaxGameFile, "the operator's game");
    if (!own::operator_game().ours(text)) throw InputError(fmt::format("'{}' is not an operator's game", path.string()));
    nlohmann::json state = nlohmann::json::parse(text, nullptr, false);
    if (state.is_discarded() || !state.is_object()) throw InputError(fmt::format("'{}' is not JSON", path.string()));
    state.erase(Mark);
    state["now_ms"] = now_ms();
    return state;
}

std::uintmax_t OperatorGames::file_bytes(const std::string& id) const {
    std::error_code error;
    const std::uintmax_t bytes = fs::file_size(path_of(id), error);
    return error ? 0 : std::min<std::uintmax_t>(bytes, MaxGameFile);
}

std::uintmax_t OperatorGames::largest_file_bytes() const {
    std::uintmax_t largest = 0;
    std::error_code error;
    for (fs::directory_iterator it(dir_, error), end; !error && it != end; it.increment(error)) {
        std::error_code size_error;
        const std::uintmax_t bytes = fs::file_size(it->path(), size_error);
        if (!size_error) largest = std::max(largest, std::min<std::uintmax_t>(bytes, MaxGameFile));
    }
    return largest;
}

nlohmann::json OperatorGames::list() const {
    nlohmann::json games = nlohmann::json::array();
    std::error_code error;
    for (fs::directory_iterator it(dir_, error), end; !error && it != end; it.increment(error)) {
        const std::string name = it->path().filename().string();
        if (!name.ends_with(".json") || !valid_id(name.substr(0, name.size() - 5))) continue;
        try {
            const nlohmann::json g = load(name.substr(0, name.size() - 5));
            games.push_back({{"id", g.value("id", "")},
                             {"event", g.value("event", "")},
                             {"round", g.value("round", "")},
                             {"opponent", g.value("opponent", "")},
                             {"engine_side", g.value("engine_side", "")},
                             {"plies", g.contains("moves") ? g["moves"].size() : 0},
                             {"over", g.value("over", false)},
                             {"saved_at_ms", g.value("saved_at_ms", 0.0)}});
        } catch (const std::exception&) {
            // A file gone meanwhile, not one of ours, or one edited by hand into another shape:
            // not listed (opening it says what is wrong).
        }
    }
    std::sort(games.begin(), games.end(), [](const nlohmann::json& a, const nlohmann::json& b) { return a["id"] > b["id"]; });
    return {{"games", games}};
}

}  // namespace matches::web
