#include "common/bounded_io.hpp"

#include <sstream>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/files.hpp"

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
