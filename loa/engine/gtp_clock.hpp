// The clocks a GTP engine plans its moves from. GTP's controller gives the control
// (time_settings <main> <increment>) and may give each side's time left before a genmove
// (time_left); when it does not, the engine counts its own time from the control and what
// it has thought, so that a controller that never sends time_left cannot make it lose on time.
#pragma once

#include <algorithm>

#include "common/search/time_manager.hpp"

namespace loa::engine {

class GtpClocks {
public:
    void set_control(double main_ms, double increment_ms) {
        main_ms_ = main_ms;
        increment_ms_ = increment_ms;
        forget();
    }
    void set_time_left(int side, double ms) { left_ms_[side] = ms; }
    // A new game: the control's main time again.
    void forget() { left_ms_[0] = left_ms_[1] = -1; }

    // What `side` may spend on its next move.
    search::ClockLimits plan(int side) const {
        search::ClockLimits clock;
        if (left_ms_[side] >= 0 || main_ms_ > 0) {
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
        if (plan.time_left_ms >= 0) left_ms_[side] = std::max(0.0, plan.time_left_ms - elapsed_ms) + increment_ms_;
    }

private:
    double main_ms_ = -1, increment_ms_ = 0;
    double left_ms_[2] = {-1, -1};
};

}  // namespace loa::engine
