// Text-protocol front ends of the engine. Each reads commands from `in` until quit or end of
// input and answers on standard output; malformed input gets a protocol-level error.
#pragma once

#include <iosfwd>
#include <cstddef>
#include <cstdint>
#include <string>

#include "loa/engine/codingame_protocol.hpp"
#include "loa/engine/session.hpp"

namespace loa::engine {

// An error that quotes the input is cut to this: a 10 MB bad token is not echoed back.
inline constexpr std::size_t MaxErrorBytes = 400;

int run_uci(std::istream& in, Output& out);
int run_gtp(std::istream& in, Output& out);
// The same on a given session (tests and fuzzers set its options, e.g. a node cap, first).
int run_uci(std::istream& in, Output& out, Session& session);
int run_gtp(std::istream& in, Output& out, Session& session);
// The CodinGame arena (codingame_protocol.hpp): its referee's rules by default, and a safety
// margin on its time limits.
int run_codingame(std::istream& in, std::ostream& out, std::ostream& log, const CodinGameSettings& settings = {});

}  // namespace loa::engine
