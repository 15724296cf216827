// The search core on Lines of Action: exact values against an oracle written from the rules
// alone (tests/support/rules_minimax.hpp) at small depth, on middle-game and sparse endgame positions;
// decisive scores whose principal variations the rules confirm; and forced wins (found and
// verified by a brute-force solver) solved by every preset.
#include <gtest/gtest.h>

#include <set>

#include "common/search/draw_context.hpp"
#include "loa/searchers.hpp"
#include "common/search/report.hpp"
#include "loa/bench_positions.hpp"
#include "loa/engine/session.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/search_output.hpp"
#include "loa/search_game.hpp"
#include "support/and_or_oracle.hpp"
#include "support/rules_minimax.hpp"
#include "support/sanitized_build.hpp"
#include "support/test_positions.hpp"

namespace loa {
namespace {

using LoaSearcher = search::Searcher<SearchGame>;

// Middle-game positions from seeded random games, ply 6..30, not yet decided.
using testing::middle_game_positions;

search::SearchResult<Move> run(const char* spec, const Position& pos, int depth, const SearchGame& game = SearchGame{}) {
    LoaSearcher searcher(game, variant::parse_variant(spec));
    search::SearchLimits limits;
    limits.depth = depth;
    return searcher.search(pos, limits);
}

// The rules oracle's value of `pos` under the game's rules and evaluation.
search::Score oracle_value(const SearchGame& game, const Position& pos, int depth, int qsearch_level, int qsearch_plies,
                           const std::vector<std::uint64_t>& history = {}) {
    oracle::Options options;
    options.qsearch_level = qsearch_level;
    options.qsearch_plies = qsearch_plies;
    options.simultaneous_mover_wins = game.rules().simultaneous == SimultaneousConnection::MoverWins;
    options.repetition_draws = game.rules().repetition_draw;
    return oracle::minimax_value(pos, depth, [&game](const Position& p) { return game.evaluate(p); }, options, history);
}

const char* const OrderingVariants[] = {
    "ab", "pvs", "pvs+asp", "pvs+killers", "pvs+hh", "pvs+bf", "pvs+rhh", "pvs+rhh,rhh_update=cutnodes",
    "pvs+asp+killers+rhh+ref+caps,aspiration=10", "pvs+hh+caps,history_captures=off,hh_inc=d",
    "pvs+killers+rhh,qs_order=history", "pvs+hh,qs_order=history,history_captures=off",
    "pvs,countermove=killer", "pvs+killers+rhh+caps,countermove=history",
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
            const search::Score expected = oracle_value(game, pos, h.depth, h.qsearch, h.qsearch_plies);
            for (const char* variant : OrderingVariants) {
                const std::string spec = std::string(variant) + h.spec;
                EXPECT_EQ(run(spec.c_str(), pos, h.depth).score, expected)
                    << spec << " depth " << h.depth << " " << pos.to_text();
            }
        }
    }
}

TEST(LoaSearch, HistoryOrderInQuiescenceChangesTheTreeNotTheValue) {
    // qs_order=history: the same captures, in another order. The values must not change
    // (checked against the oracle above); the tree must, or the switch does nothing.
    std::uint64_t captures_order = 0, history_order = 0;
    for (const Position& pos : middle_game_positions(8, 300)) {
        const auto by_captures = run("pvs+killers+rhh", pos, 4);
        const auto by_history = run("pvs+killers+rhh,qs_order=history", pos, 4);
        EXPECT_EQ(by_captures.score, by_history.score) << pos.to_text();
        captures_order += by_captures.stats.qnodes;
        history_order += by_history.stats.qnodes;
    }
    EXPECT_NE(captures_order, history_order);
    // With captures kept out of the history tables, the switch has nothing to order by (every
    // quiescence move is a capture): the same tree.
    for (const Position& pos : middle_game_positions(3, 301))
        EXPECT_EQ(run("pvs+killers+rhh,history_captures=off", pos, 4).stats.nodes,
                  run("pvs+killers+rhh,history_captures=off,qs_order=history", pos, 4).stats.nodes);
}

