// The operator's games (the web board's mode for over-the-board tournaments): each game the
// operator relays is saved on the server after every move, so that a browser or a server that
// crashes loses nothing. A game is a file of the records directory's "operator" subdirectory,
// named by its id; the page sends the whole state, the server checks it (the moves replay
// under the rules, the clocks are times) and replaces the file as a whole (common/files.hpp:
// a crash leaves the old file or the new one, never half of one).
//
// The state, as the page sends it and gets it back:
//   {"revision": the one the page last read or saved (0 for a new game),
//    "event", "round", "site", "opponent", "engine": text, "engine_side": "b"|"w",
//    "start", "rules", "moves": [...] (game_api.hpp's request),
//    "clocks": {"b": {"base_ms", "increment_ms"}, "w": {...}},
//    "clock_after_ms": [the mover's time left after each move],
//    "left_ms": {"b", "w"} (each side's time left when saved), "running": "b"|"w"|"",
//    "ending": {"time_forfeit": "b"|"w"|"", "resigned": "b"|"w"|"", "draw_agreed": bool}}
// and the server adds "id", "revision" (one more each save), "saved_at_ms" (its clock, ms
// since the epoch: a running clock has run since) and, when read, "now_ms".
#pragma once

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "matches/web/game_api.hpp"

namespace matches::web {

// A save that does not follow the game's last one (another tab saved it meanwhile): 409.
struct Conflict : InputError {
    using InputError::InputError;
};

class OperatorGames {
public:
    // `records_dir`: the server's records directory; the games go into its "operator"
    // subdirectory, made when the first game is.
    explicit OperatorGames(std::filesystem::path records_dir);

    // A new game from `state` (checked as save() checks it; its revision must be 0): its id is
    // the time now ("20261205-101530", "-2" and on for a second game in the same second).
    nlohmann::json create(const nlohmann::json& state, const RuleSet& rules, const RequestLimits& limits);
    // Replaces game `id` with `state`, whose revision must be the saved one's (Conflict
    // otherwise); NotFound when there is no such game. Returns the saved state.
    nlohmann::json save(const std::string& id, const nlohmann::json& state, const RuleSet& rules, const RequestLimits& limits);
    // The saved state, with "now_ms". NotFound when there is no such game.
    nlohmann::json load(const std::string& id) const;
    // {"games": [{"id", "event", "round", "opponent", "engine_side", "plies", "over", "saved_at_ms"}]},
    // the newest first.
    nlohmann::json list() const;

    // What a request reads (for its memory claim): game `id`'s file, the largest of them (the
    // list reads one at a time); 0 for none. At most the size a game file may have.
    std::uintmax_t file_bytes(const std::string& id) const;
    std::uintmax_t largest_file_bytes() const;

private:
    std::filesystem::path path_of(const std::string& id) const;  // NotFound for a malformed id
    void write(const std::string& id, const nlohmann::json& state, bool create) const;

    std::filesystem::path dir_;
    mutable std::mutex mutex_;  // a save reads the revision, then writes: one at a time
};

// The state with its fields checked and nothing else kept: throws InputError naming the bad
// field (the game through game_from_request, so a bad move is named too).
nlohmann::json checked_operator_state(const nlohmann::json& state, const RuleSet& rules, const RequestLimits& limits);

}  // namespace matches::web
