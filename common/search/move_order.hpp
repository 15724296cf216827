// Move ordering for one node: every move gets a score, then moves are picked best first by
// selection (cheap when a cutoff comes early; ties keep generation order, so it is
// deterministic). Bands, highest first:
//   TT move (or, at the root, the previous iteration's best move)
//   refutation-table moves: the PV moves of the last two iterations at this ply
//   captures, when captures_first is on, ranked by the game's capture knowledge
//   killer moves, most recent first
//   the countermove: the reply that last refuted the move played before (countermove=killer),
//   here or first in the history band (countermove=history)
//   history, butterfly or relative history score (0 when history is off)
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <optional>
#include <span>

#include "common/search/config.hpp"
#include "common/search/game.hpp"
#include "common/search/history.hpp"

namespace search {

template <Game G>
class MoveOrder {
public:
    using Move = typename G::Move;
    static constexpr std::int64_t TTBand = 1LL << 62;
    static constexpr std::int64_t RefutationBand = 1LL << 61;
    static constexpr std::int64_t CaptureBand = 1LL << 60;
    static constexpr std::int64_t KillerBase = 1LL << 59;
    static constexpr std::int64_t HistoryCap = (1LL << 58) - 1;
    // countermove=killer: below every killer (KillerBase - k, k < 8), above the history band,
    // so that it is neither reduced nor pruned, as a killer. countermove=history: above every
    // history score, inside the band, so that it is reduced and pruned as a history move.
    static constexpr std::int64_t CounterMoveKillerScore = KillerBase - 32;
    static constexpr std::int64_t CounterMoveHistoryScore = HistoryCap + 1;
    static constexpr std::size_t Capacity = 256;
    static constexpr int QsTieBits = 8;
    static constexpr std::int64_t QsHistoryCap = (1LL << 53) - 1;

    // Scored below every band but history's: no TT, refutation, capture-first, killer or
    // countermove. The moves reductions and frontier pruning may touch. (Killer k scores
    // KillerBase - k.)
    static constexpr bool history_band(std::int64_t score) { return score < KillerBase - 64; }
    static_assert(CounterMoveKillerScore >= KillerBase - 64 && CounterMoveKillerScore < KillerBase - 7);
    static_assert(CounterMoveHistoryScore < KillerBase - 64);

    struct Scored {
        Move move;
        std::int64_t score;
    };

    MoveOrder(const G& game, const typename G::Position& pos, typename G::MoveList& moves)
        : game_(game), pos_(pos), moves_(moves), count_(moves.size()) {
        assert(count_ <= Capacity);
    }

    void score_all(const SearchConfig& config, const HistoryTables& history, const KillerTable<Move>& killers,
                   int ply, Move tt_move, Move refutation0, Move refutation1, Move countermove) {
        for (std::size_t i = 0; i < count_; ++i) {
            const Move m = moves_[i];
            std::int64_t s;
            if (m == tt_move) s = TTBand;
            else if (m == refutation0) s = RefutationBand + 1;
            else if (m == refutation1) s = RefutationBand;
            else if (config.captures_first && game_.is_capture(m)) s = CaptureBand + game_.capture_order(pos_, m);
            else if (const int k = config.killers ? killers.slot(ply, m, config.killers) : -1; k >= 0) s = KillerBase - k;
            else if (m == countermove)
                s = config.countermove == CounterMove::Killer ? CounterMoveKillerScore : CounterMoveHistoryScore;
            else if (config.history != HistoryMode::None)
                s = std::min(history.score(config.history, game_.move_index(pos_, m)), HistoryCap);
            else s = 0;
            scores_[i] = s;
        }
    }

    // Keeps only the moves quiescence search follows at `config.qsearch`'s level, ordered by
    // the game's capture ranking, or by history first (config.qs_order) with the capture
    // ranking breaking ties. `in_tables`: whether a move has a history entry at all.
    template <typename InTables>
    void score_quiescence(const SearchConfig& config, const HistoryTables& history, InTables in_tables) {
        const bool by_history = config.qs_order == QsOrder::History && config.history != HistoryMode::None;
        std::size_t kept = 0;
        for (std::size_t i = 0; i < count_; ++i) {
            const Move m = moves_[i];
            if (!game_.is_quiescence_move(pos_, m, config.qsearch)) continue;
            std::int64_t s = game_.capture_order(pos_, m);
            if (by_history && in_tables(m)) {
                // History in the high bits: capture ranks stay below 2^8 (asserted), history
                // scores are capped so that the sum stays below the TT band.
                assert(s >= 0 && s < (1 << QsTieBits));
                s += std::min(history.score(config.history, game_.move_index(pos_, m)), QsHistoryCap) << QsTieBits;
            }
            moves_[kept] = m;
            scores_[kept++] = s;
        }
        count_ = kept;
    }

    // The moves handed out so far, in the order they were picked.
    std::span<const Move> picked() const { return {moves_.data(), next_}; }

    std::optional<Scored> next() {
        if (next_ >= count_) return std::nullopt;
        std::size_t best = next_;
        for (std::size_t i = next_ + 1; i < count_; ++i)
            if (scores_[i] > scores_[best]) best = i;
        std::swap(moves_[next_], moves_[best]);
        std::swap(scores_[next_], scores_[best]);
        const Scored out{moves_[next_], scores_[next_]};
        ++next_;
        return out;
    }

private:
    const G& game_;
    const typename G::Position& pos_;
    typename G::MoveList& moves_;
    std::size_t count_;
    std::size_t next_ = 0;
    std::array<std::int64_t, Capacity> scores_;
};

}  // namespace search
