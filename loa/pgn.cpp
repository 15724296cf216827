#include "loa/pgn.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "common/text.hpp"
#include "loa/error.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"

namespace loa {

std::string pgn_string(std::string_view s) {
    std::string out;
    for (const char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += static_cast<unsigned char>(c) < 0x20 || c == 0x7F ? ' ' : c;
    }
    return out;
}

std::string pgn_comment(std::string_view s) {
    std::string out;
    for (const char c : s) out += c == '}' ? ')' : static_cast<unsigned char>(c) < 0x20 || c == 0x7F ? ' ' : c;
    return out;
}

std::string pgn_clock_command(double ms) {
    const auto seconds = static_cast<long long>(std::max(0.0, ms) / 1000);
    return fmt::format("[%clk {}:{:02}:{:02}]", seconds / 3600, seconds / 60 % 60, seconds % 60);
}

std::optional<double> pgn_clock_ms(std::string_view comment) {
    const std::string_view command = "[%clk";
    const auto at = comment.find(command);
    if (at == std::string_view::npos) return std::nullopt;
    const auto end = comment.find(']', at);
    const std::string_view time = common::trim(comment.substr(at + command.size(), end == std::string_view::npos ? end : end - at - command.size()));
    // H:MM:SS, the seconds perhaps with a fraction; anything else is a comment's own words.
    const auto fail = []() -> std::optional<double> { return std::nullopt; };
    const auto first = time.find(':'), second = first == std::string_view::npos ? first : time.find(':', first + 1);
    if (end == std::string_view::npos || second == std::string_view::npos) return fail();
    const auto plain = [](std::string_view digits) {  // no signs nor exponents
        return !digits.empty() && digits.find_first_not_of("0123456789.") == std::string_view::npos;
    };
    if (!plain(time.substr(0, first)) || !plain(time.substr(first + 1, second - first - 1)) || !plain(time.substr(second + 1)))
        return fail();
    const auto hours = common::parse_int64(time.substr(0, first));
    const auto minutes = common::parse_int64(time.substr(first + 1, second - first - 1));
    const auto seconds = common::parse_double(time.substr(second + 1));
    if (!hours || !minutes || !seconds || *hours < 0 || *hours > 1'000'000 || *minutes < 0 || *minutes > 59 || !(*seconds >= 0) ||
        *seconds >= 60 || second - first != 3)
        return fail();
    return (static_cast<double>(*hours * 3600 + *minutes * 60) + *seconds) * 1000;
}

std::string ParsedRecord::start_text() const {
    if (const auto fen = tags.find("FEN"); fen != tags.end()) return fen->second;
    if (const auto position = tags.find("Position"); position != tags.end()) return position->second;  // before FEN
    return std::string(StartPositionText);
}

std::vector<ParsedRecord> read_records(std::istream& in, Variations variations) {
    std::vector<ParsedRecord> out;
    ParsedRecord current;
    std::string movetext;  // of the current record, its lines joined
    int movetext_line = 0;
    auto flush = [&] {
        if (!movetext.empty()) {
            try {
                const MoveText parsed = parse_movetext(movetext, variations);
                for (const std::string_view m : parsed.moves) current.moves.emplace_back(m);
                for (const auto& [before, text] : parsed.comments) {
                    if (const auto clock = pgn_clock_ms(text); clock && before > 0) {
                        current.clocks_ms[before] = *clock;
                        continue;  // a clock's comment says nothing else (lichess's, ours)
                    }
                    if (common::trim(text) == "end of opening") current.opening_plies = static_cast<int>(before);
                    else if (before == parsed.moves.size()) current.reason = std::string(common::trim(text));
                }
            } catch (const InputError& e) {
                throw InputError(fmt::format("records: the moves from line {}: {}", movetext_line, e.what()));
            }
        }
        if (!current.tags.empty() || !current.moves.empty()) out.push_back(std::move(current));
        current = {};
        movetext.clear();
    };
    bool in_comment = false;  // a brace comment goes on over lines: '[' there is not a tag
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string_view text = common::trim(line);
        if (!in_comment && line.starts_with('%')) continue;  // an escape line (PGN 6)
        if (!in_comment && !text.empty() && text.front() == '[') {
            if (!movetext.empty()) flush();
            const auto space = text.find(' ');
            const auto open = text.find('"'), close = text.rfind('"');
            if (text.back() != ']' || space == std::string_view::npos || open == close)
                throw InputError(fmt::format("records: malformed tag on line {}", number));
            std::string value;
            for (std::size_t i = open + 1; i < close; ++i) {
                if (text[i] == '\\' && i + 1 < close) ++i;
                value += text[i];
            }
            current.tags[std::string(text.substr(1, space - 1))] = value;
            continue;
        }
        if (text.empty() && !in_comment) continue;
        if (movetext.empty()) movetext_line = number;
        movetext += line;
        movetext += '\n';
        // Whether a brace comment is still open at the end of the line (';' comments end there).
        for (const char c : line) {
            if (!in_comment && c == ';') break;
            if (c == '{') in_comment = true;
            else if (c == '}') in_comment = false;
        }
    }
    flush();
    return out;
}

}  // namespace loa
