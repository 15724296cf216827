// The exit-code convention of every binary, in one place: 0 done, 2 bad input or a bad command
// line (the message names the fault), 3 internal error.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>
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

// The subcommand the command line chose (the deepest one parsed), or `app` itself.
inline const CLI::App& chosen_command(const CLI::App& app) {
    for (const CLI::App* sub : app.get_subcommands())
        if (sub->parsed()) return chosen_command(*sub);
    return app;
}

// What an argument CLI11 did not expect is called: a misspelt option gets the option meant, of
// the command it was given to ("unknown option '--gmaes'; did you mean '--games'?").
inline std::string unexpected_arguments(const CLI::App& app) {
    const CLI::App& command = chosen_command(app);
    std::vector<std::string> names;
    for (const CLI::App* level = &command; level; level = level->get_parent())
        for (const CLI::Option* option : level->get_options())
            for (const std::string& long_name : option->get_lnames()) names.push_back("--" + long_name);
    std::vector<std::string> extras = command.remaining(true);
    if (extras.empty()) extras = app.remaining(true);  // given before the subcommand's name
    for (const std::string& word : extras) {
        if (!word.starts_with("--")) continue;
        const std::string option = word.substr(0, word.find('='));
        const std::string near = nearest_word(option, names);
        return fmt::format("unknown option '{}'{}", option,
                           near.empty() ? fmt::format(" ({} --help lists the options)", command.get_name())
                                        : fmt::format("; did you mean '{}'?", near));
    }
    std::string words;
    for (const std::string& word : extras) words += (words.empty() ? "" : " ") + word;
    return fmt::format("unexpected argument{} '{}' ({} --help lists the options)", extras.size() > 1 ? "s" : "", words,
                       command.get_name());
}

// CLI11's range check says "--games: Value many not in range 1 to 10000000" of a word that is
// no number at all: said as what it is.
inline std::string parse_error_text(const CLI::ParseError& e) {
    const std::string what = e.what();
    const auto colon = what.find(": Value "), range = what.find(" not in range ");
    if (colon == std::string::npos || range == std::string::npos || range < colon) return what;
    const std::string value = what.substr(colon + 8, range - colon - 8);
    if (parse_double(value)) return what;
    return fmt::format("{}: '{}' is not a number (it takes one {})", what.substr(0, colon), value, what.substr(range + 5));
}

// Runs `body` (parsing and the work, returning the exit code) and turns exceptions into the
// convention above.
template <class Body>
int run_cli(std::string_view program, CLI::App& app, Body&& body) {
    try {
        return body();
    } catch (const CLI::ExtrasError&) {
        fmt::print(stderr, "{}: error: {}\n", program, unexpected_arguments(app));
        return 2;
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help: the help
        // A value CLI11 refused names the option and what it takes ("--games: Value 0 not in
        // range [1 - 10000000]"), with the program's name as every other error.
        fmt::print(stderr, "{}: error: {}\n", program, parse_error_text(e));
        return 2;
    } catch (const InputError& e) {
        fmt::print(stderr, "{}: error: {}\n", program, e.what());
        return 2;
    } catch (const std::bad_alloc&) {
        // What was asked for does not fit: the same request with less memory works.
        fmt::print(stderr, "{}: error: out of memory: ask for less (fewer games or threads at once, smaller tables)\n", program);
        return 2;
    } catch (const std::exception& e) {
        fmt::print(stderr, "{}: internal error: {}\n", program, e.what());
        return 3;
    }
}

}  // namespace common
