// The contract between the search core and a game. The core never names a game type: a
// game is modelled by an adapter object with these members (see loa/search_game.hpp for
// Lines of Action and tests/support/artificial_tree.hpp for a synthetic tree).
#pragma once

#include <concepts>
#include <cstdint>
#include <span>
#include <type_traits>
#include <utility>

#include "common/search/score.hpp"

namespace search {

// Result of the rules for a position just reached, from its side to move's point of view.
enum class Status : std::uint8_t { Ongoing, Win, Loss, Draw };

template <class G>
concept Game = requires(const G& game, typename G::Position& pos, const typename G::Position& cpos,
                        typename G::Move move, typename G::MoveList& moves) {
    typename G::Position;
    typename G::Move;
    typename G::MoveList;
    // Every legal move; a side with no real move gets the game's pass move if it has one.
    { game.generate(cpos, moves) } -> std::same_as<void>;
    { game.make(pos, move) } -> std::same_as<void>;
    { game.unmake(pos, move) } -> std::same_as<void>;
    { game.key(cpos) } -> std::same_as<std::uint64_t>;
    // Rules applied to the position reached (connection, no-move rules); not repetitions,
    // which the search tracks itself.
    { game.status(cpos) } -> std::same_as<Status>;
    { game.repetition_draws() } -> std::same_as<bool>;
    // Static evaluation for the side to move, inside (-EvalLimit, EvalLimit).
    { game.evaluate(cpos) } -> std::convertible_to<Score>;
    // Moves quiescence search follows at `level` (1: captures, 2: a stricter tactical rule).
    { game.is_quiescence_move(cpos, move, 1) } -> std::same_as<bool>;
    // Ordering knowledge: is the move a capture, and how promising is it among captures.
    { game.is_capture(move) } -> std::same_as<bool>;
    { game.capture_order(cpos, move) } -> std::convertible_to<int>;
    // Moves that make earlier positions unreachable (limits the repetition scan).
    { game.is_irreversible(move) } -> std::same_as<bool>;
    // Index of a move (with the side to move) into history tables, < G::MoveIndexCount.
    { game.move_index(cpos, move) } -> std::convertible_to<int>;
    { G::MoveIndexCount } -> std::convertible_to<int>;
    // Null move: passing the turn. Allowed only where the side to move has a real move.
    { game.null_move() } -> std::same_as<typename G::Move>;
    { game.null_move_allowed(cpos) } -> std::same_as<bool>;
    // Search extension in plies for the move just made (0 when none applies).
    { game.extension(cpos, move) } -> std::convertible_to<int>;
    { move == move } -> std::convertible_to<bool>;
    { G::Move::none() } -> std::same_as<typename G::Move>;
    { move.raw() } -> std::convertible_to<std::uint16_t>;
    { G::Move::from_raw(std::uint16_t{}) } -> std::same_as<typename G::Move>;
};

// The optional capabilities below, asked by `if constexpr`, are traits as well as concepts:
// C++17's detection idiom, so that the search core also compiles as C++17 (the CodinGame bot,
// scripts/codingame/, drops the concepts and keeps these).
// Each asks what its concept below asks (convertible to int, as std::convertible_to does).
template <class G>
using PhaseOf = decltype(std::declval<const G&>().phase(std::declval<const typename G::Position&>()));
template <class G, class = void>
inline constexpr bool has_phase = false;
template <class G>
inline constexpr bool has_phase<G, std::void_t<PhaseOf<G>, decltype(G::MaxPhase)>> =
    std::is_convertible_v<PhaseOf<G>, int> && std::is_convertible_v<decltype(G::MaxPhase), int>;
template <class G>
using RealizationCategoryOf = decltype(std::declval<const G&>().realization_category(std::declval<const typename G::Position&>(),
                                                                                      std::declval<typename G::Move>()));
template <class G>
using RealizationProbabilitiesOf = decltype(std::declval<const G&>().realization_probabilities());
template <class G, class = void>
inline constexpr bool has_realization = false;
template <class G>
inline constexpr bool has_realization<G, std::void_t<RealizationCategoryOf<G>, RealizationProbabilitiesOf<G>>> =
    std::is_convertible_v<RealizationCategoryOf<G>, int> &&
    std::is_convertible_v<RealizationProbabilitiesOf<G>, std::span<const double>>;

// A game that can tell when the side to move may lose on the next move (LOA: the opponent's
// pieces are two groups): reverse futility and late move pruning, which trust a static
// evaluation or a move count, stand aside there.
template <class G>
using ThreatenedOf = decltype(std::declval<const G&>().threatened(std::declval<const typename G::Position&>()));
template <class G, class = void>
inline constexpr bool has_threat = false;
template <class G>
inline constexpr bool has_threat<G, std::void_t<ThreatenedOf<G>>> = std::is_convertible_v<ThreatenedOf<G>, bool>;

// A game that can generate its captures alone, in the order generate() lists them, and whose
// quiescence moves (is_quiescence_move at every level) are all captures: quiescence search
// then skips the quiet moves, with the same moves in the same order.
template <class G>
using CaptureGeneratorOf = decltype(std::declval<const G&>().generate_captures(std::declval<const typename G::Position&>(),
                                                                                std::declval<typename G::MoveList&>()));
template <class G, class = void>
inline constexpr bool has_capture_generator = false;
template <class G>
inline constexpr bool has_capture_generator<G, std::void_t<CaptureGeneratorOf<G>>> = true;

// A game whose evaluation swings more as the material thins out: frontier margins taper
// between their opening value (at G::MaxPhase) and their endgame value (at 0) by its phase.
template <class G>
concept PhasedGame = Game<G> && requires(const G& game, const typename G::Position& pos) {
    { game.phase(pos) } -> std::convertible_to<int>;
    { G::MaxPhase } -> std::convertible_to<int>;
};

// A game that can tell ERPS how likely a move is: the category of a move (negative for a move
// without one, such as a forced pass, which costs one ply) and the realization probability of
// each category.
template <class G>
concept RealizationGame = Game<G> && requires(const G& game, const typename G::Position& pos, typename G::Move move) {
    { game.realization_category(pos, move) } -> std::convertible_to<int>;
    { game.realization_probabilities() } -> std::convertible_to<std::span<const double>>;
};

}  // namespace search
