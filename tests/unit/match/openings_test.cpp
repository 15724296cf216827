// Openings: files read and checked, generated openings distinct and balanced, the shipped set.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "common/text.hpp"
#include "loa/position.hpp"
#include "loa/position_text.hpp"
#include "loa/rules.hpp"
#include "matches/openings.hpp"

namespace matches {
namespace {

TEST(Openings, FileOfPositionsAndMoveLists) {
    const auto path = std::filesystem::temp_directory_path() / "loa_openings_test.txt";
    {
        std::ofstream out(path);
        out << "# comment\n\n1. b1-d3 a2-c2\n1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 w\n";
    }
    const auto openings = load_openings(path.string(), loa::Position::start(), loa::RuleSet{});
    ASSERT_EQ(openings.size(), 2u);
    EXPECT_EQ(openings[0].moves.size(), 2u);
    EXPECT_EQ(start_game(openings[0], loa::RuleSet{}).ply(), 2);
    EXPECT_EQ(openings[1].start.side_to_move(), loa::Colour::White);
    {
        std::ofstream out(path);
        out << "b1-d3 a2-b2\n";
    }
    try {
        (void)load_openings(path.string(), loa::Position::start(), loa::RuleSet{});
        ADD_FAILURE() << "accepted an illegal opening";
    } catch (const common::InputError& e) {
        EXPECT_NE(std::string(e.what()).find("line 1"), std::string::npos) << e.what();
    }
    std::filesystem::remove(path);
}

TEST(Openings, GeneratedOpeningsAreDistinctBalancedAndSeeded) {
    OpeningGenerator g;
    g.count = 8;
    g.plies = 4;
    g.balance_depth = 2;
    const auto a = generate_openings(g, loa::Position::start(), loa::RuleSet{});
    const auto b = generate_openings(g, loa::Position::start(), loa::RuleSet{});
    ASSERT_EQ(a.size(), 8u);
    std::set<loa::Key> keys;
    for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].moves, b[i].moves);
        EXPECT_EQ(a[i].moves.size(), 4u);
        keys.insert(start_game(a[i], loa::RuleSet{}).position().key());
    }
    EXPECT_EQ(keys.size(), 8u);
}

// The smallest of the keys of a position's images under the symmetries that keep the start
// position (files mirrored, ranks flipped): written here from the board, not from the generator.
loa::Key mirror_class(const loa::Position& p) {
    loa::Key best = p.key();
    for (const bool files : {false, true})
        for (const bool ranks : {false, true}) {
            std::string text = p.to_text();
            const auto space = text.find(' ');
            std::vector<std::string> rows;
            for (std::string_view r : common::split(std::string_view(text).substr(0, space), '/')) {
                std::string row;
                for (const char c : r) row += std::isdigit(static_cast<unsigned char>(c)) ? std::string(c - '0', '.') : std::string(1, c);
                if (files) std::reverse(row.begin(), row.end());
                rows.push_back(row);
            }
            if (ranks) std::reverse(rows.begin(), rows.end());
            std::string mirrored;
            for (const std::string& row : rows) mirrored += (mirrored.empty() ? "" : "/") + row;
            best = std::min(best, loa::parse_position(mirrored + text.substr(space)).key());
        }
    return best;
}

TEST(Openings, PlyRangeAndDistinctMirrorImages) {
    OpeningGenerator g;
    g.count = 40;
    g.plies = 1;
    g.max_plies = 3;
    g.balance_depth = 1;
    g.max_abs_score = 100000;
    g.distinct_under_symmetry = true;
    const auto openings = generate_openings(g, loa::Position::start(), loa::RuleSet{});
    std::set<loa::Key> classes;
    std::set<std::size_t> lengths;
    for (const Opening& o : openings) {
        lengths.insert(o.moves.size());
        classes.insert(mirror_class(start_game(o, loa::RuleSet{}).position()));
    }
    EXPECT_EQ(lengths, (std::set<std::size_t>{1, 2, 3}));
    EXPECT_EQ(classes.size(), openings.size());  // one ply from the start has mirror twins: they were dropped
    // The file written from them reads back to the same openings.
    const auto path = std::filesystem::temp_directory_path() / "loa_generated_openings_test.txt";
    std::ofstream(path) << openings_file_text(openings, {"a header line"});
    const auto back = load_openings(path.string(), loa::Position::start(), loa::RuleSet{});
    ASSERT_EQ(back.size(), openings.size());
    for (std::size_t i = 0; i < back.size(); ++i) EXPECT_EQ(back[i].moves, openings[i].moves);
    std::filesystem::remove(path);
}

TEST(Openings, TheShippedOpeningsAreManyDistinctAndFromTheStandardStart) {
    const auto openings = load_openings(LOA_DATA_DIR "/openings/balanced-4-8.txt", loa::Position::start(), loa::RuleSet{});
    EXPECT_GE(openings.size(), 2000u);
    std::set<loa::Key> classes;
    for (const Opening& o : openings) {
        EXPECT_GE(o.moves.size(), 4u);
        EXPECT_LE(o.moves.size(), 8u);
        classes.insert(mirror_class(start_game(o, loa::RuleSet{}).position()));
    }
    EXPECT_EQ(classes.size(), openings.size());
}

}  // namespace
}  // namespace matches
