#include "matches/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

#include "common/error.hpp"

namespace matches {

FileLock::FileLock(std::string path) : lock_path_(std::move(path) + ".lock") {
    // A run that completes deletes the lock file while it holds the lock; one that opened
    // the file just before then would lock a file no longer on the path. So the lock counts
    // only when the path still names the locked file; otherwise try again.
    for (;;) {
        fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, 0644);
        if (fd_ < 0)
            throw common::InputError(fmt::format("cannot create lock file '{}': {}", lock_path_, std::strerror(errno)));
        // Lock files are empty regular files; anything else at the path is not ours to lock,
        // nor to delete at the end.
        struct stat st {};
        if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != 0) {
            ::close(fd_);
            fd_ = -1;
            throw common::InputError(fmt::format("'{}' exists and is not a loa-match lock file (an empty file): move it away", lock_path_));
        }
        if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            ::close(fd_);
            fd_ = -1;
            if (error == EWOULDBLOCK)
                throw common::InputError(fmt::format(
                    "'{}' is locked: another loa-match run is using this state file; wait for it, or give this "
                    "run its own --state or --json",
                    lock_path_));
            throw common::InputError(fmt::format("cannot lock '{}': {}", lock_path_, std::strerror(error)));
        }
        struct stat held {}, named {};
        if (::fstat(fd_, &held) == 0 && ::stat(lock_path_.c_str(), &named) == 0 && held.st_ino == named.st_ino &&
            held.st_dev == named.st_dev)
            return;
        ::close(fd_);
        fd_ = -1;
    }
}

bool FileLock::held(const std::string& path) {
    const std::string lock_path = path + ".lock";
    // Non-blocking, and regular files only: a FIFO at the path would hold the watcher for ever.
    const int fd = ::open(lock_path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    if (fd < 0) return false;
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return false;
    }
    const bool busy = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);  // releases the probe's lock, if it got one
    return busy;
}

FileLock::~FileLock() {
    ::unlink(lock_path_.c_str());
    ::close(fd_);
}

}  // namespace matches
