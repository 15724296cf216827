#include "matches/live_file.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "common/bounded_io.hpp"
#include "common/error.hpp"
#include "common/files.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "matches/own_files.hpp"

namespace matches {

namespace {

// Whether the file at `path` may be this run's live file: none there, or a live file (a regular
// file that begins as one) left by an earlier run. Anything else is left alone, and the run
// goes without one.
bool ours_to_write(const std::string& path) {
    if (!std::filesystem::exists(std::filesystem::symlink_status(path))) return true;
    if (common::names_a_special_file(path) || common::is_symbolic_link(path)) return false;
    return own::live_file().ours(common::file_head(path));
}

}  // namespace

LiveFile::LiveFile(std::string path) : path_(std::move(path)), usable_(ours_to_write(path_)), writer_([this] { write_loop(); }) {}

LiveFile::~LiveFile() {
    {
        const std::lock_guard guard(mutex_);
        stopping_ = true;
    }
    wake_.notify_one();
    writer_.join();
    if (usable_) std::remove(path_.c_str());
}

void LiveFile::update(const GameInPlay& g) {
    Snapshot s{g.black, g.white, loa::position_to_text(g.game->start_position()), {}};
    s.moves.reserve(g.game->moves().size());
    for (const loa::Move m : g.game->moves()) s.moves.push_back(loa::move_to_text(m));
    const std::lock_guard guard(mutex_);
    games_[g.index] = std::move(s);
    dirty_ = true;
}

void LiveFile::finished(int index) {
    const std::lock_guard guard(mutex_);
    dirty_ = games_.erase(index) > 0 || dirty_;
}

void LiveFile::write_loop() {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
        // Once a second at most: a fast match makes thousands of moves a second.
        wake_.wait_for(lock, std::chrono::seconds(1), [this] { return stopping_; });
        if (stopping_ || !dirty_ || !usable_) continue;
        dirty_ = false;
        write();
    }
}

void LiveFile::write() const {
    nlohmann::json j;
    j["games"] = nlohmann::json::array();
    for (const auto& [index, s] : games_)
        j["games"].push_back({{"game", index + 1}, {"black", s.black}, {"white", s.white}, {"start", s.start}, {"moves", s.moves}});
    // A new file renamed over the old one: a reader sees one whole version or the other.
    try {
        common::replace_file(path_, j.dump() + '\n', own::live_file());
    } catch (const common::InputError&) {
        // a watcher's convenience: the match goes on without it (and no temporary is left)
    }
}

}  // namespace matches
