// CodinGame referee protocol (the LOA arena's format). First line: our colour. Each turn: 8
// board lines (rank 8 first; b, w, .), the opponent's last move (b1b3, null or pass), the
// number of legal moves and the moves; we answer with one move (b1b3) or pass. The referee
// allows 1000 ms for the first turn and 150 ms after, and judges by its own rules: the mover is
// checked first (a move connecting both sides wins for it), no repetition rule, a draw after
// 150 turns in all. Those are the default rules here; the turns seen tell the search how many
// plies are left.
#include <algorithm>
#include <iostream>
#include <set>
#include <string>

#include <fmt/format.h>

#include "common/bounded_io.hpp"
#include "common/text.hpp"
#include "loa/engine/frontends.hpp"
#include "loa/error.hpp"
#include "loa/notation.hpp"

namespace loa::engine {
namespace {

bool read_line(std::istream& in, std::string& line) {
    for (;;) {
        switch (common::read_bounded_line(in, line, common::MaxProtocolLine)) {
            case common::LineRead::End: return false;
            case common::LineRead::TooLong: throw InputError(fmt::format("an input line of over {} bytes", common::MaxProtocolLine));
            case common::LineRead::Line:
                if (!common::trim(line).empty()) return true;
        }
    }
}

Position read_board(std::istream& in, const std::string& first_rank, Colour us) {
    Bitboard pieces[2] = {0, 0};
    std::string line = first_rank;
    for (int rank = 7; rank >= 0; --rank) {
        if (rank < 7 && !read_line(in, line)) throw InputError("input ended inside the board");
        const std::string_view row = common::trim(line);
        if (row.size() != 8) throw InputError(fmt::format("board line '{}' does not have 8 squares", common::excerpt(row)));
        for (int file = 0; file < 8; ++file) {
            const char c = row[static_cast<std::size_t>(file)];
            if (c == 'b' || c == 'w') pieces[c == 'w'] |= square_bb(make_square(file, rank));
            else if (c != '.' && c != '-') throw InputError(fmt::format("board line '{}': unexpected '{}'", row, c));
        }
    }
    return Position::from_bitboards(pieces[0], pieces[1], us);
}

}  // namespace

int run_codingame(std::istream& in, Output& out, std::ostream& log, const CodinGameSettings& settings) {
    // The referee's clock runs from the turn's first line (on the first turn, from start-up:
    // building the tables counts too); what was spent before the search is charged to it.
    search::Stopwatch turn_clock;
    std::string line;
    if (!read_line(in, line)) return 0;
    const std::string_view colour = common::trim(line);
    if (colour != "b" && colour != "w") {
        log << "codingame: first line must be our colour (b or w), got '" << common::excerpt(colour) << "'\n";
        return 2;
    }
    const Colour us = colour == "b" ? Colour::Black : Colour::White;
    Session session;
    try {
        session.set_option("Rules", settings.rules);
    } catch (const InputError& e) {
        log << "codingame: " << e.what() << "\n";
        return 2;
    }
    session.set_option("MoveOverhead", fmt::format("{:g}", settings.overhead_ms));
    session.cap_nodes(settings.node_cap);
    session.prepare();  // before the first turn's clock runs
    const double keep = 1 - settings.margin_percent / 100;
    for (int turn = 0;; ++turn) {
        try {
            if (!read_line(in, line)) return 0;
            if (turn > 0) turn_clock = search::Stopwatch();
            const Position pos = read_board(in, line, us);
            std::string last_move;
            if (!read_line(in, last_move)) throw InputError("input ended before the last move");
            if (!read_line(in, line)) throw InputError("input ended before the move count");
            const auto count = common::parse_int(line);
            if (!count || *count < 0 || *count > 1000) throw InputError(fmt::format("bad move count '{}'", common::excerpt(line)));
            std::set<std::string> offered;
            for (int k = 0; k < *count; ++k) {
                if (!read_line(in, line)) throw InputError("input ended inside the move list");
                offered.insert(std::string(common::trim(line)));
            }
            // The referee sends boards, not the game: repetitions of earlier positions are
            // unknown here (its rules have none). Black moves first: before our turn t, 2t
            // plies were played, one more when we are White.
            const int plies_before = 2 * turn + (us == Colour::White ? 1 : 0);
            session.set_game(Game(pos, session.rules(), plies_before));
            search::ClockLimits clock;
            clock.move_time_ms = std::max(1.0, keep * (turn == 0 ? settings.first_turn_ms : settings.turn_ms) - turn_clock.elapsed_ms());
            const Result r = session.think(clock);
            std::string answer = move_to_compact(r.best_move);
            if (!offered.empty() && !offered.contains(answer)) {
                log << "codingame: our move " << answer << " is not in the referee's list; playing "
                    << *offered.begin() << "\n";
                answer = *offered.begin();
            }
            out.line(answer);
        } catch (const InputError& e) {
            log << "codingame: error: " << e.what() << "\n";
            return 2;
        }
    }
}

}  // namespace loa::engine
