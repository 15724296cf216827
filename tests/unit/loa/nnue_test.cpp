// The learned evaluation's engine side (loa/nnue/, docs/nnue.md): the network file's reader,
// the SIMD kernels against their scalar references, the incremental accumulators against a
// refresh, and the colour swap. The trainer's own vectors check the arithmetic against the
// specification independently (NnueVectors below).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>
#include <functional>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <random>

#include "common/fnv1a.hpp"
#include "common/text.hpp"
#include "loa/searchers.hpp"
#include "loa/engine/session.hpp"
#include "loa/movegen.hpp"
#include "loa/position_text.hpp"
#include "loa/nnue/accumulator.hpp"
#include "loa/nnue/connectivity_inputs.hpp"
#include "loa/nnue/features.hpp"
#include "loa/nnue/layers.hpp"
#include "loa/nnue/network.hpp"
#include "loa/nnue/shipped.hpp"
#include "loa/search_game.hpp"
#include "loa/symmetry.hpp"
#include "support/test_positions.hpp"

namespace loa::nnue {
namespace {

Network random_network(std::uint64_t seed, int accumulator_size = 32, int hidden_size = 8, int extra_inputs_set = 0) {
    return nnue::random_network(seed, accumulator_size, hidden_size, extra_inputs_set);
}

std::shared_ptr<const Network> shared(Network net) {
    // Through the file format, so that the checksum the reader fills in is set.
    return std::make_shared<const Network>(parse_network(serialize_network(net), "test"));
}

// The evaluation recomputed from scratch: a fresh stack, which refreshes.
int refreshed_evaluation(const std::shared_ptr<const Network>& net, const Position& pos) {
    AccumulatorStack fresh(net);
    return fresh.evaluate(pos);
}

TEST(NnueFile, RoundTripKeepsEveryField) {
    const Network net = random_network(1, 48, 12);
    const std::string bytes = serialize_network(net);
    const Network back = parse_network(bytes, "test");
    EXPECT_EQ(back.accumulator_size, 48);
    EXPECT_EQ(back.hidden_size, 12);
    EXPECT_EQ(back.output_scale, 400);
    EXPECT_EQ(back.description, net.description);
    EXPECT_EQ(back.checksum, common::fnv1a(std::string_view(bytes).substr(0, bytes.size() - 8)));
    EXPECT_EQ(back.ft_bias, net.ft_bias);
    EXPECT_EQ(back.ft_weight, net.ft_weight);
    EXPECT_EQ(back.l1_bias, net.l1_bias);
    EXPECT_EQ(back.l1_weight, net.l1_weight);
    EXPECT_EQ(back.out_bias, net.out_bias);
    EXPECT_EQ(back.out_weight, net.out_weight);
    EXPECT_EQ(serialize_network(back), bytes);
}

void expect_refused(const std::string& bytes, const std::string& fault) {
    try {
        (void)parse_network(bytes, "net.nnue");
        ADD_FAILURE() << "accepted a file that should fail with: " << fault;
    } catch (const common::InputError& e) {
        EXPECT_NE(std::string(e.what()).find(fault), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).rfind("net.nnue", 0), 0u) << e.what();
    }
}

// Rewrites a header field and the checksum after it, so that only the field is wrong.
std::string with_field(std::string bytes, std::size_t offset, std::uint32_t value) {
    std::memcpy(bytes.data() + offset, &value, sizeof value);
    const std::uint64_t sum = common::fnv1a(std::string_view(bytes).substr(0, bytes.size() - 8));
    std::memcpy(bytes.data() + bytes.size() - 8, &sum, sizeof sum);
    return bytes;
}

TEST(NnueFile, EveryFaultIsRefusedByName) {
    const std::string good = serialize_network(random_network(2, 16, 4));
    expect_refused("", "not a LOA network file");
    expect_refused("LOA-NNUX" + good.substr(8), "not a LOA network file");
    expect_refused(with_field(good, 8, 3), "version 3");
    // A version-1 file relabelled 2 reads its description's length as the extra inputs' set.
    expect_refused(with_field(good, 8, 2), "the extra inputs' set is 22");
    expect_refused(with_field(good, 12, 64), "the input count is 64");
    expect_refused(with_field(good, 16, 24), "the accumulator size is 24");
    expect_refused(with_field(good, 16, 2048), "the accumulator size is 2048");
    expect_refused(with_field(good, 20, 6), "the hidden size is 6");
    expect_refused(with_field(good, 24, 0), "the output scale is 0");
    expect_refused(with_field(good, 28, 5000), "the description's length is 5000");
    // Every truncation (the magic's first bytes excepted) names the field it ends in.
    for (std::size_t size = 8; size < good.size(); ++size) expect_refused(good.substr(0, size), "truncated");
    expect_refused(good + "x", "1 unexpected bytes after the checksum");
    for (const std::size_t offset : {std::size_t{40}, good.size() / 2, good.size() - 9}) {
        std::string damaged = good;
        damaged[offset] = static_cast<char>(damaged[offset] ^ 0x10);
        expect_refused(damaged, "wrong checksum");
    }
}

// A net with the connectivity inputs is a version-2 file: the set named after S, the hidden
// layer's rows 8 values longer. Set 0 is written as version 1, so older nets stay as they were.
TEST(NnueFile, ConnectivityInputsMakeAVersionTwoFile) {
    const Network net = random_network(41, 32, 8, ConnectivityInputsSet);
    EXPECT_EQ(net.hidden_row_size(), 2u * 32 + 8);
    EXPECT_EQ(net.l1_weight.size(), (2u * 32 + 8) * 8);
    const std::string bytes = serialize_network(net);
    std::uint32_t version = 0, set = 0;
    std::memcpy(&version, bytes.data() + 8, 4);
    std::memcpy(&set, bytes.data() + 28, 4);
    EXPECT_EQ(version, 2u);
    EXPECT_EQ(set, 1u);
    const Network back = parse_network(bytes, "test");
    EXPECT_EQ(back.extra_inputs_set, ConnectivityInputsSet);
    EXPECT_EQ(back.l1_weight, net.l1_weight);
    EXPECT_EQ(serialize_network(back), bytes);
    expect_refused(with_field(bytes, 28, 0), "the extra inputs' set is 0");
    expect_refused(with_field(bytes, 28, 2), "the extra inputs' set is 2");
    for (std::size_t size = 8; size < bytes.size(); size += 7) expect_refused(bytes.substr(0, size), "truncated");
    std::uint32_t plain_version = 0;
    const std::string plain = serialize_network(random_network(41, 32, 8));
    std::memcpy(&plain_version, plain.data() + 8, 4);
    EXPECT_EQ(plain_version, 1u);
}

TEST(NnueFile, WeightsThatCouldOverflowTheKernelsAreRefused) {
    Network wide = random_network(3, 16, 4);
    for (std::size_t f = 0; f < 24; ++f) wide.ft_weight[f * 16 + 5] = 1400;  // 24 x 1400 > 32767
    expect_refused(serialize_network(wide), "accumulator could overflow (unit 5)");
    Network biased = random_network(3, 16, 4);
    biased.l1_bias[2] = std::numeric_limits<std::int32_t>::max() - 10;
    expect_refused(serialize_network(biased), "hidden-layer bias");
    // The bound counts the extra inputs' columns: a bias safe for 2H products but not for 2H + 8.
    Network connected = random_network(3, 16, 4, ConnectivityInputsSet);
    connected.l1_bias[1] = std::numeric_limits<std::int32_t>::max() - 2 * 16 * 127 * 128;
    expect_refused(serialize_network(connected), "hidden-layer bias");
    Network unknown_set = random_network(3, 16, 4);
    unknown_set.extra_inputs_set = 2;
    EXPECT_THROW((void)serialize_network(unknown_set), std::logic_error);
}

// The engine reads its evaluation's file when the option is set, once: the searchers it builds
// later (after a change of rules or variant, after its tables were released) copy what was
// read, so that a file changed or removed afterwards changes no search and fails none.
TEST(NnueSession, TheNetworkFileIsReadOnceWhenItsOptionIsSet) {
    const auto path = std::filesystem::temp_directory_path() / ("loa-nnue-session-" + std::to_string(::getpid()) + ".nnue");
    {
        std::ofstream out(path, std::ios::binary);
        out << serialize_network(random_network(11));
    }
    engine::Session session;
    session.set_option("Eval", path.string());
    Game game;
    game.play("b1-d3");
    session.set_game(game);
    search::ClockLimits clock;
    clock.depth = 4;
    const auto before = session.think(clock);
    engine::Session reference;  // the same file, read by a session of its own
    reference.set_option("Eval", path.string());
    reference.set_game(game);
    const auto expected = reference.think(clock);
    EXPECT_EQ(before.score, expected.score);
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out << serialize_network(random_network(12));  // rewritten in place: another net
    }
    session.release();
    session.set_option("Rules", "olympiad");  // a new game at the start position: set ours again
    session.set_option("Variant", "full");
    session.set_game(game);
    const auto after = session.think(clock);
    EXPECT_EQ(after.score, expected.score);
    EXPECT_EQ(after.best_move, expected.best_move);
    std::filesystem::remove(path);
    session.release();
    EXPECT_EQ(session.think(clock).score, expected.score);
    EXPECT_THROW(session.set_option("Eval", path.string()), common::InputError);  // gone: refused when set
    EXPECT_EQ(session.think(clock).score, expected.score);  // and the last good one stays
}

