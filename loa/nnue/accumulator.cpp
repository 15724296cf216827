#include "loa/nnue/accumulator.hpp"

#include <algorithm>
#include <array>

#include "common/search/score.hpp"
#include "loa/nnue/connectivity_inputs.hpp"
#include "loa/nnue/features.hpp"
#include "loa/nnue/layers.hpp"

namespace loa::nnue {
namespace {

// Deep enough for any search line (MaxPly) and a few plies more; a longer line (a playout)
// restarts the stack, costing one refresh.
constexpr std::size_t StackCapacity = search::MaxPly + 16;

// Further than this from the last computed entry, the parent is refreshed instead of the chain.
constexpr std::size_t MaxChain = 6;

}  // namespace

namespace {

int bucket_of(const Network& net, Colour perspective, Bitboard black, Bitboard white) {
    return input_bucket(net.input_buckets_set, perspective == Colour::Black ? black : white);
}

// One perspective's accumulator from scratch: the bias and a column per piece.
void refresh_perspective(const Network& net, Bitboard black, Bitboard white, Colour perspective, std::int16_t* out,
                         const KernelSet& kernels) {
    const int bucket = bucket_of(net, perspective, black, white);
    std::array<const std::int16_t*, SquareCount> columns;  // 24 in a game; any board is read whole
    std::size_t count = 0;
    for (const Colour piece : {Colour::Black, Colour::White})
        for (Bitboard rest = piece == Colour::Black ? black : white; rest;)
            columns[count++] = net.feature_column(feature_index(perspective, piece, pop_lsb(rest), bucket));
    update_accumulator(net.ft_bias.data(), out, net.accumulator_size, std::span(columns.data(), count), {}, kernels);
}

}  // namespace

void refresh_accumulators(const Network& net, Bitboard black, Bitboard white, std::int16_t* out, const KernelSet& kernels) {
    const auto h = static_cast<std::size_t>(net.accumulator_size);
    for (const Colour perspective : {Colour::Black, Colour::White})
        refresh_perspective(net, black, white, perspective, out + static_cast<std::size_t>(index(perspective)) * h, kernels);
}

AccumulatorStack::AccumulatorStack(std::shared_ptr<const Network> net, const KernelSet& kernels)
    : net_(std::move(net)),
      kernels_(&kernels),
      width_(static_cast<std::size_t>(net_->accumulator_size)),
      entries_(StackCapacity),
      values_((StackCapacity + 1) * 2 * width_) {}

void AccumulatorStack::restart_at(const Position& pos) {
    entries_[0] = {pos.pieces(Colour::Black), pos.pieces(Colour::White), false};
    size_ = 1;
    // A search's root is usually evaluated before its first move: its refresh is kept.
    if (scratch_.computed && scratch_.holds(pos)) {
        std::copy_n(values(entries_.size()), 2 * width_, values(0));
        entries_[0].computed = true;
    }
}

void AccumulatorStack::moving_from(const Position& before) {
    if (size_ == 0 || !entries_[size_ - 1].holds(before) || size_ == entries_.size()) restart_at(before);
}

void AccumulatorStack::moved_to(const Position& after) {
    if (size_ == 0) return;  // moved_to without moving_from: nothing to extend
    entries_[size_++] = {after.pieces(Colour::Black), after.pieces(Colour::White), false};
    if (size_ == entries_.size()) restart_at(after);
}

void AccumulatorStack::moved_back_to(const Position& restored) {
    if (size_ >= 2 && entries_[size_ - 2].holds(restored))
        --size_;
    else
        size_ = 0;  // the stack did not follow this position: start again at the next push
}

void AccumulatorStack::compute(std::size_t entry) {
    std::size_t base = entry;
    while (base > 0 && !entries_[base].computed && entry - base < MaxChain) --base;
    if (!entries_[base].computed) {
        // Nothing computed below: the bottom entry from scratch and the chain up from it (the
        // line's other nodes then reuse it). Nothing computed near enough (a long line never
        // evaluated, such as a playout): the parent from scratch and one update, so that its
        // other children need one update each.
        if (entry - base >= MaxChain) base = entry - 1;
        refresh_accumulators(*net_, entries_[base].black, entries_[base].white, values(base), *kernels_);
        entries_[base].computed = true;
        ++refreshes_;
    }
    for (std::size_t e = base + 1; e <= entry; ++e) {
        const Entry& from = entries_[e - 1];
        const Entry& to = entries_[e];
        for (const Colour perspective : {Colour::Black, Colour::White}) {
            const std::size_t offset = static_cast<std::size_t>(index(perspective)) * width_;
            // With input buckets, a perspective whose own pieces moved into another bucket reads
            // other columns for every piece: it is computed afresh.
            const int bucket = bucket_of(*net_, perspective, to.black, to.white);
            if (bucket != bucket_of(*net_, perspective, from.black, from.white)) {
                refresh_perspective(*net_, to.black, to.white, perspective, values(e) + offset, *kernels_);
                ++bucket_refreshes_;
                continue;
            }
            // A move adds one piece and removes one or two (a capture); a pass none. Consecutive
            // entries are a move apart (moving_from() checks the position moved from), and any
            // difference is applied whole.
            std::array<const std::int16_t*, SquareCount> added, removed;
            std::size_t adds = 0, removes = 0;
            for (const Colour piece : {Colour::Black, Colour::White}) {
                const Bitboard old_board = piece == Colour::Black ? from.black : from.white;
                const Bitboard new_board = piece == Colour::Black ? to.black : to.white;
                for (Bitboard b = new_board & ~old_board; b;)
                    added[adds++] = net_->feature_column(feature_index(perspective, piece, pop_lsb(b), bucket));
                for (Bitboard b = old_board & ~new_board; b;)
                    removed[removes++] = net_->feature_column(feature_index(perspective, piece, pop_lsb(b), bucket));
            }
            update_accumulator(values(e - 1) + offset, values(e) + offset, net_->accumulator_size, std::span(added.data(), adds),
                               std::span(removed.data(), removes), *kernels_);
        }
        entries_[e].computed = true;
        ++updates_;
    }
}

std::array<std::uint8_t, ConnectivityInputCount> AccumulatorStack::connectivity(Entry& entry, const Entry* below,
                                                                                 const Position& pos) {
    const Colour us = pos.side_to_move();
    for (const Colour side : {us, ~us}) {
        const auto i = static_cast<std::size_t>(index(side));
        const auto bit = static_cast<std::uint8_t>(1u << i);
        if (!(entry.connectivity_known & bit)) {
            const Bitboard pieces = entry.pieces(side);
            if (below && (below->connectivity_known & bit) && below->pieces(side) == pieces)
                entry.connectivity[i] = below->connectivity[i];
            else
                entry.connectivity[i] = side_connectivity(pieces, pos.euler_numerator(side));
            entry.connectivity_known |= bit;
        }
    }
    return side_to_move_first(entry.connectivity[static_cast<std::size_t>(index(us))],
                              entry.connectivity[static_cast<std::size_t>(index(~us))]);
}

int AccumulatorStack::evaluate(const Position& pos) {
    const std::int16_t* acc;
    Entry* entry = &scratch_;
    const Entry* below = nullptr;
    if (size_ > 0 && entries_[size_ - 1].holds(pos)) {
        if (!entries_[size_ - 1].computed) compute(size_ - 1);
        acc = values(size_ - 1);
        entry = &entries_[size_ - 1];
        if (size_ > 1) below = &entries_[size_ - 2];
    } else {
        const std::size_t slot = entries_.size();
        if (!scratch_.computed || !scratch_.holds(pos)) {
            scratch_ = {pos.pieces(Colour::Black), pos.pieces(Colour::White), true};
            refresh_accumulators(*net_, scratch_.black, scratch_.white, values(slot), *kernels_);
            ++refreshes_;
        }
        acc = values(slot);
    }
    const std::size_t stm = static_cast<std::size_t>(index(pos.side_to_move())) * width_;
    if (net_->extra_inputs_set == ConnectivityInputsSet)
        return propagate(*net_, acc + stm, acc + (width_ - stm), connectivity(*entry, below, pos), *kernels_);
    return propagate(*net_, acc + stm, acc + (width_ - stm), {}, *kernels_);
}

}  // namespace loa::nnue
