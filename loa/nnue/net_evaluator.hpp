// The network as an evaluation: a shared, read-only network and this evaluator's own
// accumulator stack. A copy shares the network and starts its own (empty) stack, so that each
// searcher (each thread) owns one; one evaluator must not be used by two threads at once.
// The engine's NetEvaluator (evaluator.hpp) falls back on the hand-written evaluation; the
// CodinGame bot, which carries no other evaluation, on its own.
#pragma once

#include <memory>

#include "loa/nnue/accumulator.hpp"
#include "loa/nnue/network.hpp"

namespace loa::nnue {

// `Fallback` evaluates what the net is not sized for: a board with more than 12 pieces a side
// cannot arise in a game, the net never saw one, and its accumulator (sized for 24 pieces)
// could overflow.
template <class Fallback>
class BasicNetEvaluator {
public:
    explicit BasicNetEvaluator(std::shared_ptr<const Network> net) : net_(std::move(net)) {}
    BasicNetEvaluator(const BasicNetEvaluator& other) : net_(other.net_) {}
    BasicNetEvaluator& operator=(const BasicNetEvaluator& other) {
        if (this != &other) {
            net_ = other.net_;
            stack_.reset();
        }
        return *this;
    }
    // A moved-from evaluator keeps the network (and works on with a new stack).
    BasicNetEvaluator(BasicNetEvaluator&& other) noexcept : net_(other.net_), stack_(std::move(other.stack_)) {}
    BasicNetEvaluator& operator=(BasicNetEvaluator&& other) noexcept {
        net_ = other.net_;
        stack_ = std::move(other.stack_);
        return *this;
    }

    const Network& network() const { return *net_; }

    // Position::make and unmake with the stack following them. Const like the game's make:
    // the stack is a cache, which changes no result (evaluate checks every entry it uses).
    void make(Position& pos, Move m) const {
        stack().moving_from(pos);
        pos.make(m);
        stack().moved_to(pos);
    }
    void unmake(Position& pos, Move m) const {
        pos.unmake(m);
        stack().moved_back_to(pos);
    }
    int evaluate(const Position& pos) const {
        if (pos.count(Colour::Black) > MaxPiecesPerSide || pos.count(Colour::White) > MaxPiecesPerSide)
            return Fallback{}(pos);
        return stack().evaluate(pos);
    }

    // How the accumulators were computed so far: from scratch, or by a move's update.
    std::uint64_t refreshes() const { return stack_ ? stack_->refreshes() : 0; }
    std::uint64_t updates() const { return stack_ ? stack_->updates() : 0; }
    std::uint64_t bucket_refreshes() const { return stack_ ? stack_->bucket_refreshes() : 0; }

private:
    AccumulatorStack& stack() const {
        if (!stack_) stack_ = std::make_unique<AccumulatorStack>(net_);
        return *stack_;
    }
    std::shared_ptr<const Network> net_;
    mutable std::unique_ptr<AccumulatorStack> stack_;
};

}  // namespace loa::nnue
