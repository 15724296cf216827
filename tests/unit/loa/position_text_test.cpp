// Position text: the start positions, the text forms, round trips, and rejection of bad text.
#include <gtest/gtest.h>

#include "loa/error.hpp"
#include "loa/position_text.hpp"
#include "support/test_positions.hpp"

namespace loa {
namespace {

TEST(PositionText, StartPositionMatchesTheRules) {
    const Position start = Position::start();
    EXPECT_EQ(start.to_text(), StartPositionText);
    EXPECT_EQ(start.count(Colour::Black), 12);
    EXPECT_EQ(start.count(Colour::White), 12);
    EXPECT_EQ(start.side_to_move(), Colour::Black);
    // Black on b1-g1 and b8-g8, White on a2-a7 and h2-h7.
    for (int f = 1; f <= 6; ++f) {
        EXPECT_TRUE(start.pieces(Colour::Black) & square_bb(make_square(f, 0)));
        EXPECT_TRUE(start.pieces(Colour::Black) & square_bb(make_square(f, 7)));
    }
    for (int r = 1; r <= 6; ++r) {
        EXPECT_TRUE(start.pieces(Colour::White) & square_bb(make_square(0, r)));
        EXPECT_TRUE(start.pieces(Colour::White) & square_bb(make_square(7, r)));
    }
}

TEST(PositionText, ScrambledEggsAlternatesAroundTheEdgeWithWhiteOnA2) {
    const Position eggs = Position::scrambled_eggs();
    EXPECT_EQ(eggs.count(Colour::Black), 12);
    EXPECT_EQ(eggs.count(Colour::White), 12);
    EXPECT_TRUE(eggs.pieces(Colour::White) & square_bb(make_square(0, 1)));
    EXPECT_EQ(eggs.occupied(), Position::start().occupied());
    // Walk the 24 edge squares in ring order: colours alternate all the way round.
    std::vector<Square> ring;
    for (int r = 1; r <= 6; ++r) ring.push_back(make_square(0, r));
    for (int f = 1; f <= 6; ++f) ring.push_back(make_square(f, 7));
    for (int r = 6; r >= 1; --r) ring.push_back(make_square(7, r));
    for (int f = 6; f >= 1; --f) ring.push_back(make_square(f, 0));
    for (std::size_t i = 0; i < ring.size(); ++i) {
        const bool white_here = eggs.pieces(Colour::White) & square_bb(ring[i]);
        const bool white_next = eggs.pieces(Colour::White) & square_bb(ring[(i + 1) % ring.size()]);
        EXPECT_NE(white_here, white_next) << "at ring index " << i;
    }
}

TEST(PositionText, DottedAndDigitFormsParseToTheSamePosition) {
    const Position dotted = Position::from_text(".bbbbbb./w......w/w......w/w......w/w......w/w......w/w......w/.bbbbbb. b");
    EXPECT_EQ(dotted, Position::start());
    const Position mixed = Position::from_text("1bbb..b1/w6w/w6w/w2b3w/w6w/w6w/w6w/1bbbbbb1 w");
    EXPECT_EQ(mixed.to_text(), "1bbb2b1/w6w/w6w/w2b3w/w6w/w6w/w6w/1bbbbbb1 w");
    EXPECT_EQ(mixed.side_to_move(), Colour::White);
}

TEST(PositionText, RoundTripsEveryPositionOfRandomGames) {
    for (const Position& pos : testing::random_positions(7, 20, 80)) {
        const Position again = Position::from_text(pos.to_text());
        EXPECT_EQ(again, pos);
        EXPECT_EQ(again.to_text(), pos.to_text());
    }
}

void expect_rejected(std::string_view text, std::string_view fragment) {
    try {
        (void)Position::from_text(text);
        ADD_FAILURE() << "accepted: " << text;
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos)
            << "message '" << e.what() << "' lacks '" << fragment << "'";
    }
}

TEST(PositionText, RejectsBadTextWithAMessageNamingTheFault) {
    expect_rejected("1bbbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b", "rank 8 has more than 8 squares");
    expect_rejected("1bbbbbb/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b", "rank 8 has 7 squares");
    expect_rejected("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6ww/1bbbbbb1 b", "rank 2 has more than 8 squares");
    expect_rejected("1bbbxbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b", "unexpected character 'x' in rank 8");
    expect_rejected("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1", "missing side to move");
    expect_rejected("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 x", "side to move must be 'b' or 'w'");
    expect_rejected("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b w", "side to move must be 'b' or 'w'");
    expect_rejected("8/w6w/w6w/w6w/w6w/w6w/w6w/8 b", "black has no pieces");
    expect_rejected("1bbbbbb1/8/8/8/8/8/8/1bbbbbb1 w", "white has no pieces");
    expect_rejected("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b", "7 ranks given");
    expect_rejected("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1/8 b", "more than 8 ranks");
    expect_rejected("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1/ b", "more than 8 ranks");
    expect_rejected("1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbb9 b", "unexpected character '9'");
    expect_rejected("", "empty position");
}

}  // namespace
}  // namespace loa
