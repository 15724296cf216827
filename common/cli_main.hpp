// The exit-code convention of every binary, in one place: 0 done, 2 bad input or a bad command
// line (the message names the fault), 3 internal error.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/text.hpp"

namespace common {

// A first word that is not an option and names no subcommand of `app` (`loa analyse`) is
// refused with the subcommand meant; CLI11 alone would say that a subcommand is required.
inline void check_subcommand(const CLI::App& app, const std::vector<std::string>& args) {
    if (args.size() < 2 || args[1].empty() || args[1][0] == '-') return;
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
        if (sub->get_name() == args[1]) return;
        names.push_back(sub->get_name());
    }
    if (names.empty()) return;
    const std::string near = nearest_word(args[1], names);
    throw InputError(fmt::format("unknown command '{}'{}", args[1],
                                 near.empty() ? " (--help lists the commands)" : fmt::format("; did you mean '{}'?", near)));
}

// Runs `body` (parsing and the work, returning the exit code) and turns exceptions into the
// convention above.
template <class Body>
int run_cli(std::string_view program, CLI::App& app, Body&& body) {
    try {
        return body();
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);  // prints the help, or the message
        return code == 0 ? 0 : 2;
    } catch (const InputError& e) {
        fmt::print(stderr, "{}: error: {}\n", program, e.what());
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "{}: internal error: {}\n", program, e.what());
        return 3;
    }
}

}  // namespace common
