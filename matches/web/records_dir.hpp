// What the web board may read from disk: the files of one directory (`loa serve --records
// DIR`), by plain name only. Game records (PGN from loa-match), a running or finished match
// (its state file or result JSON) and tree-size results (JSON) are served as JSON.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "matches/web/game_api.hpp"

namespace matches::web {

class RecordsDir {
public:
    explicit RecordsDir(std::filesystem::path dir);  // throws InputError when not a directory

    // {"dir": ..., "files": [{"name", "kind": "records"|"match"|"treesize"|"json", "bytes"}]}
    nlohmann::json list() const;
    // The file a name denotes, only when it is a regular file directly in the directory:
    // no separators, no "..", no hidden names, no symbolic link leading out.
    std::optional<std::filesystem::path> resolve(std::string_view name) const;

    // The games of a PGN file as JSON text, {"file", "games": [{"tags": {...}, "start": position
    // text, "moves": [...], "rules"}]}; every game is replayed, so a bad record is an InputError
    // naming it. More games or plies than `limits` allows: TooLarge, before any is replayed. The
    // answer is written game by game (a tree of the whole file's JSON took 600 MB for 8 MB).
    static std::string records_json(const std::filesystem::path& file, const RequestLimits& limits = {});
    static std::string records_text_json(const std::string& name, const std::string& text, const RequestLimits& limits = {});
    // A match as loa-match's result JSON (without the games' moves, with the last `recent`
    // games' results), read from its state file (JSON Lines, growing while it runs; a torn
    // last line is skipped) or its result JSON.
    static nlohmann::json match_json(const std::filesystem::path& file, int recent = 20);
    // One game of a match (its number in the run, as the result lists it) as a records file's
    // game: {"tags": {"Event", "Black", "White", "Result", "Round"}, "start", "moves", "rules",
    // "reason"}, so that Watch can open it in Replay. NotFound when the match has no such game.
    static nlohmann::json match_game_json(const std::filesystem::path& file, int game);

private:
    std::filesystem::path dir_;
};

}  // namespace matches::web
