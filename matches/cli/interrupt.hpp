// Ctrl-C and kill for the long runs: SIGINT/SIGTERM raise a flag (the only state a signal
// handler may touch) that a run polls, so that it stops between games with its files whole and
// says how to resume, instead of dying in the middle of a write.
#pragma once

#include <atomic>

namespace matches::cli {

extern std::atomic<bool> interrupt_requested;

// SIGINT and SIGTERM raise interrupt_requested from now on.
void install_interrupt_handlers();

}  // namespace matches::cli
