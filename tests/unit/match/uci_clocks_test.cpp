// UciClocks: the clocks sent with each go to a UCI engine.
#include <gtest/gtest.h>

#include "matches/player.hpp"

namespace matches {
namespace {

// Both clocks in UCI's order, as cutechess and fastchess send them; an opponent off the clock
// has none to send.
TEST(UciClocks, BothClocksInEveryGo) {
    ClockState c;
    c.remaining_ms = 957;
    c.increment_ms = 10;
    c.opponent_on_clock = true;
    c.opponent_remaining_ms = 1000;
    c.opponent_increment_ms = 10;
    EXPECT_EQ(uci_clocks(/*black_to_move=*/true, c), " wtime 1000 btime 957 winc 10 binc 10");
    EXPECT_EQ(uci_clocks(/*black_to_move=*/false, c), " wtime 957 btime 1000 winc 10 binc 10");
    c.remaining_ms = -20;  // overran within the margin: no negative time on the wire
    EXPECT_EQ(uci_clocks(true, c), " wtime 1000 btime 0 winc 10 binc 10");
    c.opponent_on_clock = false;
    EXPECT_EQ(uci_clocks(false, c), " wtime 0 winc 10");
}

}  // namespace
}  // namespace matches