TEST(NnueFile, MissingAndSpecialFilesAreRefused) {
    EXPECT_THROW((void)load_network_file("/nonexistent/net.nnue"), common::InputError);
    EXPECT_THROW((void)load_network_file("/dev/zero"), common::InputError);
    EXPECT_THROW((void)SearchGame::from_spec(RuleSet{}, "/nonexistent/net.nnue"), common::InputError);
    const auto path = std::filesystem::temp_directory_path() / ("loa-nnue-test-" + std::to_string(::getpid()) + ".nnue");
    {
        std::ofstream out(path, std::ios::binary);
        out << serialize_network(random_network(4));
    }
    const SearchGame game = SearchGame::from_spec(RuleSet{}, path.string());
    ASSERT_NE(game.network(), nullptr);
    EXPECT_EQ(game.network()->network().accumulator_size, 32);
    std::filesystem::remove(path);
}

TEST(NnueKernels, SimdEqualsScalarOnEveryInput) {
    std::mt19937_64 rng(5);
    for (const auto& [h, l] : {std::pair{16, 4}, std::pair{32, 8}, std::pair{128, 32}, std::pair{256, 16}}) {
        const Network net = random_network(static_cast<std::uint64_t>(h * l), h, l);
        std::vector<std::int16_t> stm(static_cast<std::size_t>(h)), other(static_cast<std::size_t>(h));
        for (int trial = 0; trial < 200; ++trial) {
            // Values across and beyond the clipped ReLU's 0..127, both signs.
            for (auto* acc : {&stm, &other})
                for (auto& v : *acc) v = static_cast<std::int16_t>(std::uniform_int_distribution<int>(-400, 400)(rng));
            ASSERT_EQ(propagate(net, stm.data(), other.data()), propagate_scalar(net, stm.data(), other.data()))
                << "H " << h << " L " << l << " trial " << trial;
        }
    }
}

