// The evaluation weights file format: JSON round trips, partial files, and bad files refused.
#include <gtest/gtest.h>

#include "loa/error.hpp"
#include "loa/bench_positions.hpp"
#include "loa/evaluation.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "loa/symmetry.hpp"
#include "support/eval_features.hpp"

namespace loa {
namespace {

using loa::testing::feature;

TEST(EvalWeights, JsonRoundTripAndPartialFiles) {
    EvalWeights w = EvalWeights::full();
    w[Feature::Mobility] = 7;
    w.side_to_move = -3;
    EXPECT_EQ(parse_weights_json(weights_to_json(w)), w);
    const EvalWeights partial = parse_weights_json(R"({"walls": 55})");
    EXPECT_EQ(partial[Feature::Walls], 55);
    EXPECT_EQ(partial[Feature::Concentration], EvalWeights::full()[Feature::Concentration]);
}

TEST(EvalWeights, RejectsBadFilesNamingTheProblem) {
    auto message = [](const char* text) {
        try {
            (void)parse_weights_json(text);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(message(R"({"colour": 1})").find("unknown feature 'colour'"), std::string::npos);
    EXPECT_NE(message(R"({"walls": 1.5})").find("'walls' must be an integer"), std::string::npos);
    EXPECT_NE(message(R"({"walls": )").find("not valid JSON"), std::string::npos);
    EXPECT_NE(message("[1, 2]").find("expected a JSON object"), std::string::npos);
    // Found by fuzzing: a number too large for JSON parsing escaped as another exception type;
    // integers beyond an int were narrowed silently.
    EXPECT_NE(message("77777770000000003482879571E17046128").find("not valid JSON"), std::string::npos);
    EXPECT_NE(message(R"({"walls": 4294967297})").find("'walls' must be an integer within"), std::string::npos);
    EXPECT_NE(message(R"({"walls": -4294967297})").find("'walls' must be an integer within"), std::string::npos);
    EXPECT_NE(message(R"({"walls": 18446744073709551615})").find("'walls' must be an integer within"), std::string::npos);
    EXPECT_THROW(load_weights_file("/nonexistent/weights.json"), InputError);
}

TEST(EvalWeights, TaperedJsonRoundTripAndPartialEndgame) {
    EvalWeights w = EvalWeights::full();
    w.tapered = true;
    w.endgame = w.weight;
    w.endgame[static_cast<std::size_t>(Feature::Groups)] = -40;
    w.side_to_move = 4;
    EXPECT_EQ(parse_weights_json(weights_to_json(w)), w);
    // An endgame object naming one feature: the others keep their opening weight.
    const EvalWeights partial = parse_weights_json(R"({"mobility": 50, "endgame": {"quads": 30}})", EvalWeights::hand());
    EXPECT_TRUE(partial.tapered);
    EXPECT_EQ(partial[Feature::Mobility], 50);
    EXPECT_EQ(partial.endgame[static_cast<std::size_t>(Feature::Mobility)], 50);
    EXPECT_EQ(partial.endgame[static_cast<std::size_t>(Feature::Quads)], 30);
    EXPECT_EQ(partial[Feature::Quads], EvalWeights::hand()[Feature::Quads]);
    // Over the tapered default, an unnamed endgame weight keeps the default's endgame weight.
    const EvalWeights over_default = parse_weights_json(R"({"mobility": 50})");
    EXPECT_EQ(over_default[Feature::Mobility], 50);
    EXPECT_EQ(over_default.endgame, EvalWeights::full().endgame);
    // Untapered weights write no endgame object.
    EXPECT_EQ(weights_to_json(EvalWeights::hand()).find("endgame"), std::string::npos);
}

}  // namespace
}  // namespace loa
