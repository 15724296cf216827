#include "loa/engine/codingame_protocol.hpp"

#include <algorithm>
#include <istream>
#include <ostream>
#include <set>

#include <fmt/format.h>

#include "common/bounded_io.hpp"
#include "common/search/limits.hpp"
#include "common/text.hpp"
#include "loa/error.hpp"
#include "loa/move_names.hpp"

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
    // No game reaches more, and the network is sized for no more.
    if (popcount(pieces[0]) > MaxPiecesPerSide || popcount(pieces[1]) > MaxPiecesPerSide)
        throw InputError(fmt::format("a board with more than {} pieces a side", MaxPiecesPerSide));
    return Position::from_bitboards(pieces[0], pieces[1], us);
}

}  // namespace

int play_codingame(std::istream& in, std::ostream& out, std::ostream& log, const CodinGameSettings& settings,
                   const std::function<void(Colour us)>& ready, const std::function<Move(const CodinGameTurn&)>& think) {
    // The referee's clock runs from the turn's first line, what was spent before the search
    // charged to it: on the first turn, from the colour line (which comes with it), so that
    // building the tables counts, and White's wait for Black's first move does not.
    std::string line;
    if (!read_line(in, line)) return 0;
    search::Stopwatch turn_clock;
    const std::string_view colour = common::trim(line);
    if (colour != "b" && colour != "w") {
        log << "codingame: first line must be our colour (b or w), got '" << common::excerpt(colour) << "'\n";
        return 2;
    }
    const Colour us = colour == "b" ? Colour::Black : Colour::White;
    const double keep = 1 - settings.margin_percent / 100;
    try {
        ready(us);
        for (int turn = 0;; ++turn) {
            if (!read_line(in, line)) return 0;
            if (turn > 0) turn_clock = search::Stopwatch();
            CodinGameTurn t;
            t.position = read_board(in, line, us);
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
            // unknown here (its rules have none).
            t.plies_before = 2 * turn + (us == Colour::White ? 1 : 0);
            t.move_time_ms = std::max(1.0, keep * (turn == 0 ? settings.first_turn_ms : settings.turn_ms) - turn_clock.elapsed_ms());
            std::string answer = move_to_compact(think(t));
            if (!offered.empty() && offered.count(answer) == 0) {
                log << "codingame: our move " << answer << " is not in the referee's list; playing " << *offered.begin() << "\n";
                answer = *offered.begin();
            }
            out << answer << std::endl;
        }
    } catch (const InputError& e) {
        log << "codingame: error: " << e.what() << "\n";
        return 2;
    }
}

}  // namespace loa::engine
