// What the search core asks of Lines of Action apart from the evaluation: moves, keys, the
// rules' verdicts, ordering knowledge, null moves and extensions. SearchGame (search_game.hpp)
// adds the engine's evaluations to it; the CodinGame bot's game (loa/codingame/net_game.hpp)
// adds the network alone, so that the bot carries no other evaluation.
#pragma once

#include <cstdint>

#include "common/search/game.hpp"
#include "loa/connectivity.hpp"
#include "loa/movegen.hpp"
#include "loa/phase.hpp"
#include "loa/rules.hpp"
#include "loa/simple_eval.hpp"

namespace loa {

class SearchRules {
public:
    using Position = loa::Position;
    using Move = loa::Move;
    using MoveList = loa::MoveList;
    static constexpr int MoveIndexCount = 2 * FromToCount;  // per side to move
    static constexpr int MaxPhase = loa::MaxPhase;           // search::PhasedGame: all 24 pieces

    explicit SearchRules(RuleSet rules = {}) : rules_(rules) {}

    const RuleSet& rules() const { return rules_; }
    // The same evaluation under other rules: the engine's Rules option changes without its
    // evaluation's files being read again.
    void set_rules(RuleSet rules) { rules_ = rules; }

    void generate(const Position& pos, MoveList& moves) const { generate_moves(pos, moves); }
    // Quiescence moves are captures at every level (is_quiescence_move): search::has_capture_generator.
    void generate_captures(const Position& pos, MoveList& moves) const { loa::generate_captures(pos, moves); }
    std::uint64_t key(const Position& pos) const { return pos.key(); }

    search::Status status(const Position& pos) const {
        const GameResult r = connection_result(pos, rules_);
        if (r.over()) {
            if (r.outcome == Outcome::Draw) return search::Status::Draw;
            return r.outcome == win_for(pos.side_to_move()) ? search::Status::Win : search::Status::Loss;
        }
        if (rules_.no_move != NoMoveRule::Pass && !has_real_move(pos))
            return rules_.no_move == NoMoveRule::Lose ? search::Status::Loss : search::Status::Draw;
        return search::Status::Ongoing;
    }
    bool repetition_draws() const { return rules_.repetition_draw; }

    // The tapered evaluation's phase, clamp(pieces - 4, 0, 20): frontier margins taper with it.
    int phase(const Position& pos) const { return game_phase(pos); }

    // Level 1: every capture. Level 2 (MIA's rule): captures that create or break quads,
    // i.e. change either side's Euler numerator.
    bool is_quiescence_move(const Position& pos, Move m, int level) const {
        if (!m.is_capture()) return false;
        if (level <= 1) return true;
        Position after = pos;
        after.make(m);
        return after.euler_numerator(Colour::Black) != pos.euler_numerator(Colour::Black) ||
               after.euler_numerator(Colour::White) != pos.euler_numerator(Colour::White);
    }

    bool is_capture(Move m) const { return m.is_capture(); }
    // Captures that take a well-linked enemy piece, landing centrally, first.
    int capture_order(const Position& pos, Move m) const {
        const Bitboard around = neighbours(square_bb(m.to()));
        return 16 * popcount(around & pos.pieces(~pos.side_to_move())) + CentralisationTable[static_cast<std::size_t>(m.to())];
    }
    bool is_irreversible(Move m) const { return m.is_capture(); }
    int move_index(const Position& pos, Move m) const { return index(pos.side_to_move()) * FromToCount + m.from_to(); }

    Move null_move() const { return Move::pass(); }
    bool null_move_allowed(const Position& pos) const { return has_real_move(pos); }

    // One ply more when the move leaves its side two groups: one move from a possible win.
    int extension(const Position& pos, Move) const { return threatened(pos) ? 1 : 0; }
    // The side to move may lose on the next move: the opponent is two groups (one is the end).
    // An approximation: three groups, one a single piece, can also connect in a move.
    bool threatened(const Position& pos) const { return count_groups(pos.pieces(~pos.side_to_move())) == 2; }

private:
    RuleSet rules_;
};

// Reverse futility and late move pruning stand aside at threats only if the search sees the hook.
static_assert(search::has_threat<SearchRules>);
// Quiescence search skips the quiet moves only if it sees the capture generator.
static_assert(search::has_capture_generator<SearchRules>);

}  // namespace loa
