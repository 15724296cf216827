// The search core on Lines of Action: exact values against plain minimax at small depth, and
// forced wins (found and verified by a brute-force solver) solved by every preset.
#include <gtest/gtest.h>

#include "common/search/search.hpp"
#include "loa/notation.hpp"
#include "loa/search_game.hpp"
#include "reference_search.hpp"
#include "test_positions.hpp"

namespace loa {
namespace {

using LoaSearcher = search::Searcher<SearchGame>;

// Middle-game positions from seeded random games, ply 6..30, not yet decided.
std::vector<Position> middle_game_positions(std::size_t count, std::uint64_t seed) {
    std::vector<Position> out;
    for (std::uint64_t g = 0; out.size() < count; ++g) {
        const Game game = testing::random_game(seed + g, 6 + static_cast<int>((g * 7) % 25));
        if (!game.over()) out.push_back(game.position());
    }
    return out;
}

search::SearchResult<Move> run(const char* spec, const Position& pos, int depth, const SearchGame& game = SearchGame{}) {
    LoaSearcher searcher(game, search::parse_search_config(spec));
    search::SearchLimits limits;
    limits.depth = depth;
    return searcher.search(pos, limits);
}

const char* const OrderingVariants[] = {
    "ab", "pvs", "pvs+asp", "pvs+killers", "pvs+hh", "pvs+bf", "pvs+rhh", "pvs+rhh,rhh_update=cutnodes",
    "pvs+asp+killers+rhh+ref+caps,aspiration=10", "pvs+hh+caps,history_captures=off,hh_inc=d",
};

TEST(LoaSearch, OrderingVariantsReturnTheMinimaxValue) {
    const SearchGame game;
    struct Horizon {
        int depth, qsearch, qsearch_plies;
        const char* spec;
    };
    const Horizon horizons[] = {{3, 0, 1, ",qsearch=off"},
                                {2, 1, 2, ",qsearch=captures,qsearch_plies=2"},
                                {1, 2, 3, ",qsearch=quads,qsearch_plies=3"}};
    for (const Position& pos : middle_game_positions(6, 100)) {
        for (const Horizon& h : horizons) {
            reference::Minimax<SearchGame> oracle(game, h.qsearch, h.qsearch_plies);
            const search::Score expected = oracle.value(pos, h.depth);
            for (const char* variant : OrderingVariants) {
                const std::string spec = std::string(variant) + h.spec;
                EXPECT_EQ(run(spec.c_str(), pos, h.depth).score, expected)
                    << spec << " depth " << h.depth << " " << pos.to_text();
            }
        }
    }
}

TEST(LoaSearch, TTWithExactDepthReuseReturnsTheMinimaxValue) {
    // Without the repetition rule: a TT entry must not depend on the path (graph history).
    const SearchGame game(parse_rules("repetition=off"));
    for (const Position& pos : middle_game_positions(4, 300)) {
        reference::Minimax<SearchGame> oracle(game, 0);
        const search::Score expected = oracle.value(pos, 3);
        for (const char* variant : {"pvs+tt", "pvs+tt+killers+rhh+asp", "ab+tt+hh+ref"}) {
            for (const char* replace : {"always", "depth", "twodeep"}) {
                const std::string spec = std::string(variant) + ",qsearch=off,tt_reuse=exact,tt=1,tt_replace=" + replace;
                EXPECT_EQ(run(spec.c_str(), pos, 3, game).score, expected) << spec << " " << pos.to_text();
            }
        }
    }
}

// ---- forced wins -------------------------------------------------------------------------

search::Status status_after(const SearchGame& game, Position pos, Move m) {
    pos.make(m);
    return game.status(pos);
}

bool wins_in_one(const SearchGame& game, const Position& pos) {
    for (const Move m : legal_moves(pos))
        if (status_after(game, pos, m) == search::Status::Loss) return true;
    return false;
}

// True when m forces a win within 3 plies: every reply loses at once or allows a winning move.
bool forces_win_in_three(const SearchGame& game, const Position& pos, Move m) {
    Position child = pos;
    child.make(m);
    const search::Status s = game.status(child);
    if (s == search::Status::Loss) return true;
    if (s != search::Status::Ongoing) return false;
    for (const Move reply : legal_moves(child)) {
        Position grandchild = child;
        grandchild.make(reply);
        const search::Status g = game.status(grandchild);
        if (g == search::Status::Win) continue;
        if (g != search::Status::Ongoing || !wins_in_one(game, grandchild)) return false;
    }
    return true;
}

bool wins_in_three_not_one(const SearchGame& game, const Position& pos) {
    if (wins_in_one(game, pos)) return false;
    for (const Move m : legal_moves(pos))
        if (forces_win_in_three(game, pos, m)) return true;
    return false;
}

struct Puzzles {
    std::vector<Position> win_in_one, win_in_three;
};

const Puzzles& puzzles() {
    static const Puzzles p = [] {
        const SearchGame game;
        Puzzles out;
        for (std::uint64_t seed = 1; seed < 4000 && (out.win_in_one.size() < 6 || out.win_in_three.size() < 6); ++seed) {
            const Game g = testing::random_game(seed, 200);
            Position pos = g.start_position();
            for (const Move m : g.moves()) {
                if (game.status(pos) == search::Status::Ongoing) {
                    if (out.win_in_one.size() < 6 && wins_in_one(game, pos)) out.win_in_one.push_back(pos);
                    else if (out.win_in_three.size() < 6 && wins_in_three_not_one(game, pos)) out.win_in_three.push_back(pos);
                }
                pos.make(m);
            }
        }
        return out;
    }();
    return p;
}

const char* const EveryPreset[] = {
    "ab", "pvs", "pvs+tt", "pvs+tt+killers", "pvs+tt+hh", "pvs+tt+rhh", "full", "full,null=1", "full,null=3",
    "full,null_verify=on", "full,qsearch=off", "full,qsearch=quads", "full,extensions=on", "pvs+tt+lmr,lmr_min_moves=1",
    "full,aspiration_research=full,tt_replace=always",
};

TEST(LoaSearch, EveryPresetFindsEveryWinInOne) {
    const SearchGame game;
    ASSERT_EQ(puzzles().win_in_one.size(), 6u);
    for (const Position& pos : puzzles().win_in_one) {
        for (const char* spec : EveryPreset) {
            const auto r = run(spec, pos, 4);
            EXPECT_EQ(r.score, search::win_in(1)) << spec << " " << pos.to_text();
            EXPECT_EQ(status_after(game, pos, r.best_move), search::Status::Loss) << spec << " " << pos.to_text();
        }
    }
}

TEST(LoaSearch, EveryPresetFindsEveryWinInThree) {
    const SearchGame game;
    ASSERT_EQ(puzzles().win_in_three.size(), 6u);
    for (const Position& pos : puzzles().win_in_three) {
        for (const char* spec : EveryPreset) {
            const auto r = run(spec, pos, 4);
            EXPECT_GE(r.score, search::win_in(3)) << spec << " " << pos.to_text();
            EXPECT_TRUE(forces_win_in_three(game, pos, r.best_move))
                << spec << " played " << move_to_text(r.best_move) << " in " << pos.to_text();
        }
    }
}

TEST(LoaSearch, ShortestWinIsPreferredAndLossIsDelayed) {
    for (const Position& pos : puzzles().win_in_three) {
        const auto r = run("pvs+tt+rhh", pos, 5);
        EXPECT_EQ(search::plies_to_end(r.score), 3) << pos.to_text();
    }
}

TEST(LoaSearch, NodeCountsAreReproducibleAndResetByNewGame) {
    const Position pos = middle_game_positions(1, 77).front();
    for (const char* spec : {"full", "pvs+tt+rhh", "ab"}) {
        LoaSearcher a(SearchGame{}, search::parse_search_config(spec));
        search::SearchLimits limits;
        limits.depth = 4;
        const auto first = a.search(pos, limits);
        EXPECT_EQ(first.stats.nodes, run(spec, pos, 4).stats.nodes) << spec;
        a.search(pos, limits);
        a.new_game();
        const auto again = a.search(pos, limits);
        EXPECT_EQ(again.stats.nodes, first.stats.nodes) << spec;
        EXPECT_EQ(again.pv, first.pv) << spec;
    }
}

TEST(LoaSearch, RepetitionOfAGamePositionIsADraw) {
    Game game;
    for (const char* m : {"b1-b3", "a2-c2", "b3-b1"}) game.play(m);
    // White to move; c2-a2 returns to the start position. An evaluation that loves that
    // position for White makes c2-a2 the best move, unless the search knows the game history,
    // where the start position already stands: then c2-a2 is a draw.
    const Key start_key = Position::start().key();
    const SearchGame game_model(RuleSet{}, [start_key](const Position& p) { return p.key() == start_key ? -1000 : 5; });
    search::SearchLimits limits;
    limits.depth = 1;
    const char* spec = "pvs,qsearch=off";
    LoaSearcher blind(game_model, search::parse_search_config(spec));
    const auto without = blind.search(game.position(), limits);
    EXPECT_EQ(without.score, 1000);
    EXPECT_EQ(move_to_text(without.best_move), "c2-a2");
    const std::vector<std::uint64_t> history(game.key_history().begin(), game.key_history().end() - 1);
    LoaSearcher aware(game_model, search::parse_search_config(spec));
    const auto with = aware.search(game.position(), limits, history);
    EXPECT_EQ(with.score, search::DrawScore);  // the draw still beats every other move (-5)
    EXPECT_EQ(move_to_text(with.best_move), "c2-a2");
    // With the repetition rule switched off the history does not matter.
    const SearchGame no_repetition(parse_rules("repetition=off"),
                                   [start_key](const Position& p) { return p.key() == start_key ? -1000 : 5; });
    LoaSearcher off(no_repetition, search::parse_search_config(spec));
    EXPECT_EQ(off.search(game.position(), limits, history).score, 1000);
}

TEST(LoaSearch, StatisticsAreConsistent) {
    const Position pos = middle_game_positions(1, 5).front();
    const auto r = run("full", pos, 5);
    const auto& s = r.stats;
    EXPECT_GT(s.nodes, s.qnodes);
    EXPECT_GE(s.tt_probes, s.tt_hits);
    EXPECT_GE(s.tt_hits, s.tt_cutoffs);
    EXPECT_GE(s.beta_cutoffs, s.first_move_cutoffs);
    EXPECT_GT(s.first_move_cutoff_rate(), 0.3);
    EXPECT_EQ(s.depth, 5);
    EXPECT_GE(s.seldepth, 5);
    EXPECT_EQ(r.iterations.size(), 5u);
    EXPECT_EQ(r.iterations.back().nodes, s.nodes);
    // Each iteration carries the statistics so far: cumulative, ending at the search's own.
    for (std::size_t i = 0; i < r.iterations.size(); ++i) {
        const auto& it = r.iterations[i];
        EXPECT_EQ(it.stats.nodes, it.nodes);
        EXPECT_EQ(it.stats.depth, it.depth);
        EXPECT_LT(it.stats.qnodes, it.stats.nodes);
        if (i > 0) {
            EXPECT_GT(it.stats.nodes, r.iterations[i - 1].stats.nodes);
            EXPECT_GE(it.stats.qnodes, r.iterations[i - 1].stats.qnodes);
            EXPECT_GE(it.stats.tt_hits, r.iterations[i - 1].stats.tt_hits);
        }
    }
    EXPECT_EQ(r.iterations.back().stats.qnodes, s.qnodes);
    EXPECT_EQ(r.iterations.back().stats.tt_hits, s.tt_hits);
    EXPECT_FALSE(r.pv.empty());
    EXPECT_EQ(r.pv.front(), r.best_move);
    // The PV is a legal line.
    Position line = pos;
    for (const Move m : r.pv) {
        ASSERT_TRUE(is_legal(line, m)) << move_to_text(m);
        line.make(m);
    }
}

}  // namespace
}  // namespace loa
