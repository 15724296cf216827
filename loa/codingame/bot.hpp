// The CodinGame arena's bot: the engine's default search (the `full` preset) with the shipped
// network, on one thread, under the arena's protocol and rules, as `loa codingame` plays by
// default. The arena takes one C++ source file: scripts/codingame-bot.sh makes it from
// bot_main.cpp and what it includes (docs/protocols.md). Built as a program too
// (loa-codingame-bot), so that the tests compare it with the engine on the project's compiler.
#pragma once

#include <iosfwd>

#include "common/search/config.hpp"
#include "loa/rules.hpp"

namespace loa::codingame {

// The engine's default search, as its session builds it: `full`, one thread.
search::SearchConfig bot_config();
// The arena's rules: the named set "codingame".
RuleSet codingame_rules();
// Plays the arena's protocol (engine/codingame_protocol.hpp) to the end of `in`; 0, or 2 on
// malformed input.
int run_bot(std::istream& in, std::ostream& out, std::ostream& log);

}  // namespace loa::codingame
