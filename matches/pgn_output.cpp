#include "matches/pgn_output.hpp"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <sstream>

#include <fmt/format.h>

#include "common/bounded_io.hpp"
#include "common/error.hpp"
#include "common/files.hpp"
#include "loa/notation.hpp"
#include "matches/own_files.hpp"
#include "matches/records.hpp"

namespace matches {
namespace {

std::uintmax_t size_of(const std::string& path) {
    std::error_code absent;
    const std::uintmax_t size = std::filesystem::file_size(path, absent);
    return absent ? 0 : size;
}

std::string absolute_path(const std::string& path) {
    std::error_code error;
    const std::filesystem::path p = std::filesystem::weakly_canonical(std::filesystem::absolute(path), error);
    return error ? std::filesystem::absolute(path).string() : p.string();
}

// Whether `chunk` (one record) is a game of `saved` as an earlier version of the writer wrote it
// (another tag order, no Date, a Position tag): the same Round, players, result and moves.
bool same_game_as_read(std::string_view chunk, const std::vector<GameRecord>& saved) {
    std::vector<ParsedRecord> parsed;
    try {
        std::istringstream in{std::string(chunk)};
        parsed = read_records(in);
    } catch (const common::InputError&) {
        return false;
    }
    if (parsed.size() != 1) return false;
    const ParsedRecord& r = parsed.front();
    const auto tag = [&](const char* name) { return r.tags.contains(name) ? r.tags.at(name) : std::string(); };
    return std::any_of(saved.begin(), saved.end(), [&](const GameRecord& g) {
        if (tag("Round") != fmt::format("{}.{}", g.pair + 1, g.index % 2 + 1) || tag("White") != g.white ||
            tag("Black") != g.black || tag("Result") != g.result_text() || r.moves.size() != g.moves.size())
            return false;
        for (std::size_t k = 0; k < g.moves.size(); ++k)
            if (r.moves[k] != loa::move_to_text(g.moves[k])) return false;
        return true;
    });
}

// Whether what follows `offset` in `path` is records of `saved` only: each as written with
// `event` (or, by an earlier version of the writer, the same game: same_game_as_read), whole,
// but the last, which may be cut short (a kill while it was written); one newline may come
// first, or two (append_pgn's separator).
bool holds_only_records_of(const std::string& path, std::uintmax_t offset, const std::vector<GameRecord>& saved,
                           const std::string& event) {
    const std::string tail = common::read_file_from(path, offset, common::MaxRecordFile, "--pgn");
    std::vector<std::string> written;
    for (const GameRecord& g : saved) written.push_back(records_text({g}, event));
    // The records, each from its Event tag to the next one's.
    std::size_t at = tail.starts_with("\n\n") ? 2 : tail.starts_with('\n') ? 1 : 0;
    while (at < tail.size()) {
        if (tail.compare(at, 7, "[Event ") != 0) return false;
        const std::size_t next = tail.find("\n[Event ", at);
        const std::size_t end = next == std::string::npos ? tail.size() : next + 1;
        const std::string_view chunk = std::string_view(tail).substr(at, end - at);
        const bool last = end == tail.size();
        const bool as_written = std::find(written.begin(), written.end(), chunk) != written.end();
        const bool torn = last && std::any_of(written.begin(), written.end(), [&](const std::string& w) { return w.starts_with(chunk); });
        if (!as_written && !torn && !same_game_as_read(chunk, saved)) return false;
        at = end;
    }
    return true;
}

}  // namespace

PgnStarts pgn_starts_from_json(const nlohmann::json& j) {
    PgnStarts out;
    if (!j.is_array()) return out;
    for (const nlohmann::json& e : j) {
        if (!e.is_object() || !e.value("path", nlohmann::json()).is_string() || !e.value("offset", nlohmann::json()).is_number_unsigned() ||
            !e.value("event", nlohmann::json()).is_string())
            continue;
        PgnStart s{e["path"].get<std::string>(), e["offset"].get<std::uintmax_t>(), e["event"].get<std::string>()};
        out.insert_or_assign(s.path, s);
    }
    return out;
}

nlohmann::ordered_json pgn_starts_json(const PgnStarts& starts) {
    nlohmann::ordered_json j = nlohmann::ordered_json::array();
    for (const auto& [path, s] : starts) j.push_back({{"path", s.path}, {"offset", s.offset}, {"event", s.event}});
    return j;
}

namespace {

common::InputError refusal(const std::string& path, const std::string& why) {
    return common::InputError(fmt::format("--pgn '{}' {}: it is left as it is; give another --pgn (the games are in the "
                                          "state file), or --fresh",
                                          path, why));
}

}  // namespace

PgnStart pgn_end(const std::string& path, const std::string& event) {
    if (common::names_a_special_file(path)) {
        std::error_code error;
        if (std::filesystem::is_directory(path, error)) throw common::InputError(fmt::format("--pgn '{}' is a directory", path));
        return PgnStart{path, 0, event};  // a device or a FIFO: written in place
    }
    const std::string absolute = absolute_path(path);
    return PgnStart{absolute, size_of(absolute), event};
}

void check_own_records(const PgnStart& start, const std::vector<GameRecord>& saved) {
    if (common::names_a_special_file(start.path)) return;
    const std::uintmax_t size = size_of(start.path);
    if (size == 0) return;  // gone, or emptied: nothing of anyone's to cut
    if (size < start.offset)
        throw refusal(start.path, fmt::format("is shorter than when this run began ({} bytes, now {}): it was changed",
                                              start.offset, size));
    if (!holds_only_records_of(start.path, start.offset, saved, start.event))
        throw refusal(start.path, fmt::format("holds text after byte {} that is not this run's game records (it changed "
                                              "while the run was stopped)",
                                              start.offset));
}

PgnStart pgn_start_of_run(const std::string& given, const std::string& event, const PgnStarts& recorded, bool legacy_state,
                          const std::vector<GameRecord>& saved) {
    PgnStart end = pgn_end(given, event);
    if (common::names_a_special_file(given)) return end;
    if (const auto it = recorded.find(end.path); it != recorded.end()) {
        PgnStart start = it->second;
        check_own_records(start, saved);
        if (end.offset == 0) start.offset = 0;  // gone or emptied since
        return start;
    }
    if (legacy_state && !saved.empty() && end.offset > 0) {
        // The state file of a version that rewrote the whole PGN at each start.
        if (!holds_only_records_of(end.path, 0, saved, event))
            throw refusal(given, "holds text that is not this run's records, and the state file (of an earlier version) "
                                 "does not say where they begin");
        end.offset = 0;
    }
    return end;
}

void restart_pgn_at(const PgnStart& start, std::string_view records) {
    if (common::names_a_special_file(start.path)) {
        append_pgn(start.path, records);
        return;
    }
    if (size_of(start.path) > start.offset) common::truncate_file(start.path, start.offset);  // this run's records only
    append_pgn(start.path, records);
}

void append_pgn(const std::string& path, std::string_view records) {
    if (records.empty()) return;
    if (common::names_a_special_file(path)) {
        common::replace_file(path, records, {"a device", [](std::string_view) { return false; }});  // written in place
        return;
    }
    // A record follows the one before after a blank line (PGN's export format, 8.2.4): a file
    // that ends with one newline (a user's, or one cut short) gets one more, a file that ends
    // mid-line gets two. A reader then sees this record's tags as a record of its own.
    int newlines_at_end = 2;  // an empty file needs none
    if (const std::uintmax_t size = size_of(path); size > 0) {
        const std::uintmax_t tail = std::min<std::uintmax_t>(size, 2);
        const std::string last = common::read_file_from(path, size - tail, common::MaxRecordFile, "--pgn");
        newlines_at_end = last.ends_with("\n\n") || (size == 1 && last == "\n") ? 2 : last.ends_with('\n') ? 1 : 0;
    }
    std::string text;
    text.reserve(records.size() + 2);
    text.append(static_cast<std::size_t>(2 - newlines_at_end), '\n');
    text.append(records);
    common::append_to_file(path, text);
}

}  // namespace matches
