// The command line of fastchess and cutechess-cli, which chess-engine testers type from memory:
//   loa-match -engine cmd=X name=A -engine cmd=Y name=B -each tc=5+0.05 -rounds 10 -repeat
//             -concurrency 2 -pgnout file=out.pgn -sprt elo0=0 elo1=10 alpha=0.05 beta=0.05
// translated into loa-match's own options before they are parsed. Their options that mean the
// same here are mapped; the others are refused with what to write instead. The table of both
// is in docs/match-runner.md ("fastchess and cutechess-cli options").
#pragma once

#include <string>
#include <vector>

namespace matches::cli {

// The most games a pairing may have (--games), in every spelling of the schedule.
inline constexpr long long MaxGamesPerPairing = 10'000'000;

// Whether the command line (program name first) uses an option written their way: a word
// after a single dash (-engine, -rounds, -pgnout, ...). loa-match's own one-letter options
// (-e, -g, -j, -q) are not.
bool uses_fastchess_options(const std::vector<std::string>& args);

// The same command line in loa-match's options (program name first); options of loa-match
// (--tc, -j, ...) pass through unchanged. Throws common::InputError naming the option and what
// to write instead for one that has no equivalent, and with a "did you mean" for a misspelt one.
std::vector<std::string> translate_fastchess_options(const std::vector<std::string>& args);

}  // namespace matches::cli
