// Text-protocol front ends of the engine. Each reads commands from `in` until quit or end of
// input and answers on standard output; malformed input gets a protocol-level error.
#pragma once

#include <iosfwd>
#include <cstddef>
#include <cstdint>
#include <string>

#include "loa/engine/session.hpp"

namespace loa::engine {

// An error that quotes the input is cut to this: a 10 MB bad token is not echoed back.
inline constexpr std::size_t MaxErrorBytes = 400;

int run_uci(std::istream& in, Output& out);
int run_gtp(std::istream& in, Output& out);
// The same on a given session (tests and fuzzers set its options, e.g. a node cap, first).
int run_uci(std::istream& in, Output& out, Session& session);
int run_gtp(std::istream& in, Output& out, Session& session);
// The CodinGame arena: its referee's rules by default, and a safety margin on its time limits
// (its servers are slower than a desktop).
struct CodinGameSettings {
    std::string rules = "codingame";
    double first_turn_ms = 1000, turn_ms = 150;  // the referee's limits
    double margin_percent = 20;                  // of each limit, kept back
    double overhead_ms = 20;                     // start-up before main, answering, the referee reading it
    std::uint64_t node_cap = 0;                  // > 0: every search stops at this many nodes (fuzzers)
};
int run_codingame(std::istream& in, Output& out, std::ostream& log, const CodinGameSettings& settings = {});

}  // namespace loa::engine
