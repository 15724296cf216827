// EngineSpec: engine strings parsed, named time controls, and bad strings refused by name.
#include <gtest/gtest.h>

#include <string>

#include "common/error.hpp"
#include "common/search/config.hpp"
#include "matches/engine_spec.hpp"

namespace matches {
namespace {

TEST(EngineSpec, ParsesSearchAndEngineKeys) {
    const EngineSpec e = parse_engine_spec("name=rhh,preset=pvs+tt+rhh,killers=1,depth=3,eval=concentration", 0);
    EXPECT_EQ(e.name, "rhh");
    EXPECT_EQ(e.depth, 3);
    EXPECT_EQ(e.eval, "concentration");
    EXPECT_EQ(e.config.history, search::HistoryMode::Relative);
    EXPECT_EQ(e.config.killers, 1);
    EXPECT_FALSE(e.config.null_move != search::NullMove::Off);
    const EngineSpec t = parse_engine_spec("tc=10+0.1,history=absolute", 1);
    EXPECT_EQ(t.name, "engine2");
    EXPECT_DOUBLE_EQ(t.time_control->base_ms, 10000);
    EXPECT_DOUBLE_EQ(t.time_control->increment_ms, 100);
    EXPECT_TRUE(t.config.lmr);  // switches without a preset apply on top of `full`
    EXPECT_EQ(t.config.history, search::HistoryMode::Absolute);
    // No eval= given: the engine's default evaluation, the network (strength.md rows 21-22);
    // hce is recorded as full, the name state files written before the network hold.
    EXPECT_EQ(t.eval, "nnue");
    EXPECT_EQ(parse_engine_spec("depth=1,eval=hce", 0).eval, "full");
}

TEST(EngineSpec, RejectsBadStringsNamingTheProblem) {
    auto message = [](const char* text) {
        try {
            (void)parse_engine_spec(text, 0);
        } catch (const common::InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(message("name=a,depth=3,colour=red").find("unknown key 'colour'"), std::string::npos);
    EXPECT_NE(message("name=a").find("has no limit"), std::string::npos);
    EXPECT_NE(message("name=a,depth=x").find("bad depth"), std::string::npos);
    EXPECT_NE(message("name=a,st=-1").find("'st'"), std::string::npos);
    EXPECT_NE(message("name=a,depth=2,eval=magic").find("eval must be"), std::string::npos);
    // A network is read when the engine is given, so that a bad one fails before any game.
    EXPECT_EQ(message("name=a,depth=2,eval=" LOA_TEST_SOURCE_DIR "/data/nnue/test-h32.nnue"), "accepted");
    EXPECT_EQ(message("name=a,depth=2,eval=hce"), "accepted");
    EXPECT_EQ(parse_engine_spec("name=a,depth=2,eval=hce", 0).eval, "full");  // one name for the same engine
    // The files are read when a run starts (check_engine_files), not when its settings are read
    // back: a bad net fails then, by name.
    auto files_message = [](const std::string& text) {
        try {
            check_engine_files(parse_engine_spec(text, 0));
        } catch (const common::InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(files_message("name=a,depth=2,eval=" LOA_TEST_SOURCE_DIR "/data/nnue/test-h32.nnue"), "accepted");
    EXPECT_NE(files_message("name=a,depth=2,eval=/nonexistent/net.nnue").find("engine 'a': network file: cannot read"),
              std::string::npos);
    EXPECT_NE(files_message("name=a,depth=2,eval=" LOA_TEST_SOURCE_DIR "/data/nnue/test-h32.vectors.txt").find("eval must be"),
              std::string::npos);
    EXPECT_NE(files_message("name=a,depth=2,rps=/nonexistent/rps.json").find("engine 'a'"), std::string::npos);
    EXPECT_NE(message("name=a,cmd=/bin/true,proto=chess,depth=2").find("proto must be uci or gtp"), std::string::npos);
    EXPECT_NE(message("name=a,cmd=/bin/true,killers=2,depth=2").find("search keys apply to in-process engines"), std::string::npos);
    EXPECT_NE(message("name=a,cmd=/bin/true,proto=gtp,depth=2").find("GTP engines play with a clock"), std::string::npos);
}

TEST(EngineSpec, NamedTimeControlsAndTheirErrors) {
    const EngineSpec stc = parse_engine_spec("name=a,tc=stc", 0);
    EXPECT_DOUBLE_EQ(stc.time_control->base_ms, 5000);
    EXPECT_DOUBLE_EQ(stc.time_control->increment_ms, 50);
    EXPECT_EQ(stc.limit_text(), "tc=5+0.05");
    const TimeControl ltc = parse_time_control("ltc", "--tc");  // four times the short one
    EXPECT_DOUBLE_EQ(ltc.base_ms, 4 * stc.time_control->base_ms);
    EXPECT_DOUBLE_EQ(ltc.increment_ms, 4 * stc.time_control->increment_ms);
    EXPECT_DOUBLE_EQ(parse_time_control("7", "--tc").base_ms, 7000);
    EXPECT_DOUBLE_EQ(parse_time_control("7+0", "--tc").increment_ms, 0);
    for (const char* bad : {"fast", "0+1", "-5+0.1", "5+x", "5+-1", "inf", "nan+1", ""}) {
        try {
            (void)parse_time_control(bad, "--tc");
            ADD_FAILURE() << "accepted '" << bad << "'";
        } catch (const common::InputError& e) {
            EXPECT_NE(std::string(e.what()).find("--tc: tc must be stc, ltc or BASE+INC"), std::string::npos) << e.what();
        }
    }
    EXPECT_TRUE(has_limit("name=a,nodes=5"));
    EXPECT_TRUE(has_limit("st=1,preset=pvs"));
    EXPECT_FALSE(has_limit("name=a,preset=pvs,eval=simple"));
}

}  // namespace
}  // namespace matches