TEST(NnueKernels, SimdEqualsScalarWithTheConnectivityInputs) {
    std::mt19937_64 rng(15);
    for (const auto& [h, l] : {std::pair{16, 4}, std::pair{128, 32}}) {
        const Network net = random_network(static_cast<std::uint64_t>(h + l), h, l, ConnectivityInputsSet);
        std::vector<std::int16_t> stm(static_cast<std::size_t>(h)), other(static_cast<std::size_t>(h));
        std::array<std::uint8_t, 8> extras{};
        std::array<int, 8> read{};
        for (int trial = 0; trial < 200; ++trial) {
            for (auto* acc : {&stm, &other})
                for (auto& v : *acc) v = static_cast<std::int16_t>(std::uniform_int_distribution<int>(-400, 400)(rng));
            for (auto& e : extras) e = static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, 127)(rng));
            const int simd = propagate(net, stm.data(), other.data(), extras);
            ASSERT_EQ(simd, propagate_scalar(net, stm.data(), other.data(), extras)) << "H " << h << " trial " << trial;
            // Every input is read: moving it across its range changes the evaluation on some trial.
            for (std::size_t i = 0; i < extras.size(); ++i) {
                auto changed = extras;
                changed[i] = static_cast<std::uint8_t>(changed[i] > 63 ? 0 : 127);
                read[i] += propagate(net, stm.data(), other.data(), changed) != simd;
            }
        }
        for (std::size_t i = 0; i < read.size(); ++i) EXPECT_GT(read[i], 0) << "input " << i << " H " << h;
        EXPECT_THROW((void)propagate(net, stm.data(), other.data()), std::logic_error);
        extras[5] = 128;  // beyond the activations' range: the kernels' bounds assume 0..127
        EXPECT_THROW((void)propagate(net, stm.data(), other.data(), extras), std::logic_error);
    }
}

