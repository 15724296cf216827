// Reading input whose size the reader does not control, within a bound: one protocol line. A
// line over its bound is refused with a clear error instead of growing memory without limit
// (a 10 MB token on stdin). Files: common/files.hpp.
#pragma once

#include <cstddef>
#include <istream>
#include <optional>
#include <string>
#include <string_view>

namespace common {

enum class LineRead { Line, TooLong, End };

// Reads the next line (without its '\n') into `line`. A line longer than `max_bytes` is read to
// its end and dropped: TooLong, with `line` holding its first bytes only. End: no more input.
LineRead read_bounded_line(std::istream& in, std::string& line, std::size_t max_bytes);

// The next protocol line (at most MaxProtocolLine bytes) into `line`; a longer one is dropped
// and `on_too_long()` called to say so. False at the end of the input.
template <class OnTooLong>
bool next_protocol_line(std::istream& in, std::string& line, OnTooLong&& on_too_long);

// The bound on a protocol input line: far above any real command (a position with a thousand
// moves is 5 KB).
inline constexpr std::size_t MaxProtocolLine = 1 << 20;

template <class OnTooLong>
bool next_protocol_line(std::istream& in, std::string& line, OnTooLong&& on_too_long) {
    for (;;) {
        switch (read_bounded_line(in, line, MaxProtocolLine)) {
            case LineRead::End: return false;
            case LineRead::Line: return true;
            case LineRead::TooLong: on_too_long(); break;
        }
    }
}

}  // namespace common
