#include "matches/records.hpp"

#include <sstream>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/text.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"

namespace matches {
namespace {

// A PGN string token (standard, 7.): a quote is \" and a backslash \\; it holds printing
// characters only, so a control character becomes a space.
std::string escape(const std::string& s) {
    std::string out;
    for (const char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += static_cast<unsigned char>(c) < 0x20 || c == 0x7F ? ' ' : c;
    }
    return out;
}

}  // namespace

void write_record(std::ostream& out, const GameRecord& r, const std::string& event) {
    auto tag = [&](const char* name, const std::string& value) { out << '[' << name << " \"" << escape(value) << "\"]\n"; };
    tag("Event", event);
    tag("Round", fmt::format("{}.{}", r.pair + 1, r.index % 2 + 1));
    tag("White", r.white);
    tag("Black", r.black);
    tag("Result", r.result_text());
    tag("Opening", r.opening);
    tag("TimeControl", r.black_limit == r.white_limit ? r.black_limit
                                                      : fmt::format("black {}; white {}", r.black_limit, r.white_limit));
    tag("Termination", r.termination);
    tag("PlyCount", std::to_string(r.moves.size()));
    if (r.start.to_text() != loa::StartPositionText) tag("Position", r.start.to_text());
    out << '\n';
    // Move numbers count move pairs from the start position's side to move.
    std::string line;
    auto emit = [&](const std::string& token) {
        if (line.size() + token.size() + 1 > 79) {
            out << line << '\n';
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += token;
    };
    for (std::size_t i = 0; i < r.moves.size(); ++i) {
        if (i % 2 == 0) emit(fmt::format("{}.", i / 2 + 1));
        emit(loa::move_to_text(r.moves[i]));
        if (static_cast<int>(i) + 1 == r.opening_plies) emit("{end of opening}");
    }
    emit(r.result_text());
    out << line << "\n\n";
}

std::string records_text(const std::vector<GameRecord>& games, const std::string& event) {
    std::ostringstream out;
    for (const GameRecord& g : games) write_record(out, g, event);
    return out.str();
}

std::vector<ParsedRecord> read_records(std::istream& in) {
    std::vector<ParsedRecord> out;
    ParsedRecord current;
    bool in_moves = false;
    std::string line;
    auto flush = [&] {
        if (!current.tags.empty() || !current.moves.empty()) out.push_back(std::move(current));
        current = {};
        in_moves = false;
    };
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string_view text = common::trim(line);
        if (text.empty()) continue;
        if (text.front() == '[') {
            if (in_moves) flush();
            const auto space = text.find(' ');
            const auto open = text.find('"'), close = text.rfind('"');
            if (text.back() != ']' || space == std::string_view::npos || open == close)
                throw common::InputError(fmt::format("records: malformed tag on line {}", number));
            std::string value;
            for (std::size_t i = open + 1; i < close; ++i) {
                if (text[i] == '\\' && i + 1 < close) ++i;
                value += text[i];
            }
            current.tags[std::string(text.substr(1, space - 1))] = value;
            continue;
        }
        in_moves = true;
        std::string_view rest = text;
        while (!rest.empty()) {
            if (rest.front() == '{') {  // comment
                const auto end = rest.find('}');
                if (end == std::string_view::npos) throw common::InputError(fmt::format("records: open comment on line {}", number));
                if (rest.substr(0, end + 1) == "{end of opening}") current.opening_plies = static_cast<int>(current.moves.size());
                rest.remove_prefix(end + 1);
                rest = common::trim(rest);
                continue;
            }
            const auto end = rest.find(' ');
            const std::string_view token = rest.substr(0, end);
            rest = end == std::string_view::npos ? std::string_view{} : common::trim(rest.substr(end));
            if (token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*") continue;
            if (token.back() == '.') continue;  // move number
            current.moves.emplace_back(token);
        }
    }
    flush();
    return out;
}

}  // namespace matches
