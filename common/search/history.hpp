// History heuristic (Schaeffer 1989), butterfly boards and the relative history heuristic
// (Winands, van der Werf, van den Herik, Uiterwijk, "The Relative History Heuristic", CG 2004).
//
//   hh[m] grows by the history increment when m is the best move of a node (a cutoff or the
//         best score of a PV node);
//   bf[m] grows by the butterfly increment when m is searched and does not cause a cutoff
//         (update scheme "all"), or, in the Hyatt/Romstad scheme ("cutnodes"), only for the
//         moves tried before the cutoff move of a cut node.
// Ordering score: absolute hh; butterfly alone: bf; relative: Scale * hh / bf.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "common/search/config.hpp"

namespace search {

class HistoryTables {
public:
    // Scale of the relative score: hh/bf is a ratio below about 1, so it is scaled to keep
    // resolution in integer arithmetic.
    static constexpr std::uint64_t RelativeScale = 1ULL << 20;
    // Counters are halved when one would pass this, which keeps Scale * hh within 64 bits.
    static constexpr std::uint64_t Ceiling = 1ULL << 40;

    explicit HistoryTables(int size) : hh_(static_cast<std::size_t>(size)), bf_(static_cast<std::size_t>(size)) {}

    static std::uint64_t increment(Increment kind, int depth) {
        const std::uint64_t d = static_cast<std::uint64_t>(std::max(depth, 1));
        switch (kind) {
            case Increment::One: return 1;
            case Increment::Depth: return d;
            case Increment::DepthSquared: return d * d;
            case Increment::TwoPowDepth: return 1ULL << std::min<std::uint64_t>(d, 30);
        }
        return 1;
    }

    void add_history(int index, std::uint64_t amount) { bump(hh_, index, amount); }
    void add_butterfly(int index, std::uint64_t amount) { bump(bf_, index, amount); }

    std::int64_t score(HistoryMode mode, int index) const {
        const auto i = static_cast<std::size_t>(index);
        switch (mode) {
            case HistoryMode::None: return 0;
            case HistoryMode::Absolute: return static_cast<std::int64_t>(hh_[i]);
            case HistoryMode::Butterfly: return static_cast<std::int64_t>(bf_[i]);
            case HistoryMode::Relative:
                // bf + 1: never divide by zero, and an unseen move with a success ranks high.
                return static_cast<std::int64_t>(RelativeScale * hh_[i] / (bf_[i] + 1));
        }
        return 0;
    }

    std::uint64_t history(int index) const { return hh_[static_cast<std::size_t>(index)]; }
    std::uint64_t butterfly(int index) const { return bf_[static_cast<std::size_t>(index)]; }

    // Between searches: old experience counts half (counter aging).
    void age() {
        for (auto* table : {&hh_, &bf_})
            for (auto& v : *table) v >>= 1;
    }
    void clear() {
        std::fill(hh_.begin(), hh_.end(), 0);
        std::fill(bf_.begin(), bf_.end(), 0);
    }

private:
    void bump(std::vector<std::uint64_t>& table, int index, std::uint64_t amount) {
        auto& v = table[static_cast<std::size_t>(index)];
        v += amount;
        if (v > Ceiling) age();  // overflow safety: halving both keeps hh/bf ratios
    }

    std::vector<std::uint64_t> hh_;
    std::vector<std::uint64_t> bf_;
};

// Killer moves (Akl and Newborn): the last k moves that caused a cutoff at each ply, most
// recent first.
template <class Move, int MaxKillers = 8>
class KillerTable {
public:
    explicit KillerTable(int plies) : slots_(static_cast<std::size_t>(plies)) {}

    void record(int ply, Move m, int k) {
        auto& s = slots_[static_cast<std::size_t>(ply)];
        int i = 0;
        while (i < k - 1 && !(s[i] == m)) ++i;  // an existing copy is moved to the front
        for (; i > 0; --i) s[i] = s[i - 1];
        s[0] = m;
    }
    // Slot of m among the first k killers at ply, or -1.
    int slot(int ply, Move m, int k) const {
        const auto& s = slots_[static_cast<std::size_t>(ply)];
        for (int i = 0; i < k; ++i)
            if (s[i] == m) return i;
        return -1;
    }
    void clear() {
        for (auto& s : slots_) s.fill(Move::none());
    }

private:
    std::vector<std::array<Move, MaxKillers>> slots_;
};

// The countermove heuristic (Uiterwijk, "The Countermove Heuristic", ICCA Journal 1992): the
// last move that refuted each move, by the move's history index (which carries the side that
// made it). A cutoff move is kept as the reply to the move that led to its node; that reply is
// tried after the killers wherever the same move is played again, whatever the ply, where a
// killer is tied to its ply.
template <class Move>
class CounterMoveTable {
public:
    explicit CounterMoveTable(int indices) : replies_(static_cast<std::size_t>(indices), Move::none()) {}

    void record(int previous_index, Move reply) { replies_[static_cast<std::size_t>(previous_index)] = reply; }
    Move reply(int previous_index) const { return replies_[static_cast<std::size_t>(previous_index)]; }
    void clear() { std::fill(replies_.begin(), replies_.end(), Move::none()); }

private:
    std::vector<Move> replies_;
};

}  // namespace search
