// Plot: gnuplot's quoting, and a gauntlet's plot row read from the variant's side.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "matches/engine_spec.hpp"
#include "matches/match.hpp"
#include "matches/plot.hpp"
#include "matches/stats.hpp"
#include "support/small_match.hpp"

namespace matches {
namespace {

using fixtures::small_match;

TEST(Plot, GnuplotStringsDoubleTheirQuotes) {
    EXPECT_EQ(gnuplot_string("plain"), "'plain'");
    EXPECT_EQ(gnuplot_string("it's a/b.png"), "'it''s a/b.png'");
    EXPECT_EQ(gnuplot_string(""), "''");
}

TEST(Plot, AGauntletRowReadsFromTheVariantsSideWithTheSummarysInterval) {
    // A weak variant against a strong base: its row says "weak vs strong" with a negative Elo,
    // and the interval is the pentanomial one the summary prints, mirrored.
    MatchSettings s = small_match(2);
    s.format = Format::Gauntlet;
    s.engines = {parse_engine_spec("name=strong,preset=full,nodes=300,tt=1", 0), parse_engine_spec("name=weak,preset=ab,depth=1,eval=material", 1),
                 parse_engine_spec("name=other,preset=full,nodes=300,tt=1", 2)};
    s.games = 6;
    const MatchResult r = run_match(s, {});
    const auto png = std::filesystem::temp_directory_path() / "loa-gauntlet-plot-test.png";
    write_plot(s, r, png.string());
    std::ifstream data(png.string() + ".dat");
    const std::string text((std::istreambuf_iterator<char>(data)), std::istreambuf_iterator<char>());
    const EloEstimate e = estimate(r.pairings[0].pairs, r.pairings[0].games);
    ASSERT_GT(e.elo, 0);
    EXPECT_NE(text.find(fmt::format("{:.2f} {:.2f} {:.2f} 6 \"weak vs strong (6 games)\"", -std::min(e.elo, 800.0),
                                    -std::min(e.elo_high, 800.0), -std::min(e.elo_low, 800.0))),
              std::string::npos)
        << text;
    std::ifstream script(png.string() + ".gp");
    const std::string gp((std::istreambuf_iterator<char>(script)), std::istreambuf_iterator<char>());
    EXPECT_NE(gp.find("against the base"), std::string::npos) << gp;
    for (const auto& f : {png.string(), png.string() + ".gp", png.string() + ".dat"}) std::filesystem::remove(f);
}

}  // namespace
}  // namespace matches
