#include "matches/checked_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/format.h>

#include "common/error.hpp"

namespace matches {
namespace {

common::InputError write_error(const std::string& path, int error) {
    return common::InputError(fmt::format("cannot write '{}': {}", path, std::strerror(error)));
}

// Writes all of `text` to `fd`; the errno of the failure, or 0.
int write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        const ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (n == 0) return EIO;
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return 0;
}

}  // namespace

void replace_file(const std::string& given, std::string_view content) {
    // A link's target is what is replaced: the user's link stays.
    struct stat link {};
    std::string path = given;
    if (::lstat(given.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
        std::error_code error_code;
        path = std::filesystem::weakly_canonical(given, error_code).string();
        if (error_code) throw common::InputError(fmt::format("cannot write '{}': {}", given, error_code.message()));
    }
    struct stat old {};
    const bool exists = ::stat(path.c_str(), &old) == 0;
    if (exists && S_ISDIR(old.st_mode)) throw common::InputError(fmt::format("cannot write '{}': it is a directory", given));
    if (exists && !S_ISREG(old.st_mode)) {
        // A device or a FIFO: written in place (a FIFO without a reader is refused at once).
        const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK);
        if (fd < 0) throw write_error(given, errno);
        int error = write_all(fd, content);
        if (::close(fd) != 0 && !error) error = errno;
        if (error) throw write_error(given, error);
        return;
    }
    // A temporary of its own, created exclusively (the umask applies, as to any new file).
    static std::atomic<unsigned> counter{0};
    std::string temporary;
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
        temporary = fmt::format("{}.tmp-{}-{}", path, ::getpid(), counter++);
        fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST) throw write_error(given, errno);
    }
    if (fd < 0) throw write_error(given, EEXIST);
    int error = write_all(fd, content);
    if (!error && exists && ::fchmod(fd, old.st_mode & 07777) != 0) error = errno;  // the file keeps its permissions
    if (::close(fd) != 0 && !error) error = errno;
    if (!error && std::rename(temporary.c_str(), path.c_str()) != 0) error = errno;
    if (error) {
        ::unlink(temporary.c_str());
        throw write_error(given, error);
    }
}

void append_to_file(const std::string& path, std::string_view text) {
    // Non-blocking: a FIFO put where the file should be must not hang the run.
    bool created = false;
    int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0 && errno == ENOENT) {
        fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        created = fd >= 0;
    }
    if (fd < 0) throw write_error(path, errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw common::InputError(fmt::format("cannot write '{}': not a regular file", path));
    }
    int error = write_all(fd, text);
    // Cut back to the length before: a torn line would be joined to the next one. (Should the
    // cut fail as well, the readers still drop a last line without its newline.)
    if (error) {
        const int cut = ::ftruncate(fd, st.st_size);
        static_cast<void>(cut);
    }
    if (::close(fd) != 0 && !error) error = errno;
    if (error && created) ::unlink(path.c_str());  // made by this call, and still empty
    if (error) throw write_error(path, error);
}

}  // namespace matches
