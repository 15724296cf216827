// EngineOptions: option.NAME in an engine string is applied as `loa uci` applies it, or refused.
#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "common/error.hpp"
#include "loa/engine/session.hpp"
#include "matches/engine_spec.hpp"

namespace matches {
namespace {

// option.NAME of an engine in process sets what `loa uci` sets for the same option, or is
// refused with the reason: never dropped (issue 82). Every option the engine offers is tried,
// so that an option added to the engine and not to the runner fails here.
TEST(EngineOptions, EveryUciOptionOfTheEngineIsAppliedOrRefusedWithAReason) {
    const loa::engine::Session session;
    int applied = 0;
    for (const loa::engine::OptionInfo& o : session.options()) {
        const std::string value = o.value.empty() ? "<empty>" : o.value;
        if (value.find(',') != std::string::npos) continue;  // cannot be written in an engine string
        try {
            (void)parse_engine_spec(fmt::format("name=a,depth=1,option.{}={}", o.name, value), 0);
            ++applied;
        } catch (const common::InputError& e) {
            EXPECT_NE(std::string(e.what()).find("not an option of an engine in process"), std::string::npos) << o.name << ": " << e.what();
        }
    }
    EXPECT_GT(applied, 20);
}

TEST(EngineOptions, HashThreadsMultiPvEvalAndSwitchesApply) {
    const EngineSpec e = parse_engine_spec("name=a,depth=1,option.Hash=8,option.Threads=2,option.MultiPV=3,option.Eval=hce,"
                                           "option.lmr=false,option.MoveOverhead=20", 0);
    EXPECT_TRUE(e.config.tt);
    EXPECT_EQ(e.config.tt_mb, 8);
    EXPECT_EQ(e.config.threads, 2);
    EXPECT_EQ(e.multipv, 3);
    EXPECT_EQ(e.eval, "full");  // hce's one name
    EXPECT_FALSE(e.config.lmr);
    EXPECT_EQ(e.move_overhead_ms, 20);
    // The defaults, without options.
    const EngineSpec plain = parse_engine_spec("name=a,depth=1", 0);
    EXPECT_EQ(plain.config.tt_mb, 16);
    EXPECT_TRUE(plain.config.lmr);
}

TEST(EngineOptions, UnknownOrBadOptionsAreRefusedNamingThem) {
    auto message = [](const std::string& text) {
        try {
            (void)parse_engine_spec(text, 0);
        } catch (const common::InputError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(message("name=a,depth=1,option.Hahs=8").find("did you mean 'option.Hash'?"), std::string::npos);
    EXPECT_NE(message("name=a,depth=1,option.Hash=0").find("option.Hash: Hash must be 1..65536 MB, not '0'"), std::string::npos);
    EXPECT_NE(message("name=a,depth=1,option.lmr=maybe").find("option.lmr"), std::string::npos);
    EXPECT_NE(message("name=a,depth=1,option.Rules=codingame").find("--rules"), std::string::npos);
    // An external engine's options are its own: sent, not checked here.
    EXPECT_EQ(message("name=a,depth=1,cmd=./x,option.Anything=1"), "accepted");
}

}  // namespace
}  // namespace matches
