// What a match prints and writes: the per-game line, the progress line, the final summary
// table, and the machine-readable JSON result.
#pragma once

#include <string>

#include "matches/match.hpp"

namespace matches {

// "Finished game 7 (white vs black): 0-1 {black wins by connection}"
std::string finished_line(const GameRecord& g);
// "Score of A vs B: 12 - 7 - 1  [0.625] 20/40  Elo +89 [+20, +172]  LLR 1.23 [-2.94, 2.94]"
std::string progress_line(const MatchSettings& s, const PairingStats& p, int total_games);
// Test-vs-base runs: "Verdict: test vs base: +12.3 Elo [+1.0, +23.6] in 800 games; SPRT accepted H1: ..."
std::string verdict_line(const MatchSettings& s, const PairingStats& p);
// The periodic summary of --report-every: the summary tables of the pairings so far, with the
// elapsed time, the rate and an estimate of the time left.
std::string interim_report(const MatchSettings& s, const std::vector<PairingStats>& pairings, int finished, int scheduled,
                           double elapsed_seconds, int played_this_run);
std::string summary(const MatchSettings& s, const MatchResult& r);
std::string result_json(const MatchSettings& s, const MatchResult& r);

}  // namespace matches
