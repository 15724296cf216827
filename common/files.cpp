#include "common/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "common/error.hpp"

namespace common {
namespace {

InputError read_error(std::string_view what, const std::string& path, int error) {
    return InputError(fmt::format("{}: cannot read '{}': {}", what, path, std::strerror(error)));
}

InputError write_error(const std::string& path, int error) {
    return InputError(fmt::format("cannot write '{}': {}", path, std::strerror(error)));
}

// Opens a regular file for reading; -1 with errno set, EINVAL standing for "not regular".
// Non-blocking, so that opening a FIFO does not wait for a writer; the flag is cleared after.
int open_regular(const std::string& path, struct stat& st) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return -1;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        errno = EINVAL;
        return -1;
    }
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
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

// A temporary of its own beside `path`, created exclusively and holding `content` (flushed to
// disk with `sync`); its name. `mode` >= 0: the permissions it gets (an existing file's).
std::string write_temporary(const std::string& path, std::string_view content, int mode, bool sync) {
    static std::atomic<unsigned> counter{0};
    std::string temporary;
    int fd = -1;
    for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
        temporary = fmt::format("{}.tmp-{}-{}", path, ::getpid(), counter++);
        fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
        if (fd < 0 && errno != EEXIST) throw write_error(path, errno);
    }
    if (fd < 0) throw write_error(path, EEXIST);
    int error = write_all(fd, content);
    if (!error && mode >= 0 && ::fchmod(fd, static_cast<mode_t>(mode)) != 0) error = errno;
    if (!error && sync && ::fsync(fd) != 0) error = errno;
    if (::close(fd) != 0 && !error) error = errno;
    if (error) {
        ::unlink(temporary.c_str());
        throw write_error(path, error);
    }
    return temporary;
}

// A device or a FIFO (with a reader: one without is refused at once), written in place.
void write_in_place(const std::string& path, std::string_view content) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw write_error(path, errno);
    int error = write_all(fd, content);
    if (::close(fd) != 0 && !error) error = errno;
    if (error) throw write_error(path, error);
}

}  // namespace

// ---- reading ------------------------------------------------------------------------------

// Reads the descriptor in blocks, never more than the cap in all.
class FileReader::Buffer : public std::streambuf {
public:
    Buffer(int fd, std::uint64_t max_bytes) : fd_(fd), left_(max_bytes) {}
    ~Buffer() override { ::close(fd_); }
    bool at_cap() const { return at_cap_; }
    int error() const { return error_; }

protected:
    int_type underflow() override {
        if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
        if (left_ == 0) {
            char probe = 0;  // at the cap: is there more?
            at_cap_ = ::read(fd_, &probe, 1) > 0;
            return traits_type::eof();
        }
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(sizeof block_, left_));
        ssize_t n = 0;
        do {
            n = ::read(fd_, block_, want);
        } while (n < 0 && errno == EINTR);
        if (n <= 0) {
            if (n < 0) error_ = errno;
            return traits_type::eof();
        }
        left_ -= static_cast<std::uint64_t>(n);
        setg(block_, block_, block_ + n);
        return traits_type::to_int_type(*gptr());
    }

private:
    int fd_;
    std::uint64_t left_;
    bool at_cap_ = false;
    int error_ = 0;
    char block_[1 << 16];
};

FileReader::FileReader(const std::string& path, std::uint64_t max_bytes, std::string_view what)
    : path_(path), what_(what), in_(nullptr) {
    struct stat st {};
    const int fd = open_regular(path, st);
    if (fd < 0 && errno == EINVAL) throw InputError(fmt::format("{}: '{}' is not a regular file", what, path));
    if (fd < 0) throw read_error(what, path, errno);
    if (static_cast<std::uint64_t>(st.st_size) > max_bytes) {
        ::close(fd);
        throw InputError(fmt::format("{}: '{}' is larger than {} bytes", what, path, max_bytes));
    }
    size_ = static_cast<std::uint64_t>(st.st_size);
    buffer_ = std::make_unique<Buffer>(fd, max_bytes);
    in_.rdbuf(buffer_.get());
}

FileReader::~FileReader() = default;

void FileReader::check() const {
    if (buffer_->error()) throw read_error(what_, path_, buffer_->error());
    if (buffer_->at_cap()) throw InputError(fmt::format("{}: '{}' grew larger than its cap while it was read", what_, path_));
}

