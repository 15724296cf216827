// TreeSize: tree-size runs: variants, agreeing scores, reproducibility, plots, merged shards.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "common/error.hpp"
#include "matches/treesize.hpp"

namespace matches {
namespace {

TEST(TreeSize, BootstrapIntervalOfTheRatio) {
    const std::vector<double> a = {10, 20, 30, 40}, b = {20, 40, 60, 80};
    const auto [low, high] = bootstrap_ratio(a, b, 500, 1);
    EXPECT_DOUBLE_EQ(low, 0.5);  // every resample has the same ratio
    EXPECT_DOUBLE_EQ(high, 0.5);
    const std::vector<double> c = {10, 90, 30, 70}, d = {20, 20, 60, 60};
    const auto [lo, hi] = bootstrap_ratio(c, d, 2000, 2);
    EXPECT_LT(lo, 200.0 / 160.0);
    EXPECT_GT(hi, 200.0 / 160.0);
    EXPECT_LT(lo, hi);
}

TEST(TreeSize, StudiesHaveTheirVariants) {
    EXPECT_EQ(study_variants("history").size(), 56u);  // 4 bases x (none + 4 HH + BF + 8 RHH)
    EXPECT_EQ(study_variants("history-tt").size(), 28u);
    const auto combos = study_variants("combinations");
    EXPECT_EQ(combos.size(), 64u);
    EXPECT_EQ(combos.front().name, "ab");
    EXPECT_TRUE(combos.front().ordering_only());
    EXPECT_FALSE(combos.back().ordering_only());  // it has the TT
    EXPECT_THROW(study_variants("nonsense"), common::InputError);
}

// A variant is ordering-only (its scores must equal minimax's) only without every switch that
// prunes or reduces: the frontier trio of `full` included.
TEST(TreeSize, SelectiveSwitchesAreNotOrderingOnly) {
    EXPECT_TRUE(parse_tree_variant("name=x,preset=pvs+killers+rhh+caps,aspiration=off").ordering_only());
    EXPECT_FALSE(parse_tree_variant("name=x,preset=full,tt=off,null=off,lmr=off").ordering_only());
    EXPECT_TRUE(parse_tree_variant("name=x,preset=full,tt=off,null=off,lmr=off,futility=off,ext_futility=off,razoring=off")
                    .ordering_only());
    for (const char* selective : {"futility=on", "ext_futility=on", "razoring=on", "multicut=on"})
        EXPECT_FALSE(parse_tree_variant(std::string("name=x,preset=pvs+killers,") + selective).ordering_only()) << selective;
}

TEST(TreeSize, OrderingOnlyVariantsAgreeOnEveryScoreAndTheRunIsReproducible) {
    TreeSizeSettings s;
    s.positions = load_positions(LOA_DATA_DIR "/treesize-positions.txt");
    ASSERT_GE(s.positions.size(), 200u);
    std::set<loa::Key> distinct;
    for (const auto& p : s.positions) distinct.insert(p.key());
    EXPECT_EQ(distinct.size(), s.positions.size());
    s.positions.resize(6);
    for (const char* v : {"name=ab,preset=ab", "pvs+killers", "pvs+hh", "pvs+rhh,rhh_update=cutnodes", "pvs+asp+ref+caps"})
        s.variants.push_back(parse_tree_variant(v));
    s.max_depth = 3;
    s.concurrency = 2;
    s.bootstrap_samples = 100;
    const TreeSizeResult r = run_treesize(s, false);
    for (std::size_t v = 1; v < s.variants.size(); ++v)
        for (std::size_t p = 0; p < s.positions.size(); ++p) EXPECT_EQ(r.runs[v][p].scores, r.runs[0][p].scores) << s.variants[v].name;
    const std::string table = treesize_table(s, r);
    EXPECT_EQ(table.find("ERROR"), std::string::npos) << table;
    EXPECT_NE(table.find("identical (required)"), std::string::npos);
    s.concurrency = 1;
    const TreeSizeResult again = run_treesize(s, false);
    for (std::size_t v = 0; v < s.variants.size(); ++v)
        for (std::size_t p = 0; p < s.positions.size(); ++p) EXPECT_EQ(again.runs[v][p].nodes, r.runs[v][p].nodes);
    const std::string csv = treesize_csv(s, r);
    EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 5 * 6 * 3);

