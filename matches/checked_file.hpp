// Writing the runner's own files so that a failed write is never silent and never leaves a
// half-written file or a stray temporary behind: every write is checked, and its error names
// the file and the system's reason ("No space left on device").
#pragma once

#include <string>
#include <string_view>

namespace matches {

// Replaces the content of `path` with `content` as a whole. A regular file (or a new one) is
// written to a temporary file of its own beside it (created exclusively: no other file is
// touched), then renamed over it, so that a reader sees the old file or the new one, never a
// part; the file keeps its permissions (a new one gets the umask's). A symbolic link has its
// target replaced so, the link staying. Anything else (a device such as /dev/null, a FIFO with
// a reader) is written in place. Throws common::InputError naming the file and the cause, the
// temporary removed, when a write fails.
void replace_file(const std::string& path, std::string_view content);

// Appends `text` to `path` (created when missing) with checked writes. When a write fails, the
// file is cut back to its length before the call, so that no torn line stays behind to be
// joined to the next one, and common::InputError is thrown.
void append_to_file(const std::string& path, std::string_view text);

}  // namespace matches
