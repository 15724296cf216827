// One player of a match, as given on the command line:
//   --engine name=rhh,preset=full,history=relative,depth=6
// Engine keys: name, depth, nodes, st (seconds per move), tc (base+inc seconds, or stc/ltc), eval
// (full = hce|nnue|hand|concentration|simple|material|FILE.json|FILE.nnue: docs/nnue.md), weights (= eval=FILE.json), rps (FILE.json: realization
// probabilities for erps=on, from loa-match learn-rps); every other key is a
// search-config key (see `loa variants`).
// option.NAME=VALUE: for an in-process engine, one of the UCI options `loa uci` offers (Hash,
// Threads, MultiPV, Eval, Rps, Variant, MoveOverhead and every search key; names
// case-insensitive), applied as `loa uci` applies it; any other name is refused.
// External engines: cmd=PROGRAM, args="a b" (space-separated), proto=uci|gtp, option.NAME=VALUE
// (sent as setoption / set_option; a refusal stops the run before its first game), timeout=SECONDS for a move without a clock (default 60),
// position=auto|startpos|fen: how UCI engines are told the game (auto: `position startpos
// moves ...` when the game starts from the standard position, as cutechess and fastchess do,
// else `position fen <position> moves ...`; startpos: never a FEN, and openings that start
// elsewhere are refused at the start of the run).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/variant/config.hpp"

namespace matches {

struct TimeControl {
    double base_ms = 0;
    double increment_ms = 0;
};

enum class PositionCommand { Auto, StartPos, Fen };

struct EngineSpec {
    std::string name;
    std::string text;  // as given
    variant::VariantConfig config;
    std::string eval = "nnue";  // loa::DefaultEval: the engine's default evaluation
    std::string rps;  // realization probabilities (learn-rps JSON) for erps=on
    int depth = 0;
    std::uint64_t nodes = 0;
    // In process, the engine's UCI options given as option.NAME=VALUE (Hash, Threads, Eval, ...,
    // every search key) set what `loa uci` sets; these two have no search key of their own.
    int multipv = 1;               // MultiPV: the move is the best of N lines searched
    double move_overhead_ms = 0;   // MoveOverhead: kept back from the clock each move
    double move_time_ms = 0;
    std::optional<TimeControl> time_control;

    // External engine (empty cmd: in-process)
    std::string cmd;
    std::vector<std::string> args;
    std::string proto = "uci";
    std::vector<std::pair<std::string, std::string>> options;
    double move_timeout_ms = 60000;
    PositionCommand position_command = PositionCommand::Auto;
    bool external() const { return !cmd.empty(); }

    // Human summary of the limit: "depth=6", "nodes=20000", "st=0.5", "tc=10+0.1".
    std::string limit_text() const;
};

// The two standard time controls of strength tests on this project's 2-core machine
// (docs/strength.md): "stc" = 5 s + 0.05 s a move, "ltc" = 4 times longer (20 s + 0.2 s).
std::optional<TimeControl> named_time_control(std::string_view name);
// "stc", "ltc", "BASE+INC" or "BASE" in seconds; `context` starts the error message.
TimeControl parse_time_control(std::string_view text, const std::string& context);
// Whether an engine string sets its own limit (depth, nodes, st or tc).
bool has_limit(std::string_view text);

// `index` numbers engines without a name ("engine1", ...). Throws common::InputError.
EngineSpec parse_engine_spec(std::string_view text, int index);
// Reads the files an in-process engine will read (its network, its realization probabilities),
// so that a bad one fails before any game. The commands that start a run call it; settings
// read back from a state or result file (resume, merge, the web board) do not, so that they
// work where the files are not (another directory, the files gone).
void check_engine_files(const EngineSpec& spec);

}  // namespace matches