// The connectivity inputs on positions worked out by hand from their definitions (docs/nnue.md),
// and the same in each of the board's 8 symmetries and under the colour swap.
TEST(NnueConnectivityInputs, HandWorkedPositionsAndTheSymmetries) {
    // The start: each side two groups (E = 2: 4E = 8 -> 40), mean distance to the centre of
    // mass 3.5 (-> 63), a box of 6 x 8 (-> 94).
    const auto start = connectivity_inputs(Position::start());
    EXPECT_EQ(std::vector<int>(start.begin(), start.end()), (std::vector<int>{11, 40, 63, 94, 11, 40, 63, 94}));
    // A 2x2 block (one group, E = 1, mean distance 0.5, box 2 x 2) against a diamond (one
    // group round a hole: E = 0, mean distance 1, box 3 x 3); White to move.
    const Position pos = Position::from_text("8/8/8/8/8/5w2/1bb1w1w1/1bb2w2 w");
    const auto inputs = connectivity_inputs(pos);
    EXPECT_EQ(std::vector<int>(inputs.begin(), inputs.end()), (std::vector<int>{0, 24, 18, 16, 0, 32, 9, 6}));
    // A 12-piece checkerboard in a 5 x 5 square: one group round 4 holes (Q1 - Q3 - 2Qd = -16,
    // the Euler input clamped to 0), mean distance 5/3 (-> 30), a box of 25 (-> 48).
    const auto board = connectivity_inputs(Position::from_text("7w/8/8/1b1b4/b1b1b3/1b1b4/b1b1b3/1b1b4 b"));
    EXPECT_EQ(std::vector<int>(board.begin(), board.end()), (std::vector<int>{0, 0, 30, 48, 0, 32, 0, 0}));
    EXPECT_EQ(side_connectivity(0, 0), (std::array<std::uint8_t, 4>{0, 0, 0, 0}));
    for (const Position& p : testing::random_positions(12, 20, 80)) {
        const auto want = connectivity_inputs(p);
        for (int k = 1; k < 8; ++k) ASSERT_EQ(connectivity_inputs(transform(p, k)), want) << p.to_text() << " symmetry " << k;
        const auto swapped = connectivity_inputs(transform(p, 4, true));
        ASSERT_EQ(swapped, want) << p.to_text();
    }
}

TEST(NnueKernels, UpdateAddsAndRemovesColumnsExactly) {
    std::mt19937_64 rng(6);
    constexpr int H = 48;
    std::vector<std::int16_t> base(H), a(H), b(H), c(H), out(H);
    for (auto* v : {&base, &a, &b, &c})
        for (auto& x : *v) x = static_cast<std::int16_t>(std::uniform_int_distribution<int>(-3000, 3000)(rng));
    const std::int16_t* added[] = {a.data(), b.data()};
    const std::int16_t* removed[] = {c.data()};
    update_accumulator(base.data(), out.data(), H, added, removed);
    for (std::size_t i = 0; i < H; ++i) EXPECT_EQ(out[i], base[i] + a[i] + b[i] - c[i]) << i;
}

