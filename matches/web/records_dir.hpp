// What the web board may read from disk: the files of one directory (`loa serve --records
// DIR`), by plain name only. Game records (PGN from loa-match), a running or finished match
// (its state file or result JSON) and tree-size results (JSON) are served as JSON.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace matches::web {

class RecordsDir {
public:
    explicit RecordsDir(std::filesystem::path dir);  // throws InputError when not a directory

    // {"dir": ..., "files": [{"name", "kind": "records"|"match"|"treesize"|"json", "bytes"}]}
    nlohmann::json list() const;
    // The file a name denotes, only when it is a regular file directly in the directory:
    // no separators, no "..", no hidden names, no symbolic link leading out.
    std::optional<std::filesystem::path> resolve(std::string_view name) const;

    // The games of a PGN file: [{"tags": {...}, "start": position text, "moves": [...]}];
    // every game is replayed, so a bad record is an InputError naming it.
    static nlohmann::json records_json(const std::filesystem::path& file);
    static nlohmann::json records_text_json(const std::string& name, const std::string& text);
    // A match as loa-match's result JSON (without the games' moves, with the last `recent`
    // games' results), read from its state file (JSON Lines, growing while it runs; a torn
    // last line is skipped) or its result JSON.
    static nlohmann::json match_json(const std::filesystem::path& file, int recent = 20);

private:
    std::filesystem::path dir_;
};

}  // namespace matches::web
