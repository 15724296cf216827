#include "common/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>

#include <fmt/format.h>

#include "common/error.hpp"

namespace common {

namespace {

// What a lock file of this program holds: a file of the user's is never taken for one.
constexpr std::string_view LockMark = "loa-match lock\n";

bool holds_the_mark(int fd) {
    char buffer[64] = {};
    const ssize_t n = ::pread(fd, buffer, sizeof buffer, 0);
    return n == static_cast<ssize_t>(LockMark.size()) && std::string_view(buffer, static_cast<std::size_t>(n)) == LockMark;
}

}  // namespace

FileLock::FileLock(std::string path) : lock_path_(std::move(path) + ".lock") {
    // A run that completes deletes the lock file while it holds the lock; one that opened
    // the file just before then would lock a file no longer on the path. So the lock counts
    // only when the path still names the locked file; otherwise try again.
    for (;;) {
        // A new lock file is this run's; one already there must be a lock file of this program
        // (left by a killed run, or held by a running one), never a file of the user's.
        bool created = true;
        fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd_ < 0 && errno == EEXIST) {
            created = false;
            fd_ = ::open(lock_path_.c_str(), O_RDWR | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
        }
        if (fd_ < 0)
            throw InputError(fmt::format("cannot create lock file '{}': {}", lock_path_, std::strerror(errno)));
        struct stat st {};
        if (!created && (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode) || !holds_the_mark(fd_))) {
            ::close(fd_);
            fd_ = -1;
            throw InputError(fmt::format(
                "'{}' exists and is not a loa-match lock file: move it away (an empty one may be left by a run killed as it "
                "started: delete it if no run uses this state file)",
                lock_path_));
        }
        if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
            const int error = errno;
            ::close(fd_);
            fd_ = -1;
            if (error == EWOULDBLOCK)
                throw InputError(fmt::format(
                    "'{}' is locked: another loa-match run is using this state file; wait for it, or give this "
                    "run its own --state or --json",
                    lock_path_));
            throw InputError(fmt::format("cannot lock '{}': {}", lock_path_, std::strerror(error)));
        }
        struct stat held {}, named {};
        if (::fstat(fd_, &held) == 0 && ::stat(lock_path_.c_str(), &named) == 0 && held.st_ino == named.st_ino &&
            held.st_dev == named.st_dev) {
            if (created && ::pwrite(fd_, LockMark.data(), LockMark.size(), 0) != static_cast<ssize_t>(LockMark.size())) {
                const int error = errno;
                ::unlink(lock_path_.c_str());
                ::close(fd_);
                fd_ = -1;
                throw InputError(fmt::format("cannot write lock file '{}': {}", lock_path_, std::strerror(error)));
            }
            return;
        }
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

}  // namespace common
