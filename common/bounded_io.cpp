#include "common/bounded_io.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "common/error.hpp"

namespace common {

LineRead read_bounded_line(std::istream& in, std::string& line, std::size_t max_bytes) {
    line.clear();
    bool too_long = false, any = false;
    for (int c; (c = in.get()) != std::char_traits<char>::eof();) {
        any = true;
        if (c == '\n') return too_long ? LineRead::TooLong : LineRead::Line;
        if (line.size() < max_bytes) line.push_back(static_cast<char>(c));
        else too_long = true;
    }
    if (!any) return LineRead::End;
    return too_long ? LineRead::TooLong : LineRead::Line;  // the last line, without its newline
}

std::string read_small_file(const std::string& path, std::size_t max_bytes, std::string_view what) {
    // Non-blocking: opening a FIFO must not wait for a writer.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw InputError(fmt::format("{}: cannot read '{}': {}", what, path, std::strerror(errno)));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw InputError(fmt::format("{}: '{}' is not a regular file", what, path));
    }
    if (static_cast<unsigned long long>(st.st_size) > max_bytes) {
        ::close(fd);
        throw InputError(fmt::format("{}: '{}' is larger than {} bytes", what, path, max_bytes));
    }
    std::string content;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int error = errno;
            ::close(fd);
            throw InputError(fmt::format("{}: cannot read '{}': {}", what, path, std::strerror(error)));
        }
        if (n == 0) break;
        content.append(buffer, static_cast<std::size_t>(n));
        if (content.size() > max_bytes) {  // grew while read
            ::close(fd);
            throw InputError(fmt::format("{}: '{}' is larger than {} bytes", what, path, max_bytes));
        }
    }
    ::close(fd);
    return content;
}

bool names_a_special_file(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return false;
    return !S_ISREG(st.st_mode);
}

std::optional<double> available_memory_mb() {
    std::ifstream in("/proc/meminfo");
    for (std::string name, unit; in >> name;) {
        double kilobytes = 0;
        if (!(in >> kilobytes >> unit)) break;
        if (name == "MemAvailable:") return kilobytes / 1024;
    }
    return std::nullopt;
}

}  // namespace common
