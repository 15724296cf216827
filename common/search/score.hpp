// Search scores: centi-units from the side to move's point of view. Wins and losses are
// mate-distance scores outside every evaluation, so the shortest win is preferred.
#pragma once

#include <cstdint>
#include <cstdlib>

namespace search {

using Score = int;

inline constexpr int MaxPly = 128;
inline constexpr Score Infinity = 32000;
inline constexpr Score WinScore = 30000;                 // a win at ply 0
inline constexpr Score WinThreshold = WinScore - MaxPly;  // scores beyond are decided games
inline constexpr Score DrawScore = 0;
// Evaluations must stay strictly inside (-EvalLimit, EvalLimit).
inline constexpr Score EvalLimit = WinThreshold - 1;
// A win proven without a distance (the proof-number solver's, solving_searcher.hpp): above
// every evaluation and below every decided score, so that a front end prints it as a plain
// score ("cp 29871") rather than a distance nobody found.
inline constexpr Score ProvenWinScore = EvalLimit;

constexpr Score win_in(int ply) { return WinScore - ply; }
constexpr Score loss_in(int ply) { return -WinScore + ply; }
constexpr bool is_decisive(Score s) { return s >= WinThreshold || s <= -WinThreshold; }
// Plies to the end for a decisive score (positive: we win).
constexpr int plies_to_end(Score s) { return s > 0 ? WinScore - s : -(WinScore + s); }

// The TT stores decisive scores relative to the node, not the root, so that an entry found
// at another ply still reports the right distance (adjusted by ply on store and load).
constexpr Score score_to_tt(Score s, int ply) {
    if (s >= WinThreshold) return s + ply;
    if (s <= -WinThreshold) return s - ply;
    return s;
}
constexpr Score score_from_tt(Score s, int ply) {
    if (s >= WinThreshold) return s - ply;
    if (s <= -WinThreshold) return s + ply;
    return s;
}

}  // namespace search