std::string read_file(const std::string& path, std::uint64_t max_bytes, std::string_view what) {
    FileReader reader(path, max_bytes, what);
    std::string content;
    content.reserve(static_cast<std::size_t>(reader.size_at_open()));
    content.assign(std::istreambuf_iterator<char>(reader.stream()), std::istreambuf_iterator<char>());
    reader.check();
    return content;
}

std::optional<std::string> read_file_if_exists(const std::string& path, std::uint64_t max_bytes, std::string_view what) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0 && errno == ENOENT) return std::nullopt;
    return read_file(path, max_bytes, what);
}

std::string read_file_from(const std::string& path, std::uint64_t offset, std::uint64_t max_bytes, std::string_view what) {
    FileReader reader(path, offset + max_bytes, what);
    std::istream& in = reader.stream();
    in.ignore(static_cast<std::streamsize>(offset));
    std::string content(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>{});
    reader.check();
    return content;
}

std::string file_head(const std::string& path, std::size_t bytes) {
    struct stat st {};
    const int fd = open_regular(path, st);
    if (fd < 0) return {};
    std::string head(bytes, '\0');
    const ssize_t n = ::pread(fd, head.data(), bytes, 0);
    ::close(fd);
    head.resize(n > 0 ? static_cast<std::size_t>(n) : 0);
    return head;
}

bool names_a_special_file(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return false;
    return !S_ISREG(st.st_mode);
}

bool is_symbolic_link(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

// ---- writing ------------------------------------------------------------------------------

void create_file(const std::string& path, std::string_view content) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0)
        throw InputError(fmt::format("cannot create '{}': it exists (a file is never replaced when one is created)", path));
    const std::string temporary = write_temporary(path, content, -1, /*sync=*/true);
    // link() fails if anything, a dangling link included, took the name meanwhile.
    const int error = ::link(temporary.c_str(), path.c_str()) == 0 ? 0 : errno;
    ::unlink(temporary.c_str());
    if (error == EEXIST) throw InputError(fmt::format("cannot create '{}': it exists", path));
    if (error) throw write_error(path, error);
    sync_directory_of(path);
}

Ownership in_own_directory(std::string_view what) {
    return {what, [](std::string_view) { return true; }};
}

void replace_file(const std::string& path, std::string_view content, const Ownership& owner) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno != ENOENT) throw write_error(path, errno);
        // New: created through a temporary renamed into place (the caller owns the name, e.g.
        // under its lock); a file that appeared meanwhile would be replaced only if ours.
        const std::string temporary = write_temporary(path, content, -1, /*sync=*/false);
        if (std::rename(temporary.c_str(), path.c_str()) != 0) {
            const int error = errno;
            ::unlink(temporary.c_str());
            throw write_error(path, error);
        }
        return;
    }
    if (S_ISLNK(st.st_mode))
        throw InputError(fmt::format("cannot write '{}': it is a symbolic link; it is left as it is (name the file itself)", path));
    if (S_ISDIR(st.st_mode)) throw InputError(fmt::format("cannot write '{}': it is a directory", path));
    if (!S_ISREG(st.st_mode)) return write_in_place(path, content);
    if (st.st_size > 0 && !owner.ours(file_head(path)))
        throw InputError(fmt::format("cannot write '{}': it is not {}; it is left as it is", path, owner.what));
    const std::string temporary = write_temporary(path, content, static_cast<int>(st.st_mode & 07777), /*sync=*/false);
    if (std::rename(temporary.c_str(), path.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary.c_str());
        throw write_error(path, error);
    }
}

FileWriter::FileWriter(std::string path, std::string temporary) : path_(std::move(path)), temporary_(std::move(temporary)) {
    if (temporary_.empty()) {
        static std::atomic<unsigned> counter{0};
        for (int attempt = 0; fd_ < 0 && attempt < 100; ++attempt) {
            temporary_ = fmt::format("{}.tmp-{}-{}", path_, ::getpid(), counter++);
            fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
            if (fd_ < 0 && errno != EEXIST) break;
        }
    } else {
        fd_ = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
    }
    if (fd_ < 0) throw InputError(fmt::format("cannot create '{}': {}", temporary_, std::strerror(errno)));
}

FileWriter::~FileWriter() {
    if (fd_ >= 0) ::close(fd_);
    if (!temporary_.empty()) ::unlink(temporary_.c_str());
}

void FileWriter::write(std::string_view text) {
    if (const int error = write_all(fd_, text)) throw write_error(temporary_, error);
}

