// Writing the runner's own files so that a failed write is never silent and never leaves a
// half-written file or a stray temporary behind: every write is checked, and its error names
// the file and the system's reason ("No space left on device").
#pragma once

#include <string>
#include <string_view>

namespace matches {

// Replaces `path` with `content` as a whole: written to a temporary file of its own beside it
// (a name no other file has), then renamed over it, so that a reader sees the old file or the
// new one, never a part. Throws common::InputError, the temporary removed, when a write fails.
void replace_file(const std::string& path, std::string_view content);

// Appends `text` to `path` (created when missing) with checked writes. When a write fails, the
// file is cut back to its length before the call, so that no torn line stays behind to be
// joined to the next one, and common::InputError is thrown.
void append_to_file(const std::string& path, std::string_view text);

// Whether `path` names something other than a regular file (a FIFO, a device, a directory):
// what the runner must not open as one of its files. A missing path is not one.
bool names_a_special_file(const std::string& path);

}  // namespace matches
