// The lines a match prints in the form of another match runner, for the scripts written to read
// that runner (-output format=cutechess|fastchess, --output-format): cutechess-cli's
//   Started game 1 of 4 (A vs B)
//   Finished game 1 (A vs B): 1-0 {black loses on time}
//   Score of A vs B: 1 - 0 - 0  [1.000] 1
//   Elo difference: 120.4 +/- 80.1, LOS: 99.1 %, DrawRatio: 10.0 %
//   Finished match
// and fastchess's result block (Results of / Elo: / LOS: / Games: / Ptnml(0-2): / LLR:). In a
// game line the first name is White's and the result is PGN's, as in both tools; "A vs B" of a
// score line is the pairing's first engine against its second, the counts from A's side.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "matches/match.hpp"

namespace matches {

enum class OutputFormat { Native, Cutechess, Fastchess };

// "native" (loa-match's own lines), "cutechess" or "fastchess"; throws common::InputError.
OutputFormat parse_output_format(std::string_view name);

// "Started game 3 of 40 (white vs black)", both tools' line when a game begins.
std::string started_game_line(int number, int total, const std::string& white, const std::string& black);

// cutechess-cli's score line after each game: "Score of A vs B: W - L - D  [0.500] N".
std::string cutechess_score_line(const MatchSettings& s, const PairingStats& p);
// cutechess-cli's results at a rating interval and at the end: each pairing's Elo difference
// line (and its SPRT line with an SPRT).
std::string cutechess_results(const MatchSettings& s, const std::vector<PairingStats>& pairings);
// fastchess's result block of each pairing, between its dashed lines.
std::string fastchess_results(const MatchSettings& s, const std::vector<PairingStats>& pairings);

// The results in `format` (the native summary is report.hpp's).
std::string foreign_results(OutputFormat format, const MatchSettings& s, const std::vector<PairingStats>& pairings);

}  // namespace matches