// The evaluation at every node of a depth-3 walk over the moves of random game positions
// (captures and passes included): the stack's incremental accumulators give exactly the
// refreshed evaluation.
// With the connectivity inputs too: the side that did not move takes its four from the entry
// below, and that is exact as well.
TEST(NnueAccumulator, IncrementalEqualsRefreshAtEveryNodeOfAWalk) {
    for (const int extra_inputs_set : {0, ConnectivityInputsSet}) {
        SCOPED_TRACE(extra_inputs_set);
        const auto net = shared(random_network(7, 32, 8, extra_inputs_set));
        const SearchGame game(RuleSet{}, net);
        std::uint64_t nodes = 0, captures = 0, passes = 0;
        std::function<void(Position&, int)> walk = [&](Position& pos, int depth) {
            ASSERT_EQ(game.evaluate(pos), refreshed_evaluation(net, pos)) << pos.to_text();
            ++nodes;
            if (depth == 0) return;
            MoveList moves;
            game.generate(pos, moves);
            // A few moves a node (captures first), and the null move where the search tries one.
            std::vector<Move> tried;
            for (const Move m : moves)
                if (m.is_capture() && tried.size() < 2) tried.push_back(m);
            for (std::size_t i = 0; i < moves.size() && tried.size() < 4; i += 5) tried.push_back(moves[i]);
            if (game.null_move_allowed(pos)) tried.push_back(game.null_move());
            for (const Move m : tried) {
                captures += m.is_capture();
                passes += m.is_pass();
                const Position before = pos;
                game.make(pos, m);
                walk(pos, depth - 1);
                game.unmake(pos, m);
                ASSERT_EQ(pos, before);
                // Back at the parent: still exact, from the stack's entry of it.
                ASSERT_EQ(game.evaluate(pos), refreshed_evaluation(net, pos));
            }
        };
        for (Position pos : testing::middle_game_positions(12, 71)) walk(pos, 3);
        EXPECT_GT(nodes, 1500u);
        EXPECT_GT(captures, 100u);
        EXPECT_GT(passes, 100u);
        // And it was incremental: one refresh a walk's root, an update a move.
        EXPECT_LE(game.network()->refreshes(), 12u);
        EXPECT_GE(game.network()->updates(), nodes - 12);
    }
}

// Only some nodes evaluated (the leaves of walks of depth 2 to 8): the stack computes chains of
// several moves from the nearest computed entry, or refreshes the parent when none is near.
TEST(NnueAccumulator, ChainsOfUnevaluatedMovesAreExact) {
    const auto net = shared(random_network(17));
    for (const int depth : {2, 5, 8}) {
        const SearchGame game(RuleSet{}, net);
        std::mt19937_64 rng(static_cast<std::uint64_t>(depth));
        std::uint64_t leaves = 0;
        std::function<void(Position&, int)> walk = [&](Position& pos, int left) {
            if (left == 0 || game.status(pos) != search::Status::Ongoing) {
                ASSERT_EQ(game.evaluate(pos), refreshed_evaluation(net, pos)) << pos.to_text();
                ++leaves;
                return;
            }
            MoveList moves;
            game.generate(pos, moves);
            for (int k = 0; k < 2; ++k) {
                const Move m = moves[static_cast<std::size_t>(rng() % moves.size())];
                game.make(pos, m);
                walk(pos, left - 1);
                game.unmake(pos, m);
            }
        };
        for (Position pos : testing::middle_game_positions(3, 41)) walk(pos, depth);
        EXPECT_GT(leaves, 10u);
        // Chains of up to 6 moves: one refresh a walk (its root), every other node one update.
        // Deeper: each leaf's parent is refreshed once, and each leaf is one update from it.
        const auto* evaluator = game.network();
        if (depth <= 5) {
            EXPECT_LE(evaluator->refreshes(), 3u) << depth;
            EXPECT_GT(evaluator->updates(), leaves) << depth;
        } else {
            EXPECT_GT(evaluator->refreshes(), leaves / 3);
            EXPECT_LE(evaluator->refreshes(), leaves / 2 + 3);
            EXPECT_EQ(evaluator->updates(), leaves);
        }
    }
}

// Whole random games played through the game's make (moves never taken back, past the stack's
// depth), then taken back to the start: exact all the way.
TEST(NnueAccumulator, LongGamesForwardAndBackStayExact) {
    const auto net = shared(random_network(8));
    const SearchGame game(RuleSet{}, net);
    std::size_t longest = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        const Game played = testing::random_game(seed, 400);
        longest = std::max(longest, played.moves().size());
        Position pos = Position::start();
        for (const Move m : played.moves()) {
            game.make(pos, m);
            ASSERT_EQ(game.evaluate(pos), refreshed_evaluation(net, pos));
        }
        for (auto it = played.moves().rbegin(); it != played.moves().rend(); ++it) {
            game.unmake(pos, *it);
            ASSERT_EQ(game.evaluate(pos), refreshed_evaluation(net, pos));
        }
        EXPECT_EQ(pos, Position::start());
    }
    EXPECT_GT(longest, 200u);  // past the stack's capacity (MaxPly + 16): it restarted on the way
}