TEST(LoaSearch, CountermovesChangeTheTreeNotTheValue) {
    // The countermove heuristic: the same moves, another order from the second ply down. The
    // value must not change (checked against the oracle above), the tree must, or the switch
    // does nothing; and with LMR the two bands reduce different moves.
    std::uint64_t plain = 0, as_killer = 0, in_history = 0, lmr_killer = 0, lmr_history = 0;
    for (const Position& pos : middle_game_positions(8, 302)) {
        const auto without = run("pvs+killers+rhh+caps", pos, 4);
        const auto killer = run("pvs+killers+rhh+caps,countermove=killer", pos, 4);
        const auto history = run("pvs+killers+rhh+caps,countermove=history", pos, 4);
        EXPECT_EQ(without.score, killer.score) << pos.to_text();
        EXPECT_EQ(without.score, history.score) << pos.to_text();
        plain += without.stats.nodes, as_killer += killer.stats.nodes, in_history += history.stats.nodes;
        lmr_killer += run("full,countermove=killer", pos, 5).stats.nodes;
        lmr_history += run("full,countermove=history", pos, 5).stats.nodes;
    }
    EXPECT_NE(plain, as_killer);
    EXPECT_NE(plain, in_history);
    EXPECT_NE(lmr_killer, lmr_history);
}

TEST(LoaSearch, TTWithExactDepthReuseReturnsTheMinimaxValue) {
    // Without the repetition rule: a TT entry must not depend on the path (graph history).
    const SearchGame game(parse_rules("repetition=off"));
    for (const Position& pos : middle_game_positions(4, 300)) {
        const search::Score expected = oracle_value(game, pos, 3, 0, 0);
        for (const char* variant : {"pvs+tt", "pvs+tt+killers+rhh+asp", "ab+tt+hh+ref"}) {
            for (const char* replace : {"always", "depth", "twodeep"}) {
                const std::string spec = std::string(variant) + ",qsearch=off,tt_reuse=exact,tt=1,tt_replace=" + replace;
                EXPECT_EQ(run(spec.c_str(), pos, 3, game).score, expected) << spec << " " << pos.to_text();
            }
        }
    }
}

// ---- endgames: captures that end the game ------------------------------------------------

TEST(LoaSearch, SparseEndgamesReturnTheRulesOraclesValue) {
    // Few pieces a side: captures that connect the capturer, the captured side (its last
    // straggler taken) or both at once are everywhere, inside quiescence too. Both rule sets
    // for a simultaneous connection.
    struct Horizon {
        int depth, qsearch, qsearch_plies;
        const char* spec;
    };
    const Horizon horizons[] = {{1, 1, 4, ",qsearch=captures,qsearch_plies=4"},
                                {2, 1, 2, ",qsearch=captures,qsearch_plies=2"},
                                {2, 2, 3, ",qsearch=quads,qsearch_plies=3"},
                                {3, 0, 1, ",qsearch=off"}};
    const std::vector<Position> positions = testing::sparse_positions(41, 30, 2, 5);
    for (const char* rules : {"olympiad", "simultaneous=mover"}) {
        const SearchGame game(parse_rules(rules));
        for (const Position& pos : positions) {
            for (const Horizon& h : horizons) {
                const search::Score expected = oracle_value(game, pos, h.depth, h.qsearch, h.qsearch_plies);
                for (const char* variant : {"ab", "pvs", "pvs+killers+rhh+caps", "pvs+asp+killers+hh,aspiration=10"}) {
                    const std::string spec = std::string(variant) + h.spec;
                    EXPECT_EQ(run(spec.c_str(), pos, h.depth, game).score, expected)
                        << rules << " " << spec << " depth " << h.depth << " " << pos.to_text();
                }
            }
        }
    }
    // The set must exercise what it is for: below the horizon of a depth-1 search (inside
    // quiescence), captures that connect the capturer, the captured side, and both at once.
    int capturer_wins = 0, captured_wins = 0, both = 0;
    for (const Position& pos : positions)
        for (const Move m : legal_moves(pos)) {
            Position child = pos;
            child.make(m);
            if (connection_result(child, RuleSet{}).over()) continue;
            for (const Move capture : legal_moves(child)) {
                if (!capture.is_capture()) continue;
                Position after = child;
                after.make(capture);
                const GameResult r = connection_result(after, RuleSet{});
                if (r.termination == Termination::SimultaneousConnection) ++both;
                else if (r.outcome == win_for(child.side_to_move())) ++capturer_wins;
                else if (r.over()) ++captured_wins;
            }
        }
    EXPECT_GE(capturer_wins, 10);
    EXPECT_GE(captured_wins, 10);
    EXPECT_GE(both, 3);
}

