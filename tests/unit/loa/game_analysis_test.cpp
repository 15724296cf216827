// The whole-game analysis (loa/game_analysis.hpp): its scale and marks worked out by hand, a
// blunder found by the rules alone marked as one, and the annotated PGN read back.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "loa/game_analysis.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/pgn.hpp"
#include "loa/position_text.hpp"
#include "support/test_positions.hpp"

namespace loa {
namespace {

TEST(GameAnalysis, TheScaleAndTheMarksAreLichesss) {
    EXPECT_DOUBLE_EQ(expected_result(0), 0.5);
    EXPECT_NEAR(expected_result(100), 1 / (1 + std::exp(-3.23)), 1e-12);
    EXPECT_NEAR(expected_result(-100) + expected_result(100), 1.0, 1e-12);
    EXPECT_EQ(expected_result(search::win_in(7)), 1.0);
    EXPECT_EQ(expected_result(search::loss_in(2)), 0.0);
    // Winning chances 2p - 1 drop by 0.1, 0.2, 0.3: p by 0.05, 0.10, 0.15.
    EXPECT_EQ(judge(0.049), Judgement::None);
    EXPECT_EQ(judge(0.05), Judgement::Inaccuracy);
    EXPECT_EQ(judge(0.099), Judgement::Inaccuracy);
    EXPECT_EQ(judge(0.10), Judgement::Mistake);
    EXPECT_EQ(judge(0.15), Judgement::Blunder);
    EXPECT_EQ(judge(1.0), Judgement::Blunder);
    EXPECT_EQ(judgement_nag(Judgement::Inaccuracy), "$6");
    EXPECT_EQ(judgement_nag(Judgement::Mistake), "$2");
    EXPECT_EQ(judgement_nag(Judgement::Blunder), "$4");
    // [%eval]: White's side, 100 centi-units a unit; a win counted in the winner's moves.
    EXPECT_EQ(eval_tag_value(35, Colour::White), "0.35");
    EXPECT_EQ(eval_tag_value(35, Colour::Black), "-0.35");
    EXPECT_EQ(eval_tag_value(search::win_in(1), Colour::Black), "#-1");  // Black to move connects
    EXPECT_EQ(eval_tag_value(search::loss_in(2), Colour::Black), "#1");  // White connects with its next move
    EXPECT_EQ(eval_tag_value(search::win_in(5), Colour::White), "#3");
}

// A position whose side to move has a connecting move, and a move after which the opponent has
// one: found by the rules alone (connection_result after each move), not by a search.
struct Blunder {
    Position start;
    Move winning, losing, punishing;
};

std::optional<Move> connecting_move(const Position& pos) {
    MoveList moves;
    generate_moves(pos, moves);
    for (const Move m : moves) {
        Position after = pos;
        after.make(m);
        if (connection_result(after, RuleSet{}).outcome == win_for(pos.side_to_move())) return m;
    }
    return std::nullopt;
}

std::optional<Blunder> find_blunder(std::uint64_t seed) {
    const Game game = testing::random_game(seed, 200);
    Game replay;
    for (const Move played : game.moves()) {
        const Position& pos = replay.position();
        if (const auto winning = connecting_move(pos)) {
            MoveList moves;
            generate_moves(pos, moves);
            for (const Move m : moves) {
                Position after = pos;
                after.make(m);
                if (connection_result(after, RuleSet{}).over()) continue;
                if (const auto punishing = connecting_move(after)) return Blunder{pos, *winning, m, *punishing};
            }
        }
        replay.play(played);
        if (replay.over()) break;
    }
    return std::nullopt;
}

TEST(GameAnalysis, AMoveThatLetsTheOpponentConnectInsteadOfConnectingIsABlunder) {
    int found = 0;
    for (std::uint64_t seed = 1; seed < 200 && found < 3; ++seed) {
        const auto blunder = find_blunder(seed);
        if (!blunder) continue;
        ++found;
        Game game(blunder->start);
        game.play(blunder->losing);
        game.play(blunder->punishing);
        ASSERT_TRUE(game.over());
        AnalysisSettings settings;
        settings.limits.depth = 2;
        const GameAnalysis analysis = analyse_game(game, settings);
        ASSERT_EQ(analysis.plies.size(), 2u);
        const PlyAnalysis& first = analysis.plies[0];
        EXPECT_EQ(first.judgement, Judgement::Blunder) << blunder->start.to_text();
        EXPECT_TRUE(search::is_decisive(first.score) && first.score > 0);
        EXPECT_TRUE(search::is_decisive(first.score_after) && first.score_after < 0);
        // The engine's move there connects, by the rules.
        Position after_best = blunder->start;
        after_best.make(first.best);
        EXPECT_EQ(connection_result(after_best, RuleSet{}).outcome, win_for(blunder->start.side_to_move()));
        // The punishing move ended the game: valued by its result, and not marked.
        EXPECT_EQ(analysis.plies[1].score_after, search::win_in(0));
        EXPECT_EQ(analysis.plies[1].judgement, Judgement::None);
        EXPECT_GT(analysis.nodes, 0u);
        // In the PGN: the blunder's NAG, and after it the punishing side connecting in one move,
        // from White's side: positive when White is the one to connect.
        std::ostringstream out;
        ParsedRecord record;
        record.tags = {{"FEN", blunder->start.to_text()}, {"SetUp", "1"}};
        write_annotated_record(out, record, game, analysis, "loa analyze-game (test)");
        const bool white_punishes = blunder->start.side_to_move() == Colour::Black;
        EXPECT_NE(out.str().find(move_to_text(blunder->losing) + " $4 {[%eval #" + (white_punishes ? "1" : "-1") + "] Blunder. " +
                                 move_to_text(first.best) + " was best.}"),
                  std::string::npos)
            << out.str();
    }
    EXPECT_EQ(found, 3);
}

// A game of random moves, analysed twice at a fixed depth: the same every run; each move's
// value after it is minus the next position's; the annotated record reads back as the game.
TEST(GameAnalysis, AnnotatedRecordsReadBackAndRunsRepeat) {
    const Game random = testing::random_game(11, 40);
    ASSERT_FALSE(random.over());
    AnalysisSettings settings;
    settings.limits.depth = 2;
    const GameAnalysis analysis = analyse_game(random, settings);
    const GameAnalysis again = analyse_game(random, settings);
    ASSERT_EQ(analysis.plies.size(), random.moves().size());
    int marked = 0;
    for (std::size_t i = 0; i < analysis.plies.size(); ++i) {
        const PlyAnalysis& a = analysis.plies[i];
        EXPECT_EQ(a.score, again.plies[i].score);
        EXPECT_EQ(a.best, again.plies[i].best);
        EXPECT_EQ(a.judgement, again.plies[i].judgement);
        if (i + 1 < analysis.plies.size()) {
            EXPECT_EQ(a.score_after, -analysis.plies[i + 1].score);
        }
        marked += a.judgement != Judgement::None;
    }
    EXPECT_GT(marked, 3);  // random moves: the engine finds fault with several
    int white_marked = 0;  // White's moves are a pair's second: their variations start "N..."
    for (std::size_t i = 1; i < analysis.plies.size(); i += 2) white_marked += analysis.plies[i].judgement != Judgement::None;
    EXPECT_GT(white_marked, 0);

    ParsedRecord record;
    record.tags = {{"Event", "test"}, {"White", "w"}, {"Black", "b"}, {"Result", "*"}, {"Annotator", "someone else"}};
    std::ostringstream out;
    write_annotated_record(out, record, random, analysis, "loa analyze-game (test)");
    const std::string text = out.str();
    EXPECT_NE(text.find("[Annotator \"loa analyze-game (test)\"]"), std::string::npos);
    EXPECT_EQ(text.find("someone else"), std::string::npos);  // one Annotator tag: ours
    EXPECT_NE(text.find("[%eval "), std::string::npos);
    EXPECT_NE(text.find(" was best."), std::string::npos);
    // Every variation starts with its move number: "(12. " for Black's move, "(12... " for White's;
    // after a comment or a variation White's move is numbered "N..." too.
    const std::size_t movetext = text.find("\n\n");  // the tags hold parentheses too
    for (std::size_t open = text.find('(', movetext); open != std::string::npos; open = text.find('(', open + 1)) {
        const std::size_t number_end = text.find_first_not_of("0123456789", open + 1);
        ASSERT_NE(number_end, open + 1) << text.substr(open, 20);
        EXPECT_TRUE(text.compare(number_end, 2, ". ") == 0 || text.compare(number_end, 4, "... ") == 0) << text.substr(open, 20);
    }
    EXPECT_NE(text.find("... "), std::string::npos);
    std::string flat = text;  // lines break anywhere between tokens
    std::replace(flat.begin(), flat.end(), '\n', ' ');
    for (std::size_t i = 1; i < random.moves().size(); i += 2) {  // each White move after its comment-carrying Black move
        const std::string numbered = fmt::format("{}... {}", i / 2 + 1, move_to_text(random.moves()[i]));
        EXPECT_NE(flat.find(numbered), std::string::npos) << numbered;
    }
    std::istringstream in(text);
    const auto back = read_records(in, Variations::Skip);
    ASSERT_EQ(back.size(), 1u);
    ASSERT_EQ(back[0].moves.size(), random.moves().size());
    for (std::size_t i = 0; i < back[0].moves.size(); ++i) EXPECT_EQ(back[0].moves[i], move_to_text(random.moves()[i])) << i;
    EXPECT_EQ(back[0].tags.at("Event"), "test");
}

// A game that starts with White to move: "1..." first, and the start kept in the FEN tag.
TEST(GameAnalysis, AGameFromAPositionWithWhiteToMoveIsNumberedFromItsFirstMove) {
    Game start_game = testing::random_game(12, 9);
    ASSERT_EQ(start_game.position().side_to_move(), Colour::White);
    Game game(start_game.position());
    Game tail = testing::random_game(13, 4, start_game.position());
    for (const Move m : tail.moves()) game.play(m);
    AnalysisSettings settings;
    settings.limits.depth = 1;
    ParsedRecord record;
    record.tags = {{"FEN", start_game.position().to_text()}, {"SetUp", "1"}};
    std::ostringstream out;
    write_annotated_record(out, record, game, analyse_game(game, settings), "loa analyze-game (test)");
    EXPECT_NE(out.str().find("\n1... " + move_to_text(game.moves()[0])), std::string::npos) << out.str();
    std::istringstream in(out.str());
    const auto back = read_records(in, Variations::Skip);
    ASSERT_EQ(back.size(), 1u);
    EXPECT_EQ(back[0].start_text(), start_game.position().to_text());
    EXPECT_EQ(back[0].moves.size(), game.moves().size());
}

TEST(GameAnalysis, RecordsWithVariationsAreReadPastThem) {
    // Nested variations; a brace comment holding an unbalanced ')' and a rest-of-line comment
    // holding one inside a variation: neither closes it.
    std::istringstream in("[Event \"x\"]\n\n1. b1-d3 (1. c1-e3 {a side) line} (1. d1-f3) ;ok :)\n 1... h2-f2) 1... a2-c2 $2 "
                          "{[%eval 0.1]} *\n");
    const auto records = read_records(in, Variations::Skip);
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0].moves, (std::vector<std::string>{"b1-d3", "a2-c2"}));
    for (const std::string_view bad : {"1. b1-d3 (1. c1-e3 *\n", "1. b1-d3) a2-c2 *\n", "1. b1-d3 ) a2-c2 *\n"}) {
        std::istringstream text{std::string(bad)};
        try {
            (void)read_records(text, Variations::Skip);
            ADD_FAILURE() << "accepted: " << bad;
        } catch (const InputError& e) {
            EXPECT_TRUE(std::string(e.what()).find("variation") != std::string::npos ||
                        std::string(e.what()).find("closes no") != std::string::npos)
                << e.what();
        }
    }
    // The runner's own readers, and a move list to play, still refuse them.
    std::istringstream again("1. b1-d3 (1. c1-e3) a2-c2 *\n");
    EXPECT_THROW((void)read_records(again), InputError);
    EXPECT_THROW((void)split_move_list("b1-d3 (c1-e3) a2-c2"), InputError);
}

}  // namespace
}  // namespace loa
