// The CodinGame arena's protocol (its LOA referee). First line: our colour. Each turn: 8
// board lines (rank 8 first; b, w, .), the opponent's last move (b1b3, null or pass), the
// number of legal moves and the moves; we answer with one move (b1b3) or pass. The referee
// allows 1000 ms for the first turn and 150 ms after, and judges by its own rules: the mover is
// checked first (a move connecting both sides wins for it), no repetition rule, a draw after
// 150 turns in all. Those are the default rules here; the turns seen tell the search how many
// plies are left.
//
// Two players speak it: `loa codingame` (the engine's session, engine/codingame.cpp) and the
// one-file bot the arena runs (loa/codingame/bot.cpp). This loop is theirs: they differ only
// in how they think.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

#include "loa/move.hpp"
#include "loa/position.hpp"

namespace loa::engine {

// The arena's limits, and what we keep of them (its servers are slower than a desktop).
struct CodinGameSettings {
    std::string rules = "codingame";
    std::string eval;                            // `loa codingame --eval`; empty: the engine's default
    double first_turn_ms = 1000, turn_ms = 150;  // the referee's limits
    double margin_percent = 20;                  // of each limit, kept back
    double overhead_ms = 20;                     // start-up before main, answering, the referee reading it
    std::uint64_t node_cap = 0;                  // > 0: every search stops at this many nodes (fuzzers)
};

// One turn to think about: the board (our side to move), the plies played before it (Black
// moves first: before our turn t, 2t plies, one more when we are White; the referee's rules
// count them towards their limit), and the time the search may take.
struct CodinGameTurn {
    Position position;
    int plies_before = 0;
    double move_time_ms = 0;
};

// Plays the protocol on `in`/`out` until the input ends: `think` is asked for each turn's move
// (a move the referee did not offer is replaced by its first, and said on `log`). `ready` runs
// once our colour is known, before the first turn (building tables then is charged to the
// first turn, whose clock runs from the colour line). Returns 0 at the end of input, 2 on
// malformed input (said on `log`). Boards with more than 12 pieces a side are malformed: no
// game reaches one, and the network is not sized for it.
int play_codingame(std::istream& in, std::ostream& out, std::ostream& log, const CodinGameSettings& settings,
                   const std::function<void(Colour us)>& ready, const std::function<Move(const CodinGameTurn&)>& think);

}  // namespace loa::engine
