#include "matches/records.hpp"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/text.hpp"
#include "loa/notation.hpp"
#include "loa/pgn.hpp"
#include "loa/position_text.hpp"

namespace matches {
namespace {

// PGN's Termination tag takes one of its own words (standard, 9.8.1); the runner's reason
// ("white loses on time", "black wins by connection") goes into the comment before the result.
std::string pgn_termination(const GameRecord& r) {
    if (r.outcome == loa::Outcome::Ongoing) return "unterminated";
    if (r.rules_ending) return "normal";
    const auto says = [&](const char* words) { return r.termination.find(words) != std::string::npos; };
    if (says("on time")) return "time forfeit";
    if (says("resigns") || says("draw agreed")) return "normal";  // PGN counts both as normal endings
    if (says("illegal move")) return "rules infraction";
    if (says("(adjudicated)")) return "adjudication";
    return "abandoned";  // a crash, a hang, a protocol error: the engine stopped playing
}

}  // namespace

void write_record(std::ostream& out, const GameRecord& r, const std::string& event) {
    auto tag = [&](const char* name, const std::string& value) { out << '[' << name << " \"" << loa::pgn_string(value) << "\"]\n"; };
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
    const bool clocks = r.clock_after_ms.size() == r.moves.size();
    for (std::size_t i = 0; i < r.moves.size(); ++i) {
        const std::size_t ply = i + (second_first ? 1 : 0);  // counted from a pair's first move
        // A pair's second move gets its number after a comment too (PGN export format, 8.2.2.2).
        const bool after_comment = i == 0 || static_cast<int>(i) == r.opening_plies || clocks;
        if (ply % 2 == 0) emit(fmt::format("{}.", ply / 2 + 1));
        else if (after_comment) emit(fmt::format("{}...", ply / 2 + 1));
        emit(loa::move_to_text(r.moves[i]));
        if (clocks) emit(fmt::format("{{{}}}", loa::pgn_clock_command(r.clock_after_ms[i])));
        if (static_cast<int>(i) + 1 == r.opening_plies) emit("{end of opening}");
    }
    if (!r.termination.empty() && r.outcome != loa::Outcome::Ongoing) emit(fmt::format("{{{}}}", loa::pgn_comment(r.termination)));
    emit(r.result_text());
    out << line << "\n\n";
}

std::string records_text(const std::vector<GameRecord>& games, const std::string& event) {
    std::ostringstream out;
    for (const GameRecord& g : games) write_record(out, g, event);
    return out.str();
}

}  // namespace matches
