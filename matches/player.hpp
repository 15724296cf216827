// A player of a match game. In-process players run a Searcher on the worker's thread.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loa/searchers.hpp"
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
    // The time the clock is charged when the player measures it itself: an external engine
    // from its `go`/`genmove` to the answer, so that replaying the game to a GTP engine (one
    // `play` a ply) costs no clock time. < 0: the runner charges the whole call.
    double clock_ms = -1;
    std::string failure;       // set when the engine crashed, hung or broke the protocol
};

// Time the runner's clock gives the side to move, and what the opponent's clock shows: UCI's
// `go` carries both clocks (wtime and btime), as cutechess and fastchess send them, and an
// engine may plan with the opponent's time.
struct ClockState {
    double remaining_ms = 0;  // with a time control; below zero after an overrun the margin allowed
    double increment_ms = 0;
    double margin_ms = 0;     // how far below zero the runner lets the clock go before the flag falls
    bool opponent_on_clock = false;  // false: the opponent plays by depth, nodes or time a move
    double opponent_remaining_ms = 0;
    double opponent_increment_ms = 0;
};

class Player {
public:
    virtual ~Player() = default;
    virtual const EngineSpec& spec() const = 0;
    virtual void new_game() = 0;
    virtual MoveChoice choose(const loa::Game& game, const ClockState& clock) = 0;

    // When this flag is raised (Ctrl-C), a move being chosen ends at once: the game is abandoned.
    void set_interrupt(const std::atomic<bool>* flag) { interrupt_ = flag; }
    bool interrupted() const { return interrupt_ && interrupt_->load(); }

protected:
    const std::atomic<bool>* interrupt_ = nullptr;
};

class InProcessPlayer final : public Player {
public:
    InProcessPlayer(const EngineSpec& spec, const loa::RuleSet& rules);
    const EngineSpec& spec() const override { return spec_; }
    void new_game() override { searcher_.new_game(); }
    MoveChoice choose(const loa::Game& game, const ClockState& clock) override;

private:
    EngineSpec spec_;
    variant::VariantSearcher<loa::SearchGame> searcher_;
};

// The clocks of a UCI `go` (" wtime W btime B winc I binc I", each clock that runs).
std::string uci_clocks(bool black_to_move, const ClockState& clock);

// The UCI `position` command for a game (see EngineSpec::position_command).
std::string uci_position(PositionCommand how, const loa::Game& game);

// An engine in another process, driven over the UCI-style or GTP-style protocol. A crash, a
// hang or a protocol error fails the move (the game is lost); the engine restarts for the
// next game.
class ExternalPlayer final : public Player {
public:
    ExternalPlayer(const EngineSpec& spec, const loa::RuleSet& rules);  // starts it; throws
    const EngineSpec& spec() const override { return spec_; }
    void new_game() override;
    MoveChoice choose(const loa::Game& game, const ClockState& clock) override;

private:
    void start();
    std::optional<std::string> read_line(double timeout_ms);
    std::string no_answer(const char* otherwise);  // why a move did not come: interrupt, crash or `otherwise`  // nullopt: timeout, end of output or interrupt
    // UCI: reads up to the line that starts with `prefix`; the lines before it go to `before`.
    std::optional<std::string> expect(const std::string& prefix, double timeout_ms, std::vector<std::string>* before = nullptr);
    std::optional<std::string> gtp(const std::string& command, double timeout_ms);    // "= x" -> "x"
    MoveChoice fail(std::string why);

    EngineSpec spec_;
    loa::RuleSet rules_;
    std::unique_ptr<class ChildProcess> process_;
    std::string last_info_;  // the last line before bestmove (UCI), for the score
};

std::unique_ptr<Player> make_player(const EngineSpec& spec, const loa::RuleSet& rules);

}  // namespace matches
