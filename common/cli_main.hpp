// The exit-code convention of every binary, in one place: 0 done, 2 bad input (the message
// names the fault), 3 internal error; a bad command line gets CLI11's own message and code.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string_view>

#include <fmt/format.h>

#include "common/error.hpp"

namespace common {

// Runs `body` (parsing and the work, returning the exit code) and turns exceptions into the
// convention above.
template <class Body>
int run_cli(std::string_view program, CLI::App& app, Body&& body) {
    try {
        return body();
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const InputError& e) {
        fmt::print(stderr, "{}: error: {}\n", program, e.what());
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "{}: internal error: {}\n", program, e.what());
        return 3;
    }
}

}  // namespace common