void FileWriter::copy_from(const std::string& source, std::uint64_t from, std::uint64_t to) {
    FileReader in(source, MaxRecordFile, "copy");
    std::istream& stream = in.stream();
    stream.ignore(static_cast<std::streamsize>(from));
    std::string block(1 << 20, '\0');
    for (std::uint64_t left = to - from; left > 0;) {
        const auto chunk = static_cast<std::streamsize>(std::min<std::uint64_t>(left, block.size()));
        if (!stream.read(block.data(), chunk)) throw InputError(fmt::format("'{}' changed while it was read", source));
        write(std::string_view(block.data(), static_cast<std::size_t>(chunk)));
        left -= static_cast<std::uint64_t>(chunk);
    }
}

void FileWriter::keep_permissions_of(const std::string& source) {
    struct stat st {};
    if (::stat(source.c_str(), &st) == 0 && ::fchmod(fd_, st.st_mode & 07777) != 0) throw write_error(temporary_, errno);
}

void FileWriter::commit(const Ownership& owner) {
    int error = ::fsync(fd_) != 0 ? errno : 0;
    if (::close(fd_) != 0 && !error) error = errno;
    fd_ = -1;
    if (error) throw write_error(path_, error);
    struct stat st {};
    if (::lstat(path_.c_str(), &st) != 0) {
        if (::link(temporary_.c_str(), path_.c_str()) != 0) throw write_error(path_, errno);
    } else {
        if (!S_ISREG(st.st_mode)) throw InputError(fmt::format("cannot write '{}': it is not a regular file; it is left as it is", path_));
        if (st.st_size > 0 && !owner.ours(file_head(path_)))
            throw InputError(fmt::format("cannot write '{}': it is not {}; it is left as it is", path_, owner.what));
        if (std::rename(temporary_.c_str(), path_.c_str()) != 0) throw write_error(path_, errno);
    }
    sync_directory_of(path_);
}

void check_replaceable(const std::string& path, const Ownership& owner) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0) {
        if (S_ISLNK(st.st_mode))
            throw InputError(fmt::format("cannot write '{}': it is a symbolic link; it is left as it is (name the file itself)", path));
        if (S_ISDIR(st.st_mode)) throw InputError(fmt::format("cannot write '{}': it is a directory", path));
        if (S_ISREG(st.st_mode) && st.st_size > 0 && !owner.ours(file_head(path)))
            throw InputError(fmt::format("cannot write '{}': it is not {}; it is left as it is", path, owner.what));
        return;
    }
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    const std::string dir = parent.empty() ? "." : parent.string();
    if (::access(dir.c_str(), W_OK) != 0) throw InputError(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
}

void append_to_file(const std::string& path, std::string_view text) {
    // Non-blocking: a FIFO put where the file should be must not hang the run. Never through a
    // symbolic link: the file appended to is the one named.
    bool created = false;
    int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    if (fd < 0 && errno == ENOENT) {
        fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0666);
        created = fd >= 0;
    }
    if (fd < 0 && errno == ELOOP) throw InputError(fmt::format("cannot write '{}': it is a symbolic link; it is left as it is", path));
    if (fd < 0) throw write_error(path, errno);
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw InputError(fmt::format("cannot write '{}': not a regular file", path));
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

void truncate_file(const std::string& path, std::uint64_t size) {
    if (is_symbolic_link(path)) throw InputError(fmt::format("cannot cut '{}': it is a symbolic link", path));
    if (::truncate(path.c_str(), static_cast<off_t>(size)) != 0)
        throw InputError(fmt::format("cannot cut '{}' to {} bytes: {}", path, size, std::strerror(errno)));
}

void sync_directory_of(const std::string& path) {
    const std::filesystem::path parent = std::filesystem::path(path).parent_path();
    const std::string dir = parent.empty() ? "." : parent.string();
    if (const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

std::optional<double> available_memory_mb() {
    std::optional<std::string> text;
    try {
        text = read_file_if_exists("/proc/meminfo", MaxListFile, "memory");
    } catch (const InputError&) {
        return std::nullopt;
    }
    if (!text) return std::nullopt;
    std::istringstream in(*text);
    for (std::string name, unit; in >> name;) {
        double kilobytes = 0;
        if (!(in >> kilobytes >> unit)) break;
        if (name == "MemAvailable:") return kilobytes / 1024;
    }
    return std::nullopt;
}

}  // namespace common
