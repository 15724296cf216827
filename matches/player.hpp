// A player of a match game. In-process players run a Searcher on the worker's thread.
#pragma once

#include <memory>

#include "common/search/search.hpp"
#include "loa/game.hpp"
#include "loa/search_game.hpp"
#include "matches/engine_spec.hpp"

namespace matches {

struct MoveChoice {
    loa::Move move;
    int score = 0;  // from the mover's point of view
    int depth = 0;
    std::uint64_t nodes = 0;
    double time_ms = 0;
    double hard_limit_ms = 0;  // the search's own hard stop for this move (0: none)
};

// Time the runner's clock gives the side to move.
struct ClockState {
    double remaining_ms = 0;  // with a time control
    double increment_ms = 0;
};

class Player {
public:
    virtual ~Player() = default;
    virtual const EngineSpec& spec() const = 0;
    virtual void new_game() = 0;
    virtual MoveChoice choose(const loa::Game& game, const ClockState& clock) = 0;
};

class InProcessPlayer final : public Player {
public:
    InProcessPlayer(const EngineSpec& spec, const loa::RuleSet& rules);
    const EngineSpec& spec() const override { return spec_; }
    void new_game() override { searcher_.new_game(); }
    MoveChoice choose(const loa::Game& game, const ClockState& clock) override;

private:
    EngineSpec spec_;
    search::Searcher<loa::SearchGame> searcher_;
};

std::unique_ptr<Player> make_player(const EngineSpec& spec, const loa::RuleSet& rules);

}  // namespace matches
