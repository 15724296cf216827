// Text-protocol front ends of the engine. Each reads commands from `in` until quit or end of
// input and answers on standard output; malformed input gets a protocol-level error.
#pragma once

#include <iosfwd>

#include "loa/engine/session.hpp"

namespace loa::engine {

int run_uci(std::istream& in, Output& out);
int run_gtp(std::istream& in, Output& out);
int run_codingame(std::istream& in, Output& out, std::ostream& log);

}  // namespace loa::engine
