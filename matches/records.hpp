// Game records in PGN: the Seven Tag Roster, then the whole move list (opening moves included)
// in b1-d3 / c1xa3 / pass notation, numbered per move pair from the standard start's first
// mover (Black), "1..." first when the game starts with White to move.
//   [Event] [Site "?"] [Date "YYYY.MM.DD"] [Round "pair.game"] [White] [Black] [Result]
//   [SetUp "1"] [FEN "<position text>"] only when the game does not start from the standard start
//   [TimeControl "5+0.05"] (a clock both share), else "-" or "?" and [BlackLimit] [WhiteLimit]
//   [Opening] [Termination] [PlyCount], and [Rules] when the record says its rule set
// Termination is PGN's word (normal, time forfeit, rules infraction, adjudication, abandoned);
// the runner's own reason ("white loses on time") is the comment before the result.
// Result follows PGN's convention on the White/Black tags, so Ordo and BayesElo read it.
#pragma once

#include <istream>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "loa/pgn.hpp"
#include "matches/game_runner.hpp"

namespace matches {

// Tag values are PGN strings: a quote or a backslash is escaped with a backslash, as the PGN
// standard says; a control character, which a PGN string cannot hold (a newline would end the
// tag), is written as a space.
void write_record(std::ostream& out, const GameRecord& record, const std::string& event);
// The records of `games`, one after another, as write_record writes them.
std::string records_text(const std::vector<GameRecord>& games, const std::string& event);

// Reading records is the game's business (loa/pgn.hpp, which `loa analyze-game` uses too).
using loa::ParsedRecord;
using loa::read_records;

}  // namespace matches
