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
