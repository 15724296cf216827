// A move packed in 16 bits: from (6), to (6), capture flag, pass flag. The all-zero value is
// "no move" (a1-a1 is never legal). The capture flag makes a move reversible on its own, so
// unmake needs no extra state.
#pragma once

#include <cstdint>

#include "loa/bitboard.hpp"

namespace loa {

class Move {
public:
    constexpr Move() = default;
    constexpr Move(Square from, Square to, bool capture)
        : data_(static_cast<std::uint16_t>(from | (to << 6) | (capture ? CaptureFlag : 0))) {}

    static constexpr Move none() { return Move(); }
    static constexpr Move pass() { return from_raw(PassFlag); }
    static constexpr Move from_raw(std::uint16_t raw) {
        Move m;
        m.data_ = raw;
        return m;
    }

    constexpr Square from() const { return data_ & 63; }
    constexpr Square to() const { return (data_ >> 6) & 63; }
    constexpr bool is_capture() const { return (data_ & CaptureFlag) != 0; }
    constexpr bool is_pass() const { return data_ == PassFlag; }
    constexpr bool is_none() const { return data_ == 0; }
    constexpr std::uint16_t raw() const { return data_; }
    // Index into from/to tables (history, butterfly): 0..4095; a pass maps to 0 (a1-a1).
    constexpr int from_to() const { return data_ & 0xFFF; }

    // Written out, not defaulted: the CodinGame bot compiles this file as C++17.
    friend constexpr bool operator==(Move a, Move b) { return a.data_ == b.data_; }
    friend constexpr bool operator!=(Move a, Move b) { return !(a == b); }

private:
    static constexpr std::uint16_t CaptureFlag = 1 << 12;
    static constexpr std::uint16_t PassFlag = 1 << 13;
    std::uint16_t data_ = 0;
};

inline constexpr int FromToCount = 64 * 64;

}  // namespace loa
