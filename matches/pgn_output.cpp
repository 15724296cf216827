#include "matches/pgn_output.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>

#include <fmt/format.h>

#include "common/bounded_io.hpp"
#include "common/error.hpp"
#include "matches/checked_file.hpp"
#include "matches/records.hpp"

namespace matches {
namespace {

std::uintmax_t size_of(const std::string& path) {
    std::error_code absent;
    const std::uintmax_t size = std::filesystem::file_size(path, absent);
    return absent ? 0 : size;
}

}  // namespace

PgnStart pgn_start_of_run(const std::string& path, const std::optional<PgnStart>& recorded) {
    if (common::names_a_special_file(path))
        throw common::InputError(fmt::format("--pgn '{}' is not a regular file (a directory, a FIFO, a device)", path));
    const std::uintmax_t size = size_of(path);
    if (!recorded || recorded->path != path) return PgnStart{path, size};
    if (size < recorded->offset)
        throw common::InputError(fmt::format("--pgn '{}' is shorter than when this run began ({} bytes, now {}): it was "
                                             "changed, and is left as it is; give another --pgn (the games are in the state "
                                             "file), or --fresh",
                                             path, recorded->offset, size));
    return *recorded;
}

void check_own_records(const PgnStart& start, const std::vector<GameRecord>& saved, const std::string& event) {
    std::string tail;
    {
        std::ifstream in(start.path, std::ios::binary);
        in.seekg(static_cast<std::streamoff>(start.offset));
        tail.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    // Each record as this run wrote it, found by its first two lines (Event and Round: one game
    // of the match).
    std::map<std::string, std::string, std::less<>> records;
    for (const GameRecord& g : saved) {
        std::string text = records_text({g}, event);
        const std::size_t second = text.find('\n', text.find('\n') + 1);
        records.emplace(text.substr(0, second + 1), std::move(text));
    }
    std::size_t at = tail.find_first_not_of('\n');  // the newline append_pgn may have put first
    while (at != std::string::npos && at < tail.size()) {
        const std::string_view rest = std::string_view(tail).substr(at);
        const std::size_t second = rest.find('\n', rest.find('\n') + 1);
        const auto found = second == std::string_view::npos ? records.end() : records.find(rest.substr(0, second + 1));
        if (found != records.end() && rest.starts_with(found->second)) {
            at += found->second.size();
            continue;
        }
        // The last record may be cut short (a kill while it was written).
        const bool torn_last = std::any_of(records.begin(), records.end(), [&](const auto& r) { return r.second.starts_with(rest); });
        if (torn_last) break;
        throw common::InputError(fmt::format("--pgn '{}': what follows byte {} is not this run's game records (the file "
                                             "changed while the run was stopped): it is left as it is; give another --pgn "
                                             "(the games are in the state file), or --fresh",
                                             start.path, start.offset + at));
    }
}

void restart_pgn_at(const PgnStart& start, std::string_view records) {
    if (size_of(start.path) > start.offset) {
        std::error_code error;
        std::filesystem::resize_file(start.path, start.offset, error);
        if (error) throw common::InputError(fmt::format("cannot cut '{}' back to this run's start: {}", start.path, error.message()));
    }
    append_pgn(start.path, records);
}

void append_pgn(const std::string& path, std::string_view records) {
    if (records.empty()) return;
    bool ends_a_line = true;
    if (const std::uintmax_t size = size_of(path); size > 0) {
        std::ifstream in(path, std::ios::binary);
        in.seekg(static_cast<std::streamoff>(size - 1));
        ends_a_line = in.get() == '\n';
    }
    std::string text;
    text.reserve(records.size() + 1);
    if (!ends_a_line) text.push_back('\n');
    text.append(records);
    append_to_file(path, text);
}

}  // namespace matches
