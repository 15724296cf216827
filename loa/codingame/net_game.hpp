// Lines of Action for the search core with the network as its only evaluation: the CodinGame
// bot's game. Its moves, rules and ordering are SearchRules', as in the engine's SearchGame, so
// that the bot searches the tree `loa codingame` searches (tests/unit/loa/codingame_bot_test.cpp
// compares them node for node).
#pragma once

#include <memory>

#include "loa/nnue/net_evaluator.hpp"
#include "loa/search_rules.hpp"
#include "loa/simple_eval.hpp"

namespace loa::codingame {

// The bot refuses boards with more than 12 pieces a side at input (a game cannot reach one), so
// the network's fallback never answers; piece count is what it would say.
struct MaterialFallback {
    int operator()(const Position& pos) const { return material_evaluate(pos); }
};

class NetGame : public SearchRules {
public:
    NetGame(RuleSet rules, std::shared_ptr<const nnue::Network> net) : SearchRules(rules), net_(std::move(net)) {}

    void make(Position& pos, Move m) const { net_.make(pos, m); }
    void unmake(Position& pos, Move m) const { net_.unmake(pos, m); }
    int evaluate(const Position& pos) const { return net_.evaluate(pos); }

private:
    nnue::BasicNetEvaluator<MaterialFallback> net_;
};

static_assert(search::has_capture_generator<NetGame>);

}  // namespace loa::codingame