// Replays a principal variation from `pos` under the rules (loa::Game decides, not the search):
// true when it is legal and the game ends exactly with its last move, won by the side the
// score says (score from pos's side to move; positive: a win).
::testing::AssertionResult pv_reaches_claimed_result(const Position& pos, const RuleSet& rules, const std::vector<Move>& pv,
                                                     search::Score score) {
    Game game(pos, rules);
    for (std::size_t i = 0; i < pv.size(); ++i) {
        if (game.over()) return ::testing::AssertionFailure() << "the game ended before move " << i + 1;
        try {
            game.play(pv[i]);
        } catch (const std::exception& e) {
            return ::testing::AssertionFailure() << "move " << i + 1 << ": " << e.what();
        }
    }
    if (!game.over()) return ::testing::AssertionFailure() << "the game goes on after the last move";
    const Outcome claimed = win_for(score > 0 ? pos.side_to_move() : ~pos.side_to_move());
    if (game.result().outcome != claimed) return ::testing::AssertionFailure() << "it ends in " << describe(game.result());
    return ::testing::AssertionSuccess();
}

// In every mode: a searcher of its own per position, one searcher kept over all of them (the
// table full of other searches' results, as in a protocol session), and lazy SMP threads
// (where table cutoffs at PV nodes once cut 11 of 41 decisive PVs short at depth 10).
TEST(LoaSearch, EveryDecisiveScoreIsReachedByItsPrincipalVariation) {
    const RuleSet rules;
    int checked = 0;
    for (const char* spec : {"full", "pvs+tt+rhh", "ab", "full,qsearch=quads", "full,extensions=on", "full,threads=2",
                             "full,rfp=on,lmp=3,lmr_formula=log,lmr_history=on"}) {
        for (const bool kept : {false, true}) {
            search::SearchConfig config = variant::parse_variant(spec);
            config.tt_mb = 1;  // cleared for every position: 16 MB each time is slow under the sanitizers
            search::ParallelSearcher<SearchGame> session(SearchGame(rules), config);
            for (const Position& pos : testing::sample_when_sanitized(testing::sparse_positions(7, 60, 2, 6), 2)) {
                search::SearchLimits limits;
                limits.depth = 4;
                if (!kept) session.new_game();
                // Twice: the second search meets the first one's results at every PV node.
                for (int search = 0; search < (kept ? 2 : 1); ++search) {
                    const auto r = session.search(pos, limits);
                    for (const auto& it : r.iterations) {
                        if (!search::is_decisive(it.score)) continue;
                        const std::string context = fmt::format("{}{} search {} depth {} score {} pv {} in {}", spec,
                                                                kept ? " (kept)" : "", search + 1, it.depth, it.score,
                                                                format_pv(it.pv), pos.to_text());
                        ASSERT_EQ(static_cast<int>(it.pv.size()), std::abs(search::plies_to_end(it.score))) << context;
                        EXPECT_TRUE(pv_reaches_claimed_result(pos, rules, it.pv, it.score)) << context;
                        ++checked;
                    }
                }
            }
        }
    }
    EXPECT_GE(checked, testing::sanitized_build ? 100 : 200);
}

// ---- claims a session's table must not make (issue 54) -----------------------------------

