// The one file layer: every file the programs read or write, a user's or their own, goes
// through these functions and common/file_lock.hpp's locks (tests/cli/layering.sh refuses a file
// opened anywhere else), so that the faults of the past cannot come back from a path nobody
// looked at:
// - reading opens regular files only, without blocking (a FIFO never hangs a reader, a device
//   such as /dev/zero is refused), within a size cap that fits the caller, and an error names
//   the file and the cause;
// - a new file is created exclusively, through a temporary linked into place, so that it
//   never replaces what is there and is never seen half written (a full disk leaves no empty
//   file behind);
// - a file is replaced (whole, through a temporary renamed over it) only when it is one this
//   program made, recognised by its first bytes, and never through a symbolic link;
// - an append is checked and cut back when it fails.
// Devices and FIFOs named as outputs (/dev/null, a pipe with a reader) are written in place:
// they hold nothing to lose.
#pragma once

#include <cstdint>
#include <functional>
#include <istream>
#include <memory>
#include <optional>
#include <streambuf>
#include <string>
#include <string_view>

namespace common {

// Size caps, each fitting a kind of file.
inline constexpr std::uint64_t MaxOptionFile = 4 << 20;             // weights, probabilities, a net
inline constexpr std::uint64_t MaxListFile = 256ULL << 20;          // openings, positions, a lock
inline constexpr std::uint64_t MaxRecordFile = 16ULL << 30;         // PGN, state, results, data

// A regular file opened for reading. Throws common::InputError naming `what` and the path when
// it is missing, not a regular file, unreadable or larger than `max_bytes` (also when it grows
// past the cap while read: the stream then fails and `check()` throws).
class FileReader {
public:
    FileReader(const std::string& path, std::uint64_t max_bytes, std::string_view what);
    ~FileReader();
    FileReader(const FileReader&) = delete;
    FileReader& operator=(const FileReader&) = delete;

    std::istream& stream() { return in_; }
    std::uint64_t size_at_open() const { return size_; }
    // Throws when the read ended at the cap or on a read error rather than at the end.
    void check() const;

private:
    class Buffer;
    std::string path_, what_;
    std::uint64_t size_ = 0;
    std::unique_ptr<Buffer> buffer_;
    std::istream in_;
};

// The whole content of a regular file of at most `max_bytes` (as FileReader).
std::string read_file(const std::string& path, std::uint64_t max_bytes, std::string_view what);
// The same, or nullopt when nothing is at `path`.
std::optional<std::string> read_file_if_exists(const std::string& path, std::uint64_t max_bytes, std::string_view what);

// The memory this machine can still give a process, in MB (MemAvailable of /proc/meminfo);
// nullopt where it cannot be read. Linux lets an allocation succeed beyond it (overcommit) and
// kills the process when the pages are touched: a table larger than this is refused instead.
std::optional<double> available_memory_mb();
// The bytes of a regular file from `offset` to its end, at most `max_bytes` of them (as
// FileReader: throws when there are more).
std::string read_file_from(const std::string& path, std::uint64_t offset, std::uint64_t max_bytes, std::string_view what);
// The first `bytes` of a regular file ("" when it is missing or not a regular file): what a
// writer recognises its own files by.
std::string file_head(const std::string& path, std::size_t bytes = 4096);

// Whether `path` names something other than a regular file (a FIFO, a device, a directory):
// what a program must not open as one of its files. A missing path is not one.
bool names_a_special_file(const std::string& path);
// Whether `path` is a symbolic link (to anything, or dangling).
bool is_symbolic_link(const std::string& path);

// Creates `path` with `content`, exclusively: written to a temporary beside it and linked into
// place, so that an existing file (or link) is never replaced and a failed write (a full disk)
// leaves nothing behind. Throws common::InputError; one naming "exists" when something is there.
void create_file(const std::string& path, std::string_view content);

// How a writer recognises a file it made: `ours` is asked of the file's first 4 KB.
struct Ownership {
    std::string_view what;  // "a loa-match result", for the message
    std::function<bool(std::string_view head)> ours;
};
// A file in a directory the caller has claimed as its own (a run directory with its marker):
// every file there is the program's.
Ownership in_own_directory(std::string_view what);

// Replaces `path` with `content` as a whole: a new file is created (as create_file); an
// existing regular file only when `owner.ours` recognises it, through a temporary renamed over
// it (a reader sees the old file or the new one; the file keeps its permissions). A symbolic
// link, a directory or a file not recognised is refused and left as it is; a device or a FIFO
// is written in place. Throws common::InputError naming the file and the cause.
void replace_file(const std::string& path, std::string_view content, const Ownership& owner);

// A file written piece by piece (a join of large parts): into a temporary of its own beside
// `path` (`temporary`, or a fresh name), moved into place only by commit(): linked when nothing
// is at `path`, renamed over it when `owner` recognises the file there. Never committed (an
// exception, a kill between runs aside), the temporary is removed. Throws common::InputError.
class FileWriter {
public:
    explicit FileWriter(std::string path, std::string temporary = {});
    ~FileWriter();
    FileWriter(const FileWriter&) = delete;
    FileWriter& operator=(const FileWriter&) = delete;

    void write(std::string_view text);
    // Bytes [from, to) of the regular file `source` (read as FileReader reads).
    void copy_from(const std::string& source, std::uint64_t from, std::uint64_t to);
    // The permissions `source` has (the file being replaced keeps its own).
    void keep_permissions_of(const std::string& source);
    void commit(const Ownership& owner);

private:
    std::string path_, temporary_;
    int fd_ = -1;
};

// Checks now, before a long computation, what replace_file will check when it writes `path`:
// throws common::InputError when it would refuse.
void check_replaceable(const std::string& path, const Ownership& owner);

// Appends `text` to the regular file `path` (created when missing, not through a symbolic
// link), with checked writes; when a write fails the file is cut back to its length before
// the call, so that no torn line stays behind, and common::InputError is thrown.
void append_to_file(const std::string& path, std::string_view text);

// Cuts the regular file `path` to `size` bytes (a run's own records, rewritten).
void truncate_file(const std::string& path, std::uint64_t size);

// Flushes the directory holding `path` to disk: a rename or link into it survives a crash.
void sync_directory_of(const std::string& path);

}  // namespace common
