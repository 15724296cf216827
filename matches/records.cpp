#include "matches/records.hpp"

#include <algorithm>
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

// PGN's Termination tag takes one of its own words (standard, 9.8.1); the runner's reason
// ("white loses on time", "black wins by connection") goes into the comment before the result.
std::string pgn_termination(const GameRecord& r) {
    if (r.outcome == loa::Outcome::Ongoing) return "unterminated";
    if (r.rules_ending) return "normal";
    const auto says = [&](const char* words) { return r.termination.find(words) != std::string::npos; };
    if (says("on time")) return "time forfeit";
    if (says("illegal move")) return "rules infraction";
    if (says("(adjudicated)")) return "adjudication";
    return "abandoned";  // a crash, a hang, a protocol error: the engine stopped playing
}

// A brace comment ends at the first '}': one in the text would end it early.
std::string comment_text(const std::string& s) {
    std::string out = escape(s);
    std::replace(out.begin(), out.end(), '}', ')');
    return out;
}

}  // namespace

void write_record(std::ostream& out, const GameRecord& r, const std::string& event) {
    auto tag = [&](const char* name, const std::string& value) { out << '[' << name << " \"" << escape(value) << "\"]\n"; };
    // The Seven Tag Roster, in its order.
    tag("Event", event);
    tag("Site", "?");
    tag("Date", r.date.empty() ? "????.??.??" : r.date);
    tag("Round", fmt::format("{}.{}", r.pair + 1, r.index % 2 + 1));
    tag("White", r.white);
    tag("Black", r.black);
    tag("Result", r.result_text());
    const std::string start = r.start.to_text();
    if (start != loa::StartPositionText) {
        tag("SetUp", "1");
        tag("FEN", start);  // this program's position text: the board, then the side to move
    }
    // A clock both sides share is PGN's "base+increment" in seconds; any other limit (depth,
    // nodes, time a move, or two clocks) is "-" (no clock) or "?" and the limits' own tags.
    const bool shared_clock = r.black_limit == r.white_limit && r.black_limit.starts_with("tc=") &&
                              r.black_limit.find(',') == std::string::npos;
    const bool any_clock = r.black_limit.find("tc=") != std::string::npos || r.white_limit.find("tc=") != std::string::npos;
    tag("TimeControl", shared_clock ? r.black_limit.substr(3) : any_clock ? "?" : "-");
    if (!shared_clock) {
        tag("BlackLimit", r.black_limit);
        tag("WhiteLimit", r.white_limit);
    }
    tag("Opening", r.opening);
    tag("Termination", pgn_termination(r));
    tag("PlyCount", std::to_string(r.moves.size()));
    if (!r.rules.empty()) tag("Rules", r.rules);
    out << '\n';
    // Move numbers count move pairs from the first mover of the standard start (Black), as PGN
    // counts them from White's: a game whose first mover is the other side starts "1...".
    const bool second_first = r.start.side_to_move() != loa::Position::start().side_to_move();
    std::string line;
    auto emit = [&](const std::string& token) {
        if (line.size() + token.size() + 1 > 79) {
            out << line << '\n';
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += token;
    };
    // Where the engines took over is marked, at the start too: the records read back as openings.
    if (r.opening_plies == 0) emit("{end of opening}");
    for (std::size_t i = 0; i < r.moves.size(); ++i) {
        const std::size_t ply = i + (second_first ? 1 : 0);  // counted from a pair's first move
        // A pair's second move gets its number after a comment too (PGN export format, 8.2.2.2).
        const bool after_comment = i == 0 || static_cast<int>(i) == r.opening_plies;
        if (ply % 2 == 0) emit(fmt::format("{}.", ply / 2 + 1));
        else if (after_comment) emit(fmt::format("{}...", ply / 2 + 1));
        emit(loa::move_to_text(r.moves[i]));
        if (static_cast<int>(i) + 1 == r.opening_plies) emit("{end of opening}");
    }
    if (!r.termination.empty() && r.outcome != loa::Outcome::Ongoing) emit(fmt::format("{{{}}}", comment_text(r.termination)));
    emit(r.result_text());
    out << line << "\n\n";
}

std::string ParsedRecord::start_text() const {
    if (const auto fen = tags.find("FEN"); fen != tags.end()) return fen->second;
    if (const auto position = tags.find("Position"); position != tags.end()) return position->second;  // before FEN
    return std::string(loa::StartPositionText);
}

std::string records_text(const std::vector<GameRecord>& games, const std::string& event) {
    std::ostringstream out;
    for (const GameRecord& g : games) write_record(out, g, event);
    return out.str();
}

std::vector<ParsedRecord> read_records(std::istream& in) {
    std::vector<ParsedRecord> out;
    ParsedRecord current;
    std::string movetext;  // of the current record, its lines joined
    int movetext_line = 0;
    auto flush = [&] {
        if (!movetext.empty()) {
            try {
                const loa::MoveText parsed = loa::parse_movetext(movetext);
                for (const std::string_view m : parsed.moves) current.moves.emplace_back(m);
                for (const auto& [before, text] : parsed.comments) {
                    if (common::trim(text) == "end of opening") current.opening_plies = static_cast<int>(before);
                    else if (before == parsed.moves.size()) current.reason = std::string(common::trim(text));
                }
            } catch (const common::InputError& e) {
                throw common::InputError(fmt::format("records: the moves from line {}: {}", movetext_line, e.what()));
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
                throw common::InputError(fmt::format("records: malformed tag on line {}", number));
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

}  // namespace matches
