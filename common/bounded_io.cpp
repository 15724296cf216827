#include "common/bounded_io.hpp"

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

}  // namespace common