// Boards no game reaches (more than 12 pieces a side), which could overflow the net's int16
// accumulator, get the hand-written evaluation.
TEST(NnueAccumulator, BoardsBeyondTwelvePiecesASideGetTheHandWrittenEvaluation) {
    const SearchGame game(RuleSet{}, shared(random_network(19)));
    const Position crowded = Position::from_text("bbbbbbbb/bbbbbbbb/8/8/8/8/wwwwwwww/wwwwwwww b");
    EXPECT_EQ(game.evaluate(crowded), Evaluator().evaluate(crowded));
    const Position start = Position::start();
    EXPECT_NE(game.evaluate(start), Evaluator().evaluate(start));  // (this random net's value differs)
}

TEST(NnueAccumulator, AMovedFromEvaluatorStillEvaluates) {
    const auto net = shared(random_network(23));
    SearchGame game(RuleSet{}, net);
    const SearchGame taken = std::move(game);
    Position pos = Position::start();
    MoveList moves;
    game.generate(pos, moves);
    game.make(pos, moves[3]);  // NOLINT(bugprone-use-after-move): what this test is about
    EXPECT_EQ(game.evaluate(pos), refreshed_evaluation(net, pos));
    EXPECT_EQ(taken.evaluate(pos), refreshed_evaluation(net, pos));
}

TEST(NnueFile, HceIsTheHandWrittenEvaluation) {
    const SearchGame hce = SearchGame::from_spec(RuleSet{}, "hce");
    EXPECT_EQ(hce.network(), nullptr);
    for (const Position& pos : testing::random_positions(29, 3, 40)) EXPECT_EQ(hce.evaluate(pos), Evaluator().evaluate(pos));
}

// Lazy SMP on two threads with a network: each thread's searcher owns a copy of the game and so
// its own stack (run under ThreadSanitizer by the test command: the name holds "LazySmp").
TEST(NnueLazySmp, TwoThreadsEachWithTheirOwnStack) {
    const auto net = shared(random_network(31, 64, 16));
    search::SearchConfig config = variant::preset_variant("full");
    config.tt_mb = 4;
    config.threads = 2;
    search::ParallelSearcher<SearchGame> searcher(SearchGame(RuleSet{}, net), config);
    search::SearchLimits limits;
    limits.depth = 6;
    for (const Position& pos : testing::middle_game_positions(2, 53)) {
        const auto result = searcher.search(pos, limits);
        MoveList moves;
        generate_moves(pos, moves);
        EXPECT_NE(std::find(moves.begin(), moves.end(), result.best_move), moves.end());
        EXPECT_LE(std::abs(result.score), EvalClamp);
    }
}

// Positions the stack did not follow (another line, a copy) are evaluated from scratch, not
// from a stale entry.
TEST(NnueAccumulator, PositionsOffTheStackAreNotReadFromIt) {
    const auto net = shared(random_network(9));
    const SearchGame game(RuleSet{}, net);
    const auto positions = testing::random_positions(10, 4, 60);
    Position line = Position::start();
    MoveList moves;
    game.generate(line, moves);
    game.make(line, moves[0]);
    for (const Position& other : positions) {
        ASSERT_EQ(game.evaluate(other), refreshed_evaluation(net, other));
        ASSERT_EQ(game.evaluate(line), refreshed_evaluation(net, line));
    }
    // A copy of the game starts its own stack.
    const SearchGame copy = game;
    Position pos = Position::start();
    copy.make(pos, moves[1]);
    EXPECT_EQ(copy.evaluate(pos), refreshed_evaluation(net, pos));
}

// The colour swap with the diagonal reflection maps the inputs of one perspective onto the
// other's: the evaluation is exactly the same (docs/nnue.md).
TEST(NnueSymmetry, ColourSwapWithTheDiagonalReflectionIsExact) {
    const auto net = shared(random_network(11));
    for (const Position& pos : testing::random_positions(12, 20, 80)) {
        const Position swapped = transform(pos, 4, true);
        ASSERT_EQ(refreshed_evaluation(net, pos), refreshed_evaluation(net, swapped)) << pos.to_text();
    }
    EXPECT_EQ(transform(Position::start(), 4, true), Position::from_text(std::string(StartPositionText).replace(StartPositionText.size() - 1, 1, "w")));
}

