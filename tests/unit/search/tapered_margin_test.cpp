// Tapered margins run from the opening value to the endgame value.
#include <gtest/gtest.h>

#include "common/search/frontier.hpp"
#include "common/search/margin_probe.hpp"
#include "common/search/node_type.hpp"
#include "common/search/search.hpp"

namespace {

TEST(TaperedMargin, RunsFromTheOpeningToTheEndgameValue) {
    constexpr search::TaperedMargin m{100, 300};
    static_assert(m.at(20, 20) == 100 && m.at(0, 20) == 300 && m.at(10, 20) == 200 && m.at(15, 20) == 150);
    static_assert(search::TaperedMargin::constant(70).at(3, 20) == 70);
    static_assert(!search::TaperedMargin{}.on() && m.on());
}

}  // namespace
