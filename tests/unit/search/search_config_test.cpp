// Variant strings: presets, overrides, canonical round trip, and errors naming the key.
#include <gtest/gtest.h>

#include "common/error.hpp"
#include "common/variant/config.hpp"

namespace {

using namespace search;
using namespace variant;

TEST(VariantConfig, AbIsPlainIterativeDeepeningAlphaBeta) {
    const VariantConfig c = preset_variant("ab");
    EXPECT_FALSE(c.pvs);
    EXPECT_FALSE(c.aspiration);
    EXPECT_FALSE(c.tt);
    EXPECT_EQ(c.killers, 0);
    EXPECT_EQ(c.history, HistoryMode::None);
    EXPECT_FALSE(c.refutation);
    EXPECT_FALSE(c.captures_first);
    EXPECT_EQ(c.null_move, NullMove::Off);
    EXPECT_FALSE(c.lmr);
    EXPECT_FALSE(c.extensions);
}

TEST(VariantConfig, PresetsTurnOnExactlyWhatTheirNameSays) {
    VariantConfig expected = preset_variant("ab");
    expected.pvs = true;
    expected.tt = true;
    expected.history = HistoryMode::Relative;
    expected.preset = "pvs+tt+rhh";
    EXPECT_EQ(preset_variant("pvs+tt+rhh"), expected);
    expected.history = HistoryMode::Absolute;
    expected.preset = "pvs+tt+hh";
    EXPECT_EQ(preset_variant("pvs+tt+hh"), expected);
    const VariantConfig full = preset_variant("full");
    EXPECT_TRUE(full.pvs && full.aspiration && full.tt && full.lmr && full.captures_first);
    EXPECT_EQ(full.killers, 2);
    EXPECT_EQ(full.history, HistoryMode::Relative);
    EXPECT_EQ(full.null_move, NullMove::Adaptive);
    // The frontier trio is in `full` with its standard (`on`) margins, and in no other preset.
    const VariantConfig frontier = parse_variant("ab,futility=on,ext_futility=on,razoring=on");
    EXPECT_TRUE(frontier.futility_margin.on() && frontier.ext_futility_margin.on() && frontier.razor_margin.on());
    EXPECT_EQ(full.futility_margin, frontier.futility_margin);
    EXPECT_EQ(full.ext_futility_margin, frontier.ext_futility_margin);
    EXPECT_EQ(full.razor_margin, frontier.razor_margin);
    EXPECT_EQ(preset_variant("ab+frontier").razor_margin, frontier.razor_margin);
    EXPECT_FALSE(preset_variant("pvs+asp+tt+killers+rhh+caps+null+lmr").futility_margin.on());
    // Without the trio, `full` is the eight classic enhancements with the numbers SPSA tuned.
    VariantConfig full_without_frontier = parse_variant("full,futility=off,ext_futility=off,razoring=off");
    full_without_frontier.preset = "pvs+asp+tt+killers+rhh+caps+null+lmr+tuned";  // informational only
    EXPECT_EQ(full_without_frontier, preset_variant("pvs+asp+tt+killers+rhh+caps+null+lmr+tuned"));
    // `tuned` moves numbers only, and no other preset has them: with the values every preset
    // starts from written back, pvs+asp+lmr+tuned is pvs+asp+lmr.
    EXPECT_NE(preset_variant("pvs+asp+lmr+tuned"), preset_variant("pvs+asp+lmr"));
    VariantConfig untuned = parse_variant(
        "pvs+asp+lmr+tuned,lmr_min_depth=3,lmr_min_moves=3,lmr_deep_depth=6,lmr_deep_moves=3,aspiration=50,tm_start=60,"
        "tm_max=400,tm_stable=60");
    untuned.preset = "pvs+asp+lmr";
    EXPECT_EQ(untuned, preset_variant("pvs+asp+lmr"));
    // The horizon treatment is the same in every preset.
    for (const char* p : {"ab", "pvs", "pvs+tt", "pvs+tt+killers", "pvs+tt+hh", "pvs+tt+rhh", "full"})
        EXPECT_EQ(preset_variant(p).qsearch, preset_variant("ab").qsearch) << p;
}

TEST(VariantConfig, OverridesApplyOnTopOfThePresetWhateverTheOrder) {
    const VariantConfig c = parse_variant("killers=3,preset=pvs+tt,history=relative,hh_inc=1,bf_inc=d2,null=adaptive");
    EXPECT_TRUE(c.pvs);
    EXPECT_TRUE(c.tt);
    EXPECT_EQ(c.killers, 3);
    EXPECT_EQ(c.history, HistoryMode::Relative);
    EXPECT_EQ(c.hh_increment(), Increment::One);
    EXPECT_EQ(c.bf_increment(), Increment::DepthSquared);
    EXPECT_EQ(c.null_move, NullMove::Adaptive);
    const VariantConfig d = parse_variant("preset=ab,tt=64,aspiration=35,null=3,qsearch=quads,tt_replace=always");
    EXPECT_EQ(d.tt_mb, 64);
    EXPECT_EQ(d.aspiration_window, 35);
    EXPECT_EQ(d.null_move, NullMove::Fixed);
    EXPECT_EQ(d.null_r, 3);
    EXPECT_EQ(d.qsearch, 2);
    EXPECT_EQ(d.tt_replace, TTReplace::Always);
}

TEST(VariantConfig, HistoryIncrementDefaultsFollowThePapers) {
    EXPECT_EQ(preset_variant("hh").hh_increment(), Increment::TwoPowDepth);  // Schaeffer
    EXPECT_EQ(preset_variant("rhh").hh_increment(), Increment::One);         // Winands et al.
    EXPECT_EQ(preset_variant("rhh").bf_increment(), Increment::One);
}

TEST(VariantConfig, CanonicalTextRoundTrips) {
    for (const char* spec : {"preset=full", "preset=ab", "preset=pvs+tt+hh,hh_inc=d,tt_replace=depth",
                             "preset=pvs,null=2,null_verify=on,lmr=on,lmr_min_depth=4,qsearch=off,rhh_update=cutnodes",
                             "full,futility=on,ext_futility=250,razoring=off,multicut=on,mc_cuts=2,threads=3,timeman=tournament",
                             "full,multicut=on,mc_types=alternate",
                             "pvs+tt+killers+rhh,qs_order=history", "full,solver=50000", "full,solver=50000,solver_score=-150",
                             "full,futility=120:240,ext_futility=on,razoring=500:900"}) {
        const VariantConfig c = parse_variant(spec);
        const std::string text = to_string(c);
        EXPECT_EQ(to_string(parse_variant(text)), text) << spec;
        EXPECT_EQ(parse_variant(text).history, c.history);
        EXPECT_EQ(parse_variant(text).qs_order, c.qs_order) << text;
        EXPECT_EQ(parse_variant(text).mc_types, c.mc_types) << text;
        EXPECT_EQ(parse_variant(text).solver_score, c.solver_score) << text;
    }
    const VariantConfig s = parse_variant("full,futility=120:240,ext_futility=250,razoring=off,multicut=on,mc_moves=6,threads=3,timeman=tournament");
    EXPECT_EQ(s.futility_margin, (TaperedMargin{120, 240}));
    EXPECT_EQ(s.ext_futility_margin, TaperedMargin::constant(250));
    EXPECT_FALSE(s.razor_margin.on());
    EXPECT_EQ(to_string(s.futility_margin), "120:240");
    EXPECT_EQ(to_string(s.ext_futility_margin), "250");
    EXPECT_EQ(to_string(s.razor_margin), "off");
    EXPECT_TRUE(parse_variant("futility=on").futility_margin.on());
    EXPECT_TRUE(s.multicut);
    EXPECT_EQ(s.mc_moves, 6);
    EXPECT_EQ(s.mc_types, McTypes::Retype);
    EXPECT_EQ(parse_variant("full,mc_types=alternate").mc_types, McTypes::Alternate);
    EXPECT_EQ(s.threads, 3);
    EXPECT_EQ(s.timeman, TimePolicy::Tournament);
    EXPECT_EQ(s.qs_order, QsOrder::Captures);
    EXPECT_EQ(parse_variant("rhh,qs_order=history").qs_order, QsOrder::History);
    EXPECT_EQ(parse_variant("full,solver=50000").solver_nodes, 50000);
    EXPECT_EQ(parse_variant("full,solver=50000,solver=off").solver_nodes, 0);
    EXPECT_EQ(parse_variant("full,solver=0").solver_nodes, 0);
    EXPECT_EQ(parse_variant("full").solver_nodes, 0);
    EXPECT_EQ(parse_variant("full,solver=1000,solver_score=200").solver_score, 200);
    EXPECT_EQ(parse_variant("full,solver_score=-30000,solver=1000").solver_score, -30000);
    EXPECT_FALSE(parse_variant("full,solver=1000,solver_score=200,solver_score=off").solver_score);
    EXPECT_FALSE(parse_variant("full,solver_score=off").solver_score);
    EXPECT_FALSE(parse_variant("full").solver_score);
}

TEST(VariantConfig, RejectsBadSelectiveAndResourceValues) {
    for (const char* spec : {"full,futility=-5", "full,razoring=maybe", "full,futility=0:5", "full,futility=5:0",
                             "full,futility=5:", "full,futility=:5", "full,futility=1:2:3", "full,razoring=10001",
                             "full,ext_futility=50:10001", "full,mc_cuts=0", "full,threads=0", "full,threads=65",
                             "full,timeman=fast", "full,multicut=2", "full,qs_order=mvv", "full,mc_types=pv",
                             "full,solver=-1", "full,solver=on", "full,solver=10000001", "full,solver_score=on",
                             "full,solver_score=30001", "full,solver_score=-30001", "full,solver_score=2.5"})
        EXPECT_THROW(parse_variant(spec), common::InputError) << spec;
}

void expect_error(const char* spec, const char* fragment) {
    try {
        (void)parse_variant(spec);
        ADD_FAILURE() << "accepted: " << spec;
    } catch (const common::InputError& e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
}

TEST(VariantConfig, RejectsUnknownKeysAndBadValuesNamingThem) {
    expect_error("preset=pvs,colour=red", "unknown key 'colour'");
    expect_error("preset=pvs,histroy=relative", "unknown key 'histroy'; did you mean 'history'?");
    expect_error("full,multicut=on,mc_moves=2,mc_cuts=3", "mc_cuts (3) must not exceed mc_moves (2)");
    expect_error("preset=pvs+xyz", "unknown preset token 'xyz'");
    // A key that also takes words names them with its range; a gate without its solver is refused.
    expect_error("full,solver=lots", "expected off or an integer in 0..10000000");
    expect_error("full,solver=1000,solver_score=on", "expected off or an integer in -30000..30000");
    expect_error("full,aspiration=wide", "expected on, off or an integer in 1..10000");
    expect_error("full,solver_score=50", "solver_score gates the solver, which is off");
    expect_error("full,solver=30000,solver_score=50,solver=off", "solver_score gates the solver, which is off");
    expect_error("killers=99", "'killers'");
    expect_error("history=sometimes", "'history'");
    expect_error("hh_inc=3", "'hh_inc'");
    expect_error("null=4", "'null'");
    expect_error("tt=lots", "'tt'");
    expect_error("pvs=maybe", "'pvs'");
    expect_error("qsearch=all", "'qsearch'");
    expect_error("pvs=", "missing value for 'pvs'");
    expect_error("pvs+tt+nonsense", "unknown preset token 'nonsense'");
}

TEST(VariantConfig, ABareItemNamesThePreset) {
    EXPECT_EQ(parse_variant("pvs+tt"), preset_variant("pvs+tt"));
    EXPECT_EQ(parse_variant("killers=1,pvs").killers, 1);
    EXPECT_TRUE(parse_variant("killers=1,pvs").pvs);
}

TEST(VariantConfig, ForeignKeysAreLeftToTheCaller) {
    VariantConfig c;
    EXPECT_FALSE(apply_variant_key(c, "depth", "6"));
    EXPECT_TRUE(apply_variant_key(c, "killers", "1"));
    EXPECT_EQ(c.killers, 1);
}

}  // namespace