// The board's seven other symmetries are not built into the inputs: the trainer shows each
// position in a random one of its 8 images, and the shipped net learnt them that far. Over
// middle-game positions the mean |eval(image) - eval(position)| under each symmetry stays well
// below the evaluations' own size (measured over these 200 positions: loa-net-1 13.5 to 16.5
// centi-units under the seven symmetries against a mean |eval| of 54.3, loa-net-2 9.4 to 10.6
// against 48.2): a guard against a trainer whose images are wrong, not a claim of exactness.
TEST(NnueSymmetry, TheShippedNetNearlyKeepsTheBoardsSymmetries) {
    const auto net = shipped_network();
    const std::vector<Position> positions = testing::middle_game_positions(200, 5);
    double spread = 0;
    for (const Position& pos : positions) spread += std::abs(refreshed_evaluation(net, pos));
    spread /= static_cast<double>(positions.size());
    for (int k = 1; k < 8; ++k) {
        double asymmetry = 0;
        for (const Position& pos : positions)
            asymmetry += std::abs(refreshed_evaluation(net, transform(pos, k)) - refreshed_evaluation(net, pos));
        asymmetry /= static_cast<double>(positions.size());
        std::printf("symmetry %d: mean |difference| %.1f centi-units (mean |eval| %.1f)\n", k, asymmetry, spread);
        EXPECT_LT(asymmetry, 0.4 * spread) << "symmetry " << k;
    }
}

// A search with the incremental evaluation equals one that refreshes at every evaluation:
// same move, score and node count (the stack changes speed, never results).
TEST(NnueAccumulator, SearchMatchesAFullRefreshEvaluation) {
    const auto net = shared(random_network(13, 64, 16));
    for (const Position& pos : testing::middle_game_positions(4, 31)) {
        search::SearchConfig config = variant::preset_variant("full");
        config.tt_mb = 4;
        search::SearchLimits limits;
        limits.depth = 5;
        search::Searcher<SearchGame> incremental(SearchGame(RuleSet{}, net), config);
        search::Searcher<SearchGame> refreshing(
            SearchGame(RuleSet{}, SearchGame::CustomEvaluation([net](const Position& p) { return refreshed_evaluation(net, p); })),
            config);
        const auto a = incremental.search(pos, limits);
        const auto b = refreshing.search(pos, limits);
        EXPECT_EQ(a.best_move, b.best_move);
        EXPECT_EQ(a.score, b.score);
        EXPECT_EQ(a.stats.nodes, b.stats.nodes);
    }
}

// The trainer's own vectors (scripts/nnue/train.py, written from docs/nnue.md, not from this
// code): a small net trained on self-play data, and for 318 positions (validation positions
// with either side to move, colour-swapped images, odd piece mixes, the start) the PyTorch
// model's float evaluation and the quantised network's, computed in numpy integers
// (scripts/nnue/net_format.py: integer_eval).
// The vectors' error against the float model: the largest and the mean.
struct VectorErrors {
    double worst = 0, mean = 0;
};

VectorErrors check_vectors(const std::shared_ptr<const Network>& net, const std::string& vectors_path, int want_count = 318) {
    const SearchGame game(RuleSet{}, net);
    std::ifstream in(vectors_path);
    std::string line;
    int count = 0, white_to_move = 0;
    double total_error = 0, worst_error = 0;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#') continue;
        const auto fields = common::split(line, '|');
        EXPECT_EQ(fields.size(), 3u) << line;
        if (fields.size() != 3) return {};
        const Position pos = parse_position(common::trim(fields[0]));
        const double float_eval = std::stod(std::string(common::trim(fields[1])));
        const int integer_eval = std::stoi(std::string(common::trim(fields[2])));
        EXPECT_EQ(game.evaluate(pos), integer_eval) << line;
        EXPECT_EQ(refreshed_evaluation(net, pos), integer_eval) << line;
        const double error = std::abs(game.evaluate(pos) - float_eval);
        total_error += error;
        worst_error = std::max(worst_error, error);
        white_to_move += pos.side_to_move() == Colour::White;
        ++count;
    }
    EXPECT_EQ(count, want_count);
    EXPECT_GT(white_to_move, want_count / 3);
    return {worst_error, total_error / std::max(count, 1)};
}

