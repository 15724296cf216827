// The engine session reads its NNUE file once, when the option is set.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "common/fnv1a.hpp"
#include "common/text.hpp"
#include "loa/searchers.hpp"
#include "loa/engine/session.hpp"
#include "loa/movegen.hpp"
#include "loa/position_text.hpp"
#include "loa/nnue/accumulator.hpp"
#include "loa/nnue/connectivity_inputs.hpp"
#include "loa/nnue/features.hpp"
#include "loa/nnue/layers.hpp"
#include "loa/nnue/network.hpp"
#include "loa/nnue/shipped.hpp"
#include "loa/search_game.hpp"
#include "loa/symmetry.hpp"
#include "support/nnue_nets.hpp"

namespace loa::nnue {
namespace {

using loa::testing::random_network;

// The engine reads its evaluation's file when the option is set, once: the searchers it builds
// later (after a change of rules or variant, after its tables were released) copy what was
// read, so that a file changed or removed afterwards changes no search and fails none.
TEST(NnueSession, TheNetworkFileIsReadOnceWhenItsOptionIsSet) {
    const auto path = std::filesystem::temp_directory_path() / ("loa-nnue-session-" + std::to_string(::getpid()) + ".nnue");
    {
        std::ofstream out(path, std::ios::binary);
        out << serialize_network(random_network(11));
    }
    engine::Session session;
    session.set_option("Eval", path.string());
    Game game;
    game.play("b1-d3");
    session.set_game(game);
    search::ClockLimits clock;
    clock.depth = 4;
    const auto before = session.think(clock);
    engine::Session reference;  // the same file, read by a session of its own
    reference.set_option("Eval", path.string());
    reference.set_game(game);
    const auto expected = reference.think(clock);
    EXPECT_EQ(before.score, expected.score);
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << serialize_network(random_network(12));  // rewritten in place: another net
    }
    session.release();
    session.set_option("Rules", "olympiad");  // a new game at the start position: set ours again
    session.set_option("Variant", "full");
    session.set_game(game);
    const auto after = session.think(clock);
    EXPECT_EQ(after.score, expected.score);
    EXPECT_EQ(after.best_move, expected.best_move);
    std::filesystem::remove(path);
    session.release();
    EXPECT_EQ(session.think(clock).score, expected.score);
    EXPECT_THROW(session.set_option("Eval", path.string()), common::InputError);  // gone: refused when set
    EXPECT_EQ(session.think(clock).score, expected.score);  // and the last good one stays
}

}  // namespace
}  // namespace loa::nnue
