#include "matches/web/records_dir.hpp"

#include <cerrno>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "common/bounded_io.hpp"
#include "common/file_lock.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "loa/error.hpp"
#include "loa/move_names.hpp"
#include "loa/game.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "matches/match.hpp"
#include "matches/records.hpp"
#include "matches/report.hpp"
#include "matches/state.hpp"
#include "matches/web/game_api.hpp"

namespace matches::web {
using namespace ::loa;  // the board speaks the game's types throughout
namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& file) {
    return common::read_file(file.string(), common::MaxRecordFile, file.filename().string());
}

// What the page can do with a file, told by its name and, for JSON, its first bytes.
std::string kind_of(const fs::path& file) {
    const std::string name = file.filename().string();
    if (name.ends_with(".pgn")) return "records";
    if (name.ends_with(".state")) return "match";
    if (!name.ends_with(".json")) return "";
    const std::string head = common::file_head(file.string());
    if (head.find("\"pairings\"") != std::string::npos || head.find("\"scheduled_games\"") != std::string::npos)
        return "match";
    if (head.find("\"variants\"") != std::string::npos || head.find("\"positions\"") != std::string::npos) return "treesize";
    return "json";
}

// The runner's live file (matches/live_file.hpp), each game replayed for the page to draw.
// Missing or unreadable (between two versions, or the run just ended): nothing in play.
nlohmann::json games_in_play(const fs::path& live) {
    nlohmann::json out = nlohmann::json::array();
    std::optional<std::string> text;
    try {
        text = common::read_file_if_exists(live.string(), common::MaxListFile, "live file");
    } catch (const InputError&) {
        return out;  // a FIFO or a device there, or too large: nothing the board reads
    }
    const nlohmann::json j = nlohmann::json::parse(text.value_or(""), nullptr, false);
    if (j.is_discarded() || !j.contains("games") || !j["games"].is_array()) return out;
    for (const nlohmann::json& g : j["games"]) {
        try {
            Game game(position_from_argument(g.at("start").get<std::string>()));
            for (const auto& m : g.at("moves")) game.play(m.get<std::string>());
            nlohmann::json view = web::game_json(game);
            nlohmann::json moves = nlohmann::json::array();  // as played, so that the page can open the game
            for (const loa::Move m : game.moves()) moves.push_back(loa::move_to_text(m));
            out.push_back({{"game", g.at("game")},
                           {"black", g.at("black")},
                           {"white", g.at("white")},
                           {"start", g.at("start")},
                           {"moves", moves},
                           {"plies", game.moves().size()},
                           {"pieces", view["pieces"]},
                           {"last_move", view["last_move"]},
                           {"side_to_move", view["side_to_move"]}});
        } catch (const std::exception&) {
            // a game the page cannot draw is left out, not the whole view
        }
    }
    return out;
}

}  // namespace

RecordsDir::RecordsDir(fs::path dir) {
    std::error_code error;
    dir_ = fs::canonical(dir, error);
    if (error || !fs::is_directory(dir_)) throw InputError(fmt::format("--records: '{}' is not a directory", dir.string()));
}

nlohmann::json RecordsDir::list() const {
    nlohmann::json files = nlohmann::json::array();
    std::vector<fs::path> paths;
    for (const fs::directory_entry& e : fs::directory_iterator(dir_))
        if (resolve(e.path().filename().string())) paths.push_back(e.path());
    std::sort(paths.begin(), paths.end());
    for (const fs::path& p : paths) {
        const std::string kind = kind_of(p);
        if (kind.empty()) continue;
        std::error_code gone;  // a run may delete its state file at any moment
        const auto bytes = fs::file_size(p, gone);
        if (!gone) files.push_back({{"name", p.filename().string()}, {"kind", kind}, {"bytes", bytes}});
    }
    return {{"dir", dir_.string()}, {"files", files}};
}

std::optional<fs::path> RecordsDir::resolve(std::string_view name) const {
    if (name.empty() || name.size() > 255 || name.front() == '.') return std::nullopt;
    for (const char c : name)
        if (c == '/' || c == '\\' || c == '\0' || static_cast<unsigned char>(c) < 0x20) return std::nullopt;
    std::error_code error;
    const fs::path file = fs::canonical(dir_ / fs::path(std::string(name)), error);
    // A symbolic link is followed only when it stays in the directory.
    if (error || file.parent_path() != dir_ || !fs::is_regular_file(file, error)) return std::nullopt;
    return file;
}

std::string RecordsDir::records_json(const fs::path& file, const RequestLimits& limits) {
    return records_text_json(file.filename().string(), read_file(file), limits);
}

namespace {

void check_counts(const std::string& name, const std::vector<matches::ParsedRecord>& records, const RequestLimits& limits) {
    if (records.size() > limits.games)
        throw TooLarge(fmt::format("{}: {} games; the board reads at most {} a request", name, records.size(), limits.games));
    std::size_t plies = 0;
    for (const matches::ParsedRecord& r : records) plies += r.moves.size();
    if (plies > limits.plies)
        throw TooLarge(fmt::format("{}: {} plies; the board reads at most {} a request", name, plies, limits.plies));
}

// A record replayed under its rules, as the page's JSON.
nlohmann::json replayed(const matches::ParsedRecord& r) {
    const auto rules_tag = r.tags.find("Rules");  // a record that says its rule set is replayed under it
    const RuleSet rules = rules_tag == r.tags.end() ? RuleSet{} : parse_rules(rules_tag->second);
    Game game(parse_position(r.start_text()), rules);
    for (const std::string& m : r.moves) {
        if (game.over()) break;  // a game adjudicated on the rules' last move: nothing follows
        game.play(m);
    }
    nlohmann::json moves = nlohmann::json::array();
    for (const Move m : game.moves()) moves.push_back(move_to_text(m));
    return {{"tags", r.tags}, {"start", position_to_text(game.start_position())}, {"moves", moves},
            {"rules", to_string(rules)}, {"reason", r.reason}};
}

}  // namespace

