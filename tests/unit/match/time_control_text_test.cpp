// TimeControlText: time controls written with a minutes:seconds base.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "matches/engine_spec.hpp"

namespace matches {
namespace {

// cutechess's M:SS base and every spelling of a time control.
TEST(TimeControlText, MinutesAndSeconds) {
    EXPECT_EQ(parse_time_control("1:30+1", "tc").base_ms, 90000);
    EXPECT_EQ(parse_time_control("1:30+1", "tc").increment_ms, 1000);
    EXPECT_EQ(parse_time_control("0:05", "tc").base_ms, 5000);
    EXPECT_THROW(parse_time_control("1:75+1", "tc"), common::InputError);
    EXPECT_THROW(parse_time_control("x:10", "tc"), common::InputError);
}

}  // namespace
}  // namespace matches
