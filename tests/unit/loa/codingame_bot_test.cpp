// The CodinGame bot (loa/codingame/): the network it carries as text is the shipped one, and it
// searches what `loa codingame` searches, node for node, under the arena's rules.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "common/search/search.hpp"
#include "loa/codingame/bot.hpp"
#include "loa/codingame/embedded_net.hpp"
#include "loa/codingame/net_game.hpp"
#include "loa/engine/engine_options.hpp"
#include "loa/error.hpp"
#include "loa/movegen.hpp"
#include "loa/nnue/shipped.hpp"
#include "loa/nnue/shipped_data.hpp"
#include "loa/notation.hpp"
#include "loa/search_game.hpp"
#include "support/test_positions.hpp"

namespace loa::codingame {
namespace {

TEST(CodinGameBot, TheEmbeddedTextDecodesToTheShippedNetwork) {
    const std::string decoded = decode_net_text(EmbeddedNetText, EmbeddedNetBytes);
    const std::string shipped(reinterpret_cast<const char*>(nnue::ShippedNetBytes), nnue::ShippedNetSize);
    ASSERT_EQ(decoded.size(), shipped.size());
    EXPECT_TRUE(decoded == shipped) << "the decoded bytes differ from " << nnue::shipped_network_name();
    // Half the text or a stranger character is refused, not decoded into something else.
    const std::u16string_view text(EmbeddedNetText);
    EXPECT_THROW(decode_net_text(text.substr(0, text.size() / 2), EmbeddedNetBytes), InputError);
    EXPECT_THROW(decode_net_text(u"abc", 3), InputError);
    // One character changed decodes to other bytes, which the network's checksum refuses.
    std::u16string damaged(text);
    damaged[damaged.size() / 3] = damaged[damaged.size() / 3] == u'\u4E00' ? u'\u4E01' : u'\u4E00';
    EXPECT_THROW(nnue::parse_network(decode_net_text(damaged, EmbeddedNetBytes), "damaged"), InputError);
}

TEST(CodinGameBot, PlaysTheEnginesDefaultSearchUnderTheArenasRules) {
    const engine::EngineSettings engine_defaults;
    EXPECT_TRUE(bot_config() == static_cast<const search::SearchConfig&>(engine_defaults.config));
    EXPECT_TRUE(codingame_rules() == parse_rules("codingame"));
    EXPECT_TRUE(codingame_rules().simultaneous == SimultaneousConnection::MoverWins);
}

// The bot's game (rules + network alone) and the engine's (SearchGame with the network) give
// the same search: same move, score and node count at a fixed depth.
TEST(CodinGameBot, SearchesTheEnginesTreeNodeForNode) {
    const RuleSet rules = codingame_rules();
    search::Searcher<NetGame> bot(NetGame(rules, nnue::shipped_network()), bot_config());
    search::Searcher<SearchGame> engine(SearchGame(rules, nnue::shipped_network()), bot_config());
    search::SearchLimits limits;
    limits.depth = 5;
    int searched = 0;
    for (const Position& pos : loa::testing::middle_game_positions(6, 87)) {
        limits.game_plies_left = 150 - 20;
        const auto a = bot.search(pos, limits);
        const auto b = engine.search(pos, limits);
        EXPECT_EQ(a.best_move, b.best_move) << pos.to_text();
        EXPECT_EQ(a.score, b.score) << pos.to_text();
        EXPECT_EQ(a.stats.nodes, b.stats.nodes) << pos.to_text();
        ++searched;
    }
    EXPECT_EQ(searched, 6);
}

TEST(CodinGameBot, AnswersAnArenaTurnAndRefusesMalformedInput) {
    // White to move after 1. c1-c3, every legal move offered as the referee lists them.
    const Position pos = Position::from_text("1bbbbbb1/w6w/w6w/w6w/w6w/w1b4w/w6w/1b1bbbb1 w");
    std::string turn = "w\n.bbbbbb.\nw......w\nw......w\nw......w\nw......w\nw.b....w\nw......w\n.b.bbbb.\nc1c3\n";
    const MoveList legal = legal_moves(pos);
    turn += std::to_string(legal.size()) + "\n";
    for (const Move m : legal) turn += move_to_compact(m) + "\n";
    std::istringstream in(turn);
    std::ostringstream out, log;
    EXPECT_EQ(run_bot(in, out, log), 0) << log.str();
    EXPECT_TRUE(log.str().empty()) << log.str();  // its own move, not a stand-in
    std::string answer = out.str();
    ASSERT_FALSE(answer.empty());
    answer.pop_back();
    EXPECT_NO_THROW(parse_move(pos, answer)) << answer;
    // A board with 13 black pieces: no game reaches it, and the net is not sized for it.
    std::istringstream crowded("b\nbbbbbbbb\nw......w\nw......w\nw......w\nw......w\nw......w\nw......w\nbbbbbbb.\nnull\n1\nb1b3\n");
    std::ostringstream out2, log2;
    EXPECT_EQ(run_bot(crowded, out2, log2), 2);
    EXPECT_NE(log2.str().find("more than 12 pieces"), std::string::npos) << log2.str();
    EXPECT_TRUE(out2.str().empty());
    std::istringstream bad_colour("x\n");
    std::ostringstream out3, log3;
    EXPECT_EQ(run_bot(bad_colour, out3, log3), 2);
}

}  // namespace
}  // namespace loa::codingame
