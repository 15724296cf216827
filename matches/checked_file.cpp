#include "matches/checked_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

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

void replace_file(const std::string& path, std::string_view content) {
    std::string name = path + ".tmp-XXXXXX";
    std::vector<char> buffer(name.begin(), name.end());
    buffer.push_back('\0');
    const int fd = ::mkstemp(buffer.data());
    if (fd < 0) throw write_error(path, errno);
    const std::string temporary(buffer.data());
    int error = write_all(fd, content);
    // mkstemp makes the file private (0600); the file it replaces is an ordinary one.
    if (!error && ::fchmod(fd, 0644) != 0) error = errno;
    if (::close(fd) != 0 && !error) error = errno;
    if (!error && std::rename(temporary.c_str(), path.c_str()) != 0) error = errno;
    if (error) {
        ::unlink(temporary.c_str());
        throw write_error(path, error);
    }
}

void append_to_file(const std::string& path, std::string_view text) {
    // Non-blocking: a FIFO put where the file should be must not hang the run.
    const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0644);
    if (fd < 0) throw write_error(path, errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw common::InputError(fmt::format("cannot write '{}': not a regular file", path));
    }
    int error = write_all(fd, text);
    // Cut back to the length before: a torn line would be joined to the next one. (Should the
    // cut fail as well, the readers still drop a last line without its newline.)
    if (error) (void)::ftruncate(fd, st.st_size);
    if (::close(fd) != 0 && !error) error = errno;
    if (error) throw write_error(path, error);
}

bool names_a_special_file(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return false;
    return !S_ISREG(st.st_mode);
}

}  // namespace matches
