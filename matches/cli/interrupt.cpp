#include "matches/cli/interrupt.hpp"

#include <csignal>

namespace matches::cli {

std::atomic<bool> interrupt_requested{false};

extern "C" void request_interrupt(int) { interrupt_requested.store(true); }

void install_interrupt_handlers() {
    struct sigaction action {};
    action.sa_handler = request_interrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
}

}  // namespace matches::cli