    // Quiescence nodes are part of the count at every depth, and the full-width ratio leaves
    // them out of both sides.
    const auto json = nlohmann::json::parse(treesize_json(s, r));
    for (int depth = 1; depth <= 3; ++depth) {
        const auto d = static_cast<std::size_t>(depth - 1);
        double base_full_width = 0;
        for (std::size_t p = 0; p < s.positions.size(); ++p) {
            for (std::size_t v = 0; v < s.variants.size(); ++v) EXPECT_LT(r.runs[v][p].qnodes[d], r.runs[v][p].nodes[d]);
            base_full_width += static_cast<double>(r.runs[0][p].nodes[d] - r.runs[0][p].qnodes[d]);
        }
        const auto& rows = json["depths"][d]["variants"];
        EXPECT_DOUBLE_EQ(rows[0]["full_width_ratio"].get<double>(), 1.0);
        for (std::size_t v = 0; v < s.variants.size(); ++v) {
            double full_width = 0;
            for (std::size_t p = 0; p < s.positions.size(); ++p)
                full_width += static_cast<double>(r.runs[v][p].nodes[d] - r.runs[v][p].qnodes[d]);
            EXPECT_NEAR(rows[v]["full_width_ratio"].get<double>(), full_width / base_full_width, 1e-12);
            EXPECT_GT(rows[v]["qnodes"].get<double>(), 0);
        }
    }
}

TEST(TreeSize, PlotDrawsNodesAndRatiosEvenWithQuotesInNames) {
    TreeSizeSettings s;
    s.positions = load_positions(LOA_DATA_DIR "/treesize-positions.txt");
    s.positions.resize(2);
    s.variants = {parse_tree_variant("name=it's plain,preset=pvs"), parse_tree_variant("name=hh,preset=pvs+hh")};
    s.max_depth = 2;
    s.bootstrap_samples = 10;
    const TreeSizeResult r = run_treesize(s, false);
    const auto png = std::filesystem::temp_directory_path() / "loa-treesize-plot-test.png";
    std::filesystem::remove(png);
    treesize_plot(treesize_totals(s, r), png.string());
    ASSERT_TRUE(std::filesystem::exists(png));
    EXPECT_GT(std::filesystem::file_size(png), 1000u);
    std::ifstream script(png.string() + ".gp");
    const std::string text((std::istreambuf_iterator<char>(script)), std::istreambuf_iterator<char>());
    EXPECT_NE(text.find("title 'it''s plain'"), std::string::npos) << text;
    EXPECT_NE(text.find("($3/$2)"), std::string::npos) << text;  // the ratio panel

    // Redrawn from the JSON of the run: the same data file.
    const auto json_path = std::filesystem::temp_directory_path() / "loa-treesize-plot-test.json";
    std::ofstream(json_path) << treesize_json(s, r);
    std::ifstream first_data(png.string() + ".dat");
    const std::string first((std::istreambuf_iterator<char>(first_data)), std::istreambuf_iterator<char>());
    first_data.close();
    const TreeSizeTotals from_json = treesize_totals_from_json(json_path.string());
    EXPECT_EQ(from_json.names, treesize_totals(s, r).names);
    EXPECT_EQ(from_json.nodes, treesize_totals(s, r).nodes);
    treesize_plot(from_json, png.string());
    std::ifstream second_data(png.string() + ".dat");
    const std::string second((std::istreambuf_iterator<char>(second_data)), std::istreambuf_iterator<char>());
    EXPECT_EQ(second, first);
    std::ofstream(json_path) << R"({"positions": 2, "baseline": "x", "variants": [{"name": "a"}], "depths": []})";
    EXPECT_THROW(treesize_totals_from_json(json_path.string()), common::InputError);
    std::ofstream(json_path) << "not json";
    EXPECT_THROW(treesize_totals_from_json(json_path.string()), common::InputError);
    for (const auto& f : {png.string(), png.string() + ".gp", png.string() + ".dat", json_path.string()}) std::filesystem::remove(f);
}

TEST(TreeSize, RawRunsOfShardsMergeIntoTheWholeRunAndOtherExperimentsAreRefused) {
    TreeSizeSettings s;
    s.variants = {parse_tree_variant("name=a,preset=pvs+tt"), parse_tree_variant("name=b,preset=pvs+tt+rhh")};
    s.positions = load_positions(std::string(LOA_DATA_DIR) + "/treesize-positions.txt");
    s.positions.resize(5);
    s.max_depth = 3;
    const TreeSizeResult whole = run_treesize(s, false);
    TreeSizeResult merged;
    std::vector<bool> filled;
    for (int shard = 0; shard < 2; ++shard) {
        TreeSizeSettings part = s;
        part.positions.clear();
        std::vector<std::size_t> indices;
        for (std::size_t p = static_cast<std::size_t>(shard); p < s.positions.size(); p += 2) {
            indices.push_back(p);
            part.positions.push_back(s.positions[p]);
        }
        const std::string path = testing::TempDir() + fmt::format("runs-{}.json", shard);
        std::ofstream(path) << treesize_runs_json(s, run_treesize(part, false), indices);
        merge_treesize_runs(s, path, merged, filled);
    }
    EXPECT_EQ(std::count(filled.begin(), filled.end(), true), 10);
    for (std::size_t v = 0; v < 2; ++v)
        for (std::size_t p = 0; p < 5; ++p) {
            EXPECT_EQ(merged.runs[v][p].nodes, whole.runs[v][p].nodes) << v << ' ' << p;
            EXPECT_EQ(merged.runs[v][p].scores, whole.runs[v][p].scores) << v << ' ' << p;
            EXPECT_EQ(merged.runs[v][p].qnodes, whole.runs[v][p].qnodes) << v << ' ' << p;
            EXPECT_EQ(merged.runs[v][p].best_moves, whole.runs[v][p].best_moves) << v << ' ' << p;
            EXPECT_EQ(merged.runs[v][p].tt_hits, whole.runs[v][p].tt_hits) << v << ' ' << p;
        }
    TreeSizeSettings other = s;
    other.max_depth = 4;
    TreeSizeResult ignored;
    EXPECT_THROW(merge_treesize_runs(other, testing::TempDir() + "runs-0.json", ignored, filled), common::InputError);
    std::ofstream(testing::TempDir() + "runs-bad.json") << "{\"runs\": 3}";
    EXPECT_THROW(merge_treesize_runs(s, testing::TempDir() + "runs-bad.json", ignored, filled), common::InputError);
}

}  // namespace
}  // namespace matches