// The draw context of a node is the set of positions on its path: three move orders that reach
// one position through different positions give three contexts. (Zobrist keys are XOR-linear:
// the plain XOR of a path's keys depends on its ends only, and once gave all three the same.)
TEST(LoaSearch, TheDrawContextTellsPathsToOnePositionApart) {
    const std::vector<std::vector<const char*>> orders = {{"b1-b3", "h5-f5", "c1-c3", "h6-f6", "d1-d3"},
                                                          {"c1-c3", "h6-f6", "d1-d3", "h5-f5", "b1-b3"},
                                                          {"d1-d3", "h5-f5", "b1-b3", "h6-f6", "c1-c3"}};
    std::set<std::uint64_t> contexts, linear;
    std::set<std::string> ends;
    for (const auto& order : orders) {
        Position pos = Position::start();
        std::uint64_t context = 0, xor_of_keys = 0;
        for (const char* m : order) {
            context = search::draw_context_with(context, pos.key());
            xor_of_keys ^= pos.key();
            pos.make(parse_move(pos, m));
        }
        contexts.insert(context);
        linear.insert(xor_of_keys);
        ends.insert(pos.to_text());
    }
    ASSERT_EQ(ends.size(), 1u);    // one position
    EXPECT_EQ(linear.size(), 1u);  // what a plain XOR cannot tell apart
    EXPECT_EQ(contexts.size(), 3u);
}

// P is won for White (e6f5 wins in 5) when set up alone. Reached from Q by f5e6 b2b3 e6f5
// b3b2 f5e6 b2b3, the same move lets Black play b3b2 and repeat Q a third time: a draw. A
// session that searched P first once claimed "win 5" there and played e6f5.
constexpr const char* WonAlone = "8/6w1/4wb1w/3ww1w1/3bbb1w/1b3wb1/3ww3/5w2 w";
constexpr const char* ThreefoldRoot = "8/6w1/5b1w/3wwww1/3bbb1w/5wb1/1b1ww3/5w2 w";

TEST(LoaSearch, ASessionClaimsNoWinThatTheGamesRepetitionRefutes) {
    for (const char* spec : {"full", "full,threads=2", "pvs+tt", "full,tt_replace=always"}) {
        engine::Session session;
        session.set_option("Variant", spec);
        search::ClockLimits clock;
        clock.depth = 6;
        session.set_game(Game(Position::from_text(WonAlone)));
        const auto alone = session.think(clock);
        ASSERT_TRUE(search::is_decisive(alone.score)) << spec << ": the premise, P won when set up alone";
        Game game(Position::from_text(ThreefoldRoot));
        for (const char* m : {"f5e6", "b2b3", "e6f5", "b3b2", "f5e6", "b2b3"}) game.play(m);
        ASSERT_EQ(game.position().to_text(), Position::from_text(WonAlone).to_text());
        Game refuted = game;
        refuted.play("e6f5");
        refuted.play("b3b2");
        ASSERT_TRUE(refuted.over() && refuted.result().outcome == Outcome::Draw) << "the premise: e6f5 b3b2 repeats Q a third time";
        session.set_game(game);
        const auto again = session.think(clock);
        for (const auto& it : again.iterations)
            EXPECT_FALSE(search::is_decisive(it.score)) << spec << " depth " << it.depth << " " << search::format_score(it.score)
                                                        << " pv " << format_pv(it.pv);
        EXPECT_NE(move_to_compact(again.best_move), "e6f5") << spec;
    }
}