TEST(NnueVectors, TheEngineComputesTheTrainersIntegerEvaluationExactly) {
    const VectorErrors errors = check_vectors(load_network_file(LOA_TEST_DATA_DIR "/nnue/test-h32.nnue"),
                                              LOA_TEST_DATA_DIR "/nnue/test-h32.vectors.txt");
    // The quantisation error the trainer reported for this net: max 5.9, mean 2.3 centi-units.
    EXPECT_LT(errors.worst, 6.0);
    EXPECT_LT(errors.mean, 2.4);
}

// The same for a small net with the connectivity inputs (trained on 20,000 positions): the
// trainer computes them from their definitions in Python, so its integer evaluations hold the
// engine's connectivity_inputs to them too.
TEST(NnueVectors, TheConnectivityInputsAreTheTrainersExactly) {
    const auto net = load_network_file(LOA_TEST_DATA_DIR "/nnue/test-h32-conn.nnue");
    ASSERT_EQ(net->extra_inputs_set, ConnectivityInputsSet);
    const VectorErrors errors = check_vectors(net, LOA_TEST_DATA_DIR "/nnue/test-h32-conn.vectors.txt", 118);
    // The trainer's report for this net: see tests/data/nnue/README.md.
    EXPECT_LT(errors.worst, 8.0);
    EXPECT_LT(errors.mean, 3.0);
}

// A net of data/nets/ against the vectors beside it (STEM.vectors.txt): its trainer's integer
// evaluations exactly, the float ones within the error the trainer reported in its summary
// (STEM.json).
void expect_matches_its_vectors(const std::shared_ptr<const Network>& net, const std::filesystem::path& net_path) {
    std::filesystem::path stem = net_path;
    stem.replace_extension();
    const std::string vectors = stem.string() + ".vectors.txt";
    ASSERT_TRUE(std::filesystem::exists(vectors)) << vectors;
    std::ifstream summary_file(stem.string() + ".json");
    const nlohmann::json summary = nlohmann::json::parse(summary_file, nullptr, false);
    ASSERT_FALSE(summary.is_discarded()) << stem.string() << ".json";
    const VectorErrors errors = check_vectors(net, vectors);
    EXPECT_LE(errors.worst, summary.at("float_vs_integer").at("max_abs").get<double>() + 1e-3);
    EXPECT_LE(errors.mean, summary.at("float_vs_integer").at("mean_abs").get<double>() + 1e-3);
}

// The shipped net (H 128, L 32: the SIMD kernels at a real size) is the file of data/nets/ that
// loa/CMakeLists.txt names (LOA_SHIPPED_NET), and it matches its vectors.
TEST(NnueVectors, TheShippedNetIsDataNetsAndMatchesItsVectors) {
    const std::filesystem::path net_path = std::filesystem::path(LOA_DATA_DIR "/nets") / std::string(shipped_network_name());
    ASSERT_EQ(net_path.extension(), ".nnue");
    const auto file = load_network_file(net_path.string());
    EXPECT_EQ(shipped_network()->checksum, file->checksum);
    EXPECT_EQ(serialize_network(*shipped_network()), serialize_network(*file));
    EXPECT_EQ(shipped_network()->accumulator_size, 128);
    expect_matches_its_vectors(shipped_network(), net_path);
    const SearchGame game = SearchGame::from_spec(RuleSet{}, "nnue");
    ASSERT_NE(game.network(), nullptr);
    EXPECT_EQ(&game.network()->network(), shipped_network().get());
}

// Every net shipped in data/nets/ (the compiled-in one and those chosen by file, eval=FILE.nnue)
// is read and matches its vectors.
TEST(NnueVectors, EveryNetInDataNetsMatchesItsVectors) {
    int nets = 0;
    for (const auto& entry : std::filesystem::directory_iterator(LOA_DATA_DIR "/nets")) {
        if (entry.path().extension() != ".nnue") continue;
        SCOPED_TRACE(entry.path().string());
        expect_matches_its_vectors(load_network_file(entry.path().string()), entry.path());
        ++nets;
    }
    EXPECT_GE(nets, 1);
}

}  // namespace
}  // namespace loa::nnue
