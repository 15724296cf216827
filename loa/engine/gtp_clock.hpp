// The clocks a GTP engine plans its moves from. GTP's controller gives the control and may give
// each side's time left before a genmove (time_left); when it does not, the engine counts its
// own time from the control and what it has thought, so that a controller that never sends
// time_left cannot make it lose on time.
//
// Two controls:
//  - `time_settings <main> <increment>` (this engine's form, which the match runner sends):
//    main time, then the increment added after each move;
//  - `time_settings <main> <byo_yomi_time> <byo_yomi_stones>` (the GTP standard's Canadian
//    byo-yomi): main time, then periods of byo_yomi_time for byo_yomi_stones moves each. With
//    0 stones: absolute time when byo_yomi_time is 0, no time limit otherwise (as the standard
//    says; the engine then takes a second a move).
#pragma once

#include <algorithm>

#include "common/search/time_manager.hpp"

namespace loa::engine {

class GtpClocks {
public:
    void set_control(double main_ms, double increment_ms) {
        main_ms_ = main_ms;
        increment_ms_ = increment_ms;
        byo_ms_ = 0;
        byo_stones_ = 0;
        forget();
    }
    void set_byo_yomi(double main_ms, double byo_ms, int stones) {
        if (stones == 0 && byo_ms > 0) return set_control(-1, 0);  // the standard's "no time limits"
        set_control(main_ms, 0);
        byo_ms_ = byo_ms;
        byo_stones_ = stones;
    }
    // `stones` > 0: the side is in byo-yomi, with `ms` left for that many moves of its period;
    // 0: `ms` is its main time left.
    void set_time_left(int side, double ms, int stones = 0) {
        left_ms_[side] = ms;
        stones_left_[side] = byo_stones_ > 0 ? stones : 0;
    }
    // A new game: the control's main time again.
    void forget() {
        left_ms_[0] = left_ms_[1] = -1;
        stones_left_[0] = stones_left_[1] = 0;
    }

    // What `side` may spend on its next move.
    search::ClockLimits plan(int side) const {
        search::ClockLimits clock;
        if (byo_stones_ > 0) {
            if (stones_left_[side] > 0) {  // in a period: its time for its moves
                clock.time_left_ms = std::max(0.0, left_ms_[side]);
                clock.moves_to_go = stones_left_[side];
            } else {
                // Main time; a move that runs past it goes on in a fresh period.
                const double main_left = left_ms_[side] >= 0 ? left_ms_[side] : main_ms_;
                clock.time_left_ms = main_left + byo_ms_;
                if (main_left <= 0) clock.moves_to_go = byo_stones_;
            }
        } else if (left_ms_[side] >= 0 || main_ms_ > 0) {
            clock.time_left_ms = left_ms_[side] >= 0 ? left_ms_[side] : main_ms_;
            clock.increment_ms = increment_ms_;
        } else if (main_ms_ == 0 && increment_ms_ > 0) {
            clock.move_time_ms = increment_ms_;  // no main time: the increment is all a move has
        } else {
            clock.move_time_ms = 1000;  // no control given: a second a move
        }
        return clock;
    }

    // `side` moved after thinking `elapsed_ms` on `plan`: its clock until the controller says
    // otherwise.
    void moved(int side, const search::ClockLimits& plan, double elapsed_ms) {
        if (plan.time_left_ms < 0) return;
        if (byo_stones_ == 0) {
            left_ms_[side] = std::max(0.0, plan.time_left_ms - elapsed_ms) + increment_ms_;
            return;
        }
        if (stones_left_[side] > 0) {  // a move of the period
            left_ms_[side] = std::max(0.0, left_ms_[side] - elapsed_ms);
            --stones_left_[side];
        } else {
            const double main_left = left_ms_[side] >= 0 ? left_ms_[side] : main_ms_;
            if (elapsed_ms < main_left) {
                left_ms_[side] = main_left - elapsed_ms;
                return;
            }
            // Main time ran out during the move: the rest came from a period, the move its first.
            left_ms_[side] = std::max(0.0, byo_ms_ - (elapsed_ms - main_left));
            stones_left_[side] = byo_stones_ - 1;
        }
        if (stones_left_[side] == 0) {  // the period's moves are made: a fresh period
            left_ms_[side] = byo_ms_;
            stones_left_[side] = byo_stones_;
        }
    }

private:
    double main_ms_ = -1, increment_ms_ = 0, byo_ms_ = 0;
    int byo_stones_ = 0;
    double left_ms_[2] = {-1, -1};
    int stones_left_[2] = {0, 0};  // > 0: in byo-yomi, moves left in the period
};

}  // namespace loa::engine
