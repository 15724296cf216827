// A computer analysis of a whole game, as lichess gives one for chess: the engine searches every
// position of the game at a fixed budget, each move is valued by how much it lowered its
// player's expected result against the engine's best move, and the moves that lowered it most
// are marked inaccuracies, mistakes and blunders. `loa analyze-game` writes the result as an
// annotated PGN (docs/commands.md#loa-analyze-game).
#pragma once

#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "common/search/limits.hpp"
#include "common/search/score.hpp"
#include "loa/game.hpp"
#include "loa/pgn.hpp"

namespace loa {

// The expected result (0..1) of a score for the side it is seen from: sigmoid(K * score), a
// decided game's 1 or 0. K: the logistic fitted to the default engine's own self-play (the
// score's log-loss against the games' results over 2.0 million positions of selfplay-59,
// data/nets/loa-net-3.json), so that a score says what the engine's games made of it.
inline constexpr double DefaultResultK = 0.0323;
double expected_result(search::Score score, double k = DefaultResultK);

// lichess's marks: a drop of the mover's winning chances (2 x expected result - 1, in -1..1) of
// at least 0.1, 0.2, 0.3: 5, 10 and 15 points of expected result.
enum class Judgement { None, Inaccuracy, Mistake, Blunder };
Judgement judge(double expected_drop);
std::string_view judgement_name(Judgement j);  // "Inaccuracy", ...; "" for None
std::string_view judgement_nag(Judgement j);   // PGN's NAG: "$6" (?!), "$2" (?), "$4" (??); "" for None

struct AnalysisSettings {
    std::string variant = "full";
    std::string eval;               // empty: the default evaluation
    search::SearchLimits limits;    // a position's budget: depth, nodes or hard_time_ms
    double k = DefaultResultK;
};

struct PlyAnalysis {
    Move played = Move::none();
    bool only_move = false;          // the mover had one legal move (or passed): never marked
    search::Score score = 0;         // the position before the move, from the mover's side
    Move best = Move::none();        // the engine's move there
    std::vector<Move> pv;            // and its line
    int depth = 0;
    search::Score score_after = 0;   // after the move, from the mover's side: minus the next
                                     // position's score, or the result if the move ended the game
    double expected_before = 0, expected_after = 0;  // the mover's expected result
    Judgement judgement = Judgement::None;
};

struct GameAnalysis {
    std::vector<PlyAnalysis> plies;
    std::uint64_t nodes = 0;
    double seconds = 0;
};

// Analyses every move of `game` (its start, moves and rules). `progress` (optional) is told
// after each position searched (done, of total). `settings.limits.stop`, once set, ends it with
// the plies done so far. Throws InputError on a bad evaluation or variant.
GameAnalysis analyse_game(const Game& game, const AnalysisSettings& settings,
                          const std::function<void(std::size_t done, std::size_t total)>& progress = {});

// The game as PGN with the analysis in it: the record's tags (and an Annotator tag naming the
// settings), every move followed by its NAG when marked and a comment holding the score after
// it from White's side as lichess writes it ([%eval 0.35], or [%eval #-3] for a win of Black
// in 3 of its moves; units of 100 centi-units), a marked move's comment naming the engine's
// move and its line as a variation. `record` supplies the tags, the opening mark and the
// termination comment (as loa-match writes them); `game` the moves.
void write_annotated_record(std::ostream& out, const ParsedRecord& record, const Game& game, const GameAnalysis& analysis,
                            const std::string& annotator);

// [%eval ...]'s value for a score seen from `side` (White's view, 100 centi-units a unit).
std::string eval_tag_value(search::Score score, Colour side);

}  // namespace loa
