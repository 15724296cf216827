// The games in play of a running match, for watchers (the web board's Watch tab): a small JSON
// file beside the state file, rewritten at most once a second while something changed, and
// deleted when the run ends. A file of another kind at that path is left alone (the run then
// has no live file).
//   {"games": [{"game": 7, "black": "a", "white": "b", "start": "<position>", "moves": [...]}]}
#pragma once

#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "matches/match.hpp"

namespace matches {

class LiveFile {
public:
    explicit LiveFile(std::string path);
    ~LiveFile();  // stops the writer and deletes the file
    LiveFile(const LiveFile&) = delete;
    LiveFile& operator=(const LiveFile&) = delete;

    void update(const GameInPlay& game);  // from any worker thread
    void finished(int index);             // the game is over: no longer in play

private:
    struct Snapshot {
        std::string black, white, start;
        std::vector<std::string> moves;
    };
    void write_loop();
    void write() const;

    std::string path_;
    bool usable_;  // the path is free or an earlier live file: a file of the user's is left alone
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::map<int, Snapshot> games_;  // by game index
    bool dirty_ = false, stopping_ = false;
    std::thread writer_;
};

}  // namespace matches
