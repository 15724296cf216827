// Game records in PGN, the reading side (the writing side of a match's records is
// matches/records.hpp; the annotated records of `loa analyze-game` are loa/game_analysis.hpp):
// tag pairs, then the movetext read by parse_movetext (comments, NAGs, suffix annotations and
// variations are read past).
#pragma once

#include <istream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loa/notation.hpp"

namespace loa {

// A PGN string token's inside (standard, 7.): a quote is \" and a backslash \\; it holds
// printing characters only, so a control character (a newline would end the tag) becomes a space.
std::string pgn_string(std::string_view s);
// A brace comment's inside (PGN comments have no escapes): a '}', which would end it, becomes
// ')', and a control character a space.
std::string pgn_comment(std::string_view s);

// A clock's time left as PGN's clock command (the PGN supplement's "[%clk H:MM:SS]", as lichess
// writes it): whole seconds, rounded down as a clock shows them; a negative time is 0:00:00.
std::string pgn_clock_command(double ms);
// The time of a "[%clk H:MM:SS]" (seconds may carry a fraction) in a comment's text, in ms;
// nullopt when the comment holds none, or one not in that form (a comment is free text: a
// record that reads without its clocks is not refused for them).
std::optional<double> pgn_clock_ms(std::string_view comment);

struct ParsedRecord {
    std::map<std::string, std::string> tags;
    std::vector<std::string> moves;
    int opening_plies = -1;  // where the "{end of opening}" comment stands; -1: none
    std::string reason;      // the comment after the last move: how the game ended, in words
    // The clock commands read ("[%clk H:MM:SS]" in the comment after a move): the mover's time
    // left after the move (ms), by the move's 1-based number in the game.
    std::map<std::size_t, double> clocks_ms;
    // The position the game starts from: the FEN tag (with SetUp "1"), the Position tag of
    // records written before FEN, or the standard start.
    std::string start_text() const;
};

// Reads every record of a file (PGN: tag pairs, then the movetext, read by loa::parse_movetext);
// throws InputError on malformed text. Variations (an annotated game's alternatives) are read
// past where a reader asks for it (Replay, loa analyze-game); the runner's own records hold
// none, so its readers refuse them.
std::vector<ParsedRecord> read_records(std::istream& in, Variations variations = Variations::Refuse);

}  // namespace loa
