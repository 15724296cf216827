// The first layer's incremental update. A stack follows the moves made and taken back on one
// position (one entry per position on the line, holding its boards); an entry's accumulators
// are computed only when that position is evaluated, from the nearest computed entry below it,
// by the pieces that differ between consecutive boards (two or three squares a move). Entries
// are checked against the position handed in, so a position the stack did not follow (another
// line, a copy, a tool calling with any position) is evaluated from scratch rather than wrongly.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "loa/move.hpp"
#include "loa/position.hpp"
#include "loa/nnue/connectivity_inputs.hpp"
#include "loa/nnue/kernels.hpp"
#include "loa/nnue/network.hpp"

namespace loa::nnue {

// Accumulators of both perspectives of one position: [Black's H values][White's H values].
void refresh_accumulators(const Network& net, Bitboard black, Bitboard white, std::int16_t* out,
                          const KernelSet& kernels = active_kernels());

class AccumulatorStack {
public:
    // `kernels`: the engine's by default; tests and benchmarks name others.
    explicit AccumulatorStack(std::shared_ptr<const Network> net, const KernelSet& kernels = active_kernels());

    // Around Position::make: the position a move is made on, then the position it reached.
    void moving_from(const Position& before);
    void moved_to(const Position& after);
    // After Position::unmake: the position restored.
    void moved_back_to(const Position& restored);

    int evaluate(const Position& pos);

    // For tests and benchmarks: how many entries (and full refreshes) it took so far.
    std::uint64_t refreshes() const { return refreshes_; }
    std::uint64_t updates() const { return updates_; }
    // A net with input buckets: perspectives computed afresh because their bucket changed.
    std::uint64_t bucket_refreshes() const { return bucket_refreshes_; }

private:
    struct Entry {
        Bitboard black = 0, white = 0;
        bool computed = false;
        // A net with the connectivity inputs: each side's four (by colour), once known. A
        // side whose pieces did not move since the entry below (the side not moving, unless
        // captured) takes them from there.
        std::uint8_t connectivity_known = 0;  // bit i: colour i's are known
        std::array<std::array<std::uint8_t, 4>, 2> connectivity{};
        bool holds(const Position& pos) const {
            return black == pos.pieces(Colour::Black) && white == pos.pieces(Colour::White);
        }
        Bitboard pieces(Colour c) const { return c == Colour::Black ? black : white; }
    };
    std::int16_t* values(std::size_t entry) { return values_.data() + entry * 2 * width_; }
    void restart_at(const Position& pos);
    void compute(std::size_t entry);
    std::array<std::uint8_t, ConnectivityInputCount> connectivity(Entry& entry, const Entry* below, const Position& pos);

    std::shared_ptr<const Network> net_;
    const KernelSet* kernels_;
    std::size_t width_;  // H
    std::vector<Entry> entries_;  // capacity: fixed at construction
    std::size_t size_ = 0;
    std::vector<std::int16_t> values_;  // [capacity + 1][2][H]; the last is the scratch entry
    Entry scratch_;                     // a position evaluated off the stack
    std::uint64_t refreshes_ = 0, updates_ = 0, bucket_refreshes_ = 0;
};

}  // namespace loa::nnue