std::string RecordsDir::records_text_json(const std::string& name, const std::string& text, const RequestLimits& limits) {
    std::vector<matches::ParsedRecord> records;
    {
        std::istringstream in(text);
        records = matches::read_records(in, loa::Variations::Skip);  // an annotated game opens too
    }
    check_counts(name, records, limits);
    // The text of {"file": name, "games": [...]} dumped whole, written a game at a time.
    std::string out = json_text(nlohmann::json::object({{"file", name}}));
    out.pop_back();  // its closing brace
    out += ",\"games\":[";
    for (std::size_t i = 0; i < records.size(); ++i) {
        try {
            if (i > 0) out += ',';
            out += json_text(replayed(records[i]));
            records[i] = {};  // done with: freed as the answer grows
        } catch (const InputError& e) {
            throw InputError(fmt::format("{}: game {}: {}", name, i + 1, e.what()));
        }
    }
    out += "]}";
    return out;
}

namespace {

// The match's result JSON with every game, its moves included.
nlohmann::json whole_match_json(const fs::path& file);

}  // namespace

nlohmann::json RecordsDir::match_json(const fs::path& file, int recent) {
    nlohmann::json result = whole_match_json(file);
    // The page shows standings and the latest results, not every move of every game.
    nlohmann::json games = nlohmann::json::array();
    if (result.contains("games") && result["games"].is_array()) {
        const auto& all = result["games"];
        const std::size_t from = all.size() > static_cast<std::size_t>(recent) ? all.size() - static_cast<std::size_t>(recent) : 0;
        for (std::size_t i = from; i < all.size(); ++i) {
            nlohmann::json g = all[i];
            g.erase("moves");
            games.push_back(std::move(g));
        }
    }
    result["games"] = std::move(games);
    return result;
}

nlohmann::json RecordsDir::match_game_json(const fs::path& file, int game) {
    const nlohmann::json result = whole_match_json(file);
    if (result.contains("games") && result["games"].is_array()) {
        for (const nlohmann::json& g : result["games"]) {
            if (g.value("game", 0) != game) continue;
            nlohmann::json moves = nlohmann::json::array();
            const std::string text = g.value("moves", std::string());  // the views below point into it
            for (const std::string_view m : split_move_list(text)) moves.push_back(std::string(m));
            const std::string rules = result.contains("settings") ? result["settings"].value("rules", std::string()) : std::string();
            return {{"tags", {{"Event", result.value("event", std::string("?"))},
                              {"Round", fmt::format("{}.{}", g.value("pair", 0), g.value("game", 0))},
                              {"Black", g.value("black", std::string("?"))},
                              {"White", g.value("white", std::string("?"))},
                              {"Result", g.value("result", std::string("*"))}}},
                    {"start", g.value("start", std::string(StartPositionText))},
                    {"moves", moves},
                    {"rules", rules},
                    {"reason", g.value("termination", std::string())}};
        }
    }
    throw NotFound(fmt::format("no game {} in '{}'", game, file.filename().string()));
}

namespace {

nlohmann::json whole_match_json(const fs::path& file) {
    const std::string text = read_file(file);
    nlohmann::json result;
    if (file.filename().string().ends_with(".state")) {
        // Only whole lines: the runner may be writing the last one right now.
        std::vector<std::string_view> lines = common::split(std::string_view(text).substr(0, text.rfind('\n') + 1), '\n');
        if (lines.size() < 2) throw InputError(fmt::format("'{}' holds no match yet", file.filename().string()));
        lines.pop_back();
        matches::MatchSettings settings;
        matches::MatchResult run;
        try {
            settings = matches::settings_from_json(nlohmann::json::parse(lines.front()));
        } catch (const nlohmann::json::exception& e) {
            throw InputError(fmt::format("'{}' is not a loa-match state file ({})", file.filename().string(), e.what()));
        }
        // Each game once, in the order the run counted them: its SPRT decisions as it took them.
        run.games = matches::saved_games(std::vector<std::string_view>(lines.begin() + 1, lines.end()), settings,
                                         fmt::format("'{}'", file.filename().string()));
        // A run holds a lock on its state file while it plays; without one the run was stopped
        // (and can be resumed), and a live file it left behind is stale. A stopped run counts
        // what its resume keeps, as its interrupted summary did: the whole pairs.
        const bool running = common::FileLock::held(file.string());
        if (!running) run.games = matches::whole_pairs(run.games);
        for (const matches::GameRecord& g : run.games) run.counting_order.push_back(g.index);
        matches::tally(settings, run, matches::SprtReplay::GivenOrder);
        run.scheduled_games = matches::scheduled_games(settings);
        result = nlohmann::json::parse(matches::result_json(settings, run));
        result["running"] = running;
        result["in_progress"] = result["running"] ? games_in_play(file.string() + ".live") : nlohmann::json::array();
        result["source"] = "state";
    } else {
        try {
            result = nlohmann::json::parse(text);
        } catch (const nlohmann::json::exception& e) {
            throw InputError(fmt::format("'{}' is not JSON ({})", file.filename().string(), e.what()));
        }
        if (!result.is_object() || !result.contains("pairings"))
            throw InputError(fmt::format("'{}' is not a loa-match result", file.filename().string()));
        result["running"] = false;
        result["source"] = "result";
    }
    return result;
}

}  // namespace

}  // namespace matches::web