// With a ply limit, P searched with 6 plies left, then again with 2: a "win 5" is beyond it.
TEST(LoaSearch, ASessionClaimsNoWinBeyondThePlyLimit) {
    const RuleSet rules = parse_rules("olympiad,repetition=off,plylimit=6");
    for (const char* spec : {"full", "full,threads=2", "pvs+tt"}) {
        engine::Session session;
        session.set_option("Variant", spec);
        session.set_option("Rules", "olympiad,repetition=off,plylimit=6");
        search::ClockLimits clock;
        clock.depth = 6;
        session.set_game(Game(Position::from_text(WonAlone), rules));
        (void)session.think(clock);
        Game game(Position::from_text(WonAlone), rules);
        for (const char* m : {"f1e1", "b3b2", "e1f1", "b2b3"}) game.play(m);
        ASSERT_EQ(plies_until_limit(game), 2);
        session.set_game(game);
        const auto near_the_end = session.think(clock);
        for (const auto& it : near_the_end.iterations) {
            if (!search::is_decisive(it.score)) continue;
            const int plies = std::abs(search::plies_to_end(it.score));
            EXPECT_LE(plies, 2) << spec << " " << search::format_score(it.score);
            EXPECT_TRUE(and_or::forced_win_within(game.position(), it.score > 0, std::min(plies, 2)))
                << spec << " " << search::format_score(it.score) << " pv " << format_pv(it.pv);
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
    "full,aspiration_research=full,tt_replace=always", "full,futility=off,ext_futility=off,razoring=off",
    "full,futility=40,ext_futility=80,razoring=160,multicut=on,mc_cuts=2", "full,multicut=on",
    "full,multicut=on,mc_types=alternate", "full,extensions=on,multicut=on",
    "full,rfp=on,lmp=3,lmr_formula=log,iir=4,lmr_history=on", "full,rfp=20,rfp_depth=10,lmp=1,lmp_depth=8,lmr_formula=log,iir=2",
    "full,countermove=killer", "full,countermove=history",
};

// The LMR constants SPSA tunes act: from the values SPSA started from, two-ply reductions from
// depth 4 (instead of 6) or after one lmr_min_moves (instead of three) shrink the tree.
TEST(LoaSearch, TheLmrConstantsAct) {
    std::uint64_t standard = 0, deeper_earlier = 0, sooner = 0;
    const std::string start = "full,lmr_min_depth=3,lmr_min_moves=3,lmr_deep_depth=6,lmr_deep_moves=3";
    for (std::size_t i = 0; i < 8; ++i) {
        const Position pos = loa::parse_position(loa::BenchPositions[i].text);
        standard += run(start.c_str(), pos, 7).stats.nodes;
        deeper_earlier += run((start + ",lmr_deep_depth=4").c_str(), pos, 7).stats.nodes;
        sooner += run((start + ",lmr_deep_moves=1").c_str(), pos, 7).stats.nodes;
    }
    EXPECT_LT(deeper_earlier, standard);
    EXPECT_LT(sooner, standard);
}

// The pruning of issue 85 acts, each switch on its own (its counter moves and the tree at a
// fixed depth shrinks), the log formula reduces more as its divisor shrinks, and lmr_history
// reduces moves without a success one ply more.
TEST(LoaSearch, ReverseFutilityLateMovePruningIirAndTheLogLmrAct) {
    std::uint64_t plain = 0, rfp = 0, lmp = 0, iir = 0, log_gentle = 0, log_steep = 0, by_history = 0, butterfly = 0,
                  butterfly_by_history = 0;
    search::SearchStats counted;
    for (std::size_t i = 0; i < 8; ++i) {
        const Position pos = loa::parse_position(loa::BenchPositions[i].text);
        const auto full = run("full", pos, 7);
        plain += full.stats.nodes;
        EXPECT_EQ(full.stats.rfp_cutoffs + full.stats.lmp_prunes + full.stats.iir_reductions, 0u);
        const auto with_rfp = run("full,rfp=on", pos, 7);
        const auto with_lmp = run("full,lmp=3", pos, 7);
        const auto with_iir = run("full,iir=3", pos, 7);
        rfp += with_rfp.stats.nodes, counted.rfp_cutoffs += with_rfp.stats.rfp_cutoffs;
        lmp += with_lmp.stats.nodes, counted.lmp_prunes += with_lmp.stats.lmp_prunes;
        iir += with_iir.stats.nodes, counted.iir_reductions += with_iir.stats.iir_reductions;
        log_gentle += run("full,lmr_formula=log,lmr_log_base=0,lmr_log_div=1000", pos, 7).stats.nodes;
        log_steep += run("full,lmr_formula=log,lmr_log_base=0,lmr_log_div=150", pos, 7).stats.nodes;
        by_history += run("full,lmr_history=on", pos, 7).stats.nodes;
        // Butterfly boards count no successes: the switch leaves them alone.
        butterfly += run("full,history=butterfly", pos, 7).stats.nodes;
        butterfly_by_history += run("full,history=butterfly,lmr_history=on", pos, 7).stats.nodes;
    }
    EXPECT_GT(counted.rfp_cutoffs, 0u);
    EXPECT_GT(counted.lmp_prunes, 0u);
    EXPECT_GT(counted.iir_reductions, 0u);
    EXPECT_LT(rfp, plain);
    EXPECT_LT(lmp, plain);
    EXPECT_NE(iir, plain);  // a reduced node may cost its parent more: on these 8 the tree grows
    EXPECT_LT(log_steep, log_gentle);
    EXPECT_LT(by_history, plain);
    EXPECT_EQ(butterfly_by_history, butterfly);
}

// The selective switches do act (on endgame-like positions, where evaluations spread), and
// `full` is the classic preset plus the frontier trio, node for node, in both directions.
TEST(LoaSearch, SelectiveSearchPrunesAndFullIsTheClassicPresetPlusTheFrontier) {
    search::SearchStats total;
    std::uint64_t plain_nodes = 0, on_nodes = 0, off_nodes = 0, classic_nodes = 0, frontier_nodes = 0, frontier_alternate_nodes = 0, alternate_tries = 0;
    std::uint64_t unreachable_tries = 0, unreachable_nodes = 0;
    int positions_with_other_tries = 0;
    for (const Position& pos : testing::sparse_positions(21, 12, 5, 8)) {
        const auto selective = run("full,futility=40,ext_futility=80,razoring=160,multicut=on", pos, 6);
        total.futility_prunes += selective.stats.futility_prunes;
        total.razorings += selective.stats.razorings;
        total.multicut_tries += selective.stats.multicut_tries;
        const auto alternate = run("full,futility=40,ext_futility=80,razoring=160,multicut=on,mc_types=alternate", pos, 6);
        alternate_tries += alternate.stats.multicut_tries;
        if (alternate.stats.multicut_tries != selective.stats.multicut_tries) ++positions_with_other_tries;
        // `full` is the 8 classic enhancements plus the frontier trio with its standard margins
        // and the tuned numbers.
        plain_nodes += run("full", pos, 6).stats.nodes;
        on_nodes += run("pvs+asp+tt+killers+rhh+caps+null+lmr+tuned,futility=on,ext_futility=on,razoring=on,multicut=off", pos, 6).stats.nodes;
        off_nodes += run("full,futility=off,ext_futility=off,razoring=off", pos, 6).stats.nodes;
        classic_nodes += run("pvs+asp+tt+killers+rhh+caps+null+lmr+tuned", pos, 6).stats.nodes;
        // Node types serve multi-cut alone: without it the scheme changes nothing, not even
        // in the frontier rules, null-move verification or extensions.
        const char* const frontier = "full,futility=40,ext_futility=80,razoring=160,extensions=on,null_verify=on";
        frontier_nodes += run(frontier, pos, 6).stats.nodes;
        frontier_alternate_nodes += run((std::string(frontier) + ",mc_types=alternate").c_str(), pos, 6).stats.nodes;
        // A node with fewer legal moves than mc_cuts cannot be cut by multi-cut: no try, no cost
        // (8 pieces a side at most, at most 8 moves a piece, and pieces in a small box block each other).
        const auto unreachable = run("full,multicut=on,mc_moves=64,mc_cuts=64", pos, 6);
        unreachable_tries += unreachable.stats.multicut_tries;
        unreachable_nodes += unreachable.stats.nodes;
    }
    EXPECT_GT(total.futility_prunes, 0u);
    EXPECT_GT(total.razorings, 0u);
    EXPECT_GT(total.multicut_tries, 0u);
    EXPECT_GT(alternate_tries, 0u);
    EXPECT_GT(positions_with_other_tries, 0);  // the scheme moves the tries
    EXPECT_EQ(plain_nodes, on_nodes);
    EXPECT_EQ(off_nodes, classic_nodes);
    EXPECT_LT(plain_nodes, off_nodes);  // the trio prunes
    EXPECT_EQ(frontier_nodes, frontier_alternate_nodes);
    EXPECT_EQ(unreachable_tries, 0u);
    EXPECT_EQ(unreachable_nodes, plain_nodes);
}

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

TEST(LoaSearch, AGameLengthRuleDrawsWhatIsNotDecidedInTime) {
    // A win in three: out of reach when the game is drawn two plies below the root, found
    // when it ends three plies below (the connection decides before the limit draws).
    for (const Position& pos : puzzles().win_in_three) {
        for (const char* spec : {"ab", "full"}) {
            LoaSearcher searcher(SearchGame{}, variant::parse_variant(spec));
            search::SearchLimits limits;
            limits.depth = 4;
            limits.game_plies_left = 2;
            EXPECT_LE(searcher.search(pos, limits).score, search::DrawScore) << spec << " " << pos.to_text();
            searcher.new_game();
            limits.game_plies_left = 3;
            EXPECT_EQ(searcher.search(pos, limits).score, search::win_in(3)) << spec << " " << pos.to_text();
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
    for (const char* spec : {"full", "pvs+tt+rhh", "ab", "full,countermove=killer"}) {
        LoaSearcher a(SearchGame{}, variant::parse_variant(spec));
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

// The evaluation cache saves time only: a searcher keeps it across searches, and every search
// of a game gives the score, line and node count it gives without the cache. With the network a
// cached value also skips its accumulators, which a later evaluation below must make up.
TEST(LoaSearch, TheEvaluationCacheChangesNoValueAndNoNodeCount) {
    for (const char* eval : {"hce", "nnue"}) {
        const SearchGame game = SearchGame::from_spec(RuleSet{}, eval);
        for (const char* spec : {"full", "pvs+tt+rhh", "ab"}) {
            SCOPED_TRACE(std::string(eval) + " " + spec);
            auto with = variant::parse_variant(spec), without = with;
            with.eval_cache = true;
            without.eval_cache = false;
            LoaSearcher cached(game, with), plain(game, without);
            search::SearchLimits limits;
            limits.depth = 4;
            for (const Position& pos : testing::sample_when_sanitized(middle_game_positions(6, 31), 2)) {
                const auto a = cached.search(pos, limits), b = plain.search(pos, limits);
                EXPECT_EQ(a.score, b.score);
                EXPECT_EQ(a.pv, b.pv);
                EXPECT_EQ(a.stats.nodes, b.stats.nodes);
                EXPECT_EQ(a.stats.qnodes, b.stats.qnodes);
            }
        }
    }
}

TEST(LoaSearch, ThirdOccurrenceOfAGamePositionIsADrawNotTheSecond) {
    // White to move; c2-a2 returns to the start position. An evaluation that loves that
    // position for White makes c2-a2 the best move unless it is a draw by repetition.
    const Key start_key = Position::start().key();
    auto loves_start = [start_key](const Position& p) { return p.key() == start_key ? -1000 : 5; };
    const SearchGame game_model(RuleSet{}, loves_start);
    search::SearchLimits limits;
    limits.depth = 1;
    const char* spec = "pvs,qsearch=off";
    auto search_after = [&](const std::vector<const char*>& moves, const SearchGame& model) {
        Game game;
        for (const char* m : moves) game.play(m);
        LoaSearcher searcher(model, variant::parse_variant(spec));
        return searcher.search(game.position(), limits, search_history(game));
    };
    // The start position stands once in the game: c2-a2 makes its second occurrence, which
    // the rules do not draw.
    const auto second = search_after({"b1-b3", "a2-c2", "b3-b1"}, game_model);
    EXPECT_EQ(second.score, 1000);
    EXPECT_EQ(move_to_text(second.best_move), "c2-a2");
    // Twice already: c2-a2 is the third occurrence, a draw (which still beats -5).
    const std::vector<const char*> twice = {"b1-b3", "a2-c2", "b3-b1", "c2-a2", "b1-b3", "a2-c2", "b3-b1"};
    const auto third = search_after(twice, game_model);
    EXPECT_EQ(third.score, search::DrawScore);
    EXPECT_EQ(move_to_text(third.best_move), "c2-a2");
    // With the repetition rule switched off the history does not matter.
    EXPECT_EQ(search_after(twice, SearchGame(parse_rules("repetition=off"), loves_start)).score, 1000);
}

TEST(LoaSearch, ARootMoveThatBeatTheBestInAnUnfinishedIterationIsPlayedWithItsOwnLine) {
    // Positions where iteration d changes the best move, searched again with node limits that
    // stop inside iteration d. Once the new move has beaten the old one at depth d (raised
    // alpha, failed high against the aspiration window, or failed high on its scout search),
    // a search stopped there plays it, not the previous iteration's choice.
    for (const char* spec : {"pvs+tt+killers+rhh", "full"}) {
        int found = 0, unfinished_lines = 0, exact_lines = 0;
        for (const Position& pos : middle_game_positions(30, 900)) {
            const auto full = run(spec, pos, 4);
            std::size_t d = 1;  // index of the first iteration whose best move differs
            while (d < full.iterations.size() && full.iterations[d].pv.front() == full.iterations[d - 1].pv.front()) ++d;
            if (d == full.iterations.size()) continue;
            const Move after = full.iterations[d].pv.front();
            const std::uint64_t from = full.iterations[d - 1].nodes, to = full.iterations[d].nodes;
            bool played_early = false;
            for (std::uint64_t k = 1; k < 40; ++k) {
                LoaSearcher searcher(SearchGame{}, variant::parse_variant(spec));
                search::SearchLimits limits;
                limits.depth = static_cast<int>(d) + 1;
                limits.nodes = from + (to - from) * k / 40;
                const auto r = searcher.search(pos, limits);
                ASSERT_EQ(r.depth, static_cast<int>(d)) << spec << " " << pos.to_text();
                ASSERT_TRUE(is_legal(pos, r.best_move));
                ASSERT_EQ(r.pv.front(), r.best_move);
                if (r.best_move == after) played_early = true;
                // The move played has its own line when it is not the last iteration's: the
                // unfinished depth, its PV, and a score that the finished iteration confirms
                // (the same search up to the stop: equal when exact, at most it when a bound).
                const bool changed = r.best_move != r.iterations.back().pv.front();
                ASSERT_EQ(r.unfinished.has_value(), changed);
                if (!changed) continue;
                ++unfinished_lines;
                EXPECT_EQ(r.unfinished->depth, static_cast<int>(d) + 1);
                EXPECT_EQ(r.unfinished->pv.front(), r.best_move);
                EXPECT_EQ(r.unfinished->pv, r.pv);
                if (r.best_move != after) continue;
                if (r.unfinished_bound == search::Bound::Lower) {
                    EXPECT_LE(r.unfinished->score, full.iterations[d].score);
                } else if (r.unfinished_bound == search::Bound::Exact) {
                    EXPECT_EQ(r.unfinished->score, full.iterations[d].score);
                }
                exact_lines += r.unfinished_bound == search::Bound::Exact;
            }
            EXPECT_TRUE(played_early) << spec << " depth " << d + 1 << " " << pos.to_text();
            if (++found == 3) break;
        }
        EXPECT_EQ(found, 3) << spec;
        EXPECT_GT(unfinished_lines, 0) << spec;
        std::printf("%s: %d unfinished lines, %d of them exact\n", spec, unfinished_lines, exact_lines);
    }
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
