// An exclusive claim on a file path for the life of a run: two loa-match runs that would
// write the same state file (the same command started twice, or two matches in one
// directory without --json or --state) would interleave their games in it.
#pragma once

#include <string>

namespace common {

class FileLock {
public:
    // Locks `<path>.lock` (created if needed, with a mark that says whose it is). Throws
    // InputError, naming the path, when another process holds it, or when a file there
    // is not a lock file of this program (it is left alone). The lock is the kernel's (flock):
    // a killed run leaves no stale claim.
    explicit FileLock(std::string path);
    // Deletes the lock file while still holding the lock (only a kill leaves it behind,
    // unlocked).
    ~FileLock();
    FileLock(const FileLock&) = delete;
    FileLock& operator=(const FileLock&) = delete;

    // Whether a run holds the claim on `path` now (false when none does, or no lock file
    // exists). It probes with a shared lock for a moment: a run starting in that instant would
    // be refused, so watchers call it seldom (the web board: every 2 s at most).
    static bool held(const std::string& path);

private:
    std::string lock_path_;
    int fd_ = -1;
};

}  // namespace common
