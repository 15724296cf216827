// `loa serve`: runs the web board, the program `loa-web` installed beside `loa` (as git runs
// its subcommands). The board replays the match runner's records and watches its live matches,
// so it sits above both the engine and the runner; the engine's binary does not link it.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "loa/cli/commands.hpp"

namespace loa::cli {
namespace {

constexpr const char* WebProgram = "loa-web";

// Replaces this process with loa-web (same pid: a signal sent to `loa serve` reaches the server).
[[noreturn]] void run_web_board(const std::vector<std::string>& arguments) {
    std::error_code failure;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", failure);
    if (failure) throw common::InputError(fmt::format("cannot find this program's directory: {}", failure.message()));
    const std::string program = (self.parent_path() / WebProgram).string();
    std::vector<char*> argv{const_cast<char*>(program.c_str())};
    for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(program.c_str(), argv.data());
    throw common::InputError(fmt::format("the web board is the program {}, which could not be run ({}); build it with "
                                         "`cmake --build <build dir> --target {}` or install it beside loa",
                                         program, std::strerror(errno), WebProgram));
}

}  // namespace

void add_serve_command(CLI::App& app) {
    CLI::App* cmd = app.add_subcommand("serve", "Web board: play, analyse, replay records and watch matches in a browser "
                                                "(`loa serve --help` for its options)");
    // Every argument, --help included, is the board's: loa-web parses and documents them.
    cmd->prefix_command();
    cmd->set_help_flag();
    cmd->callback([cmd] { run_web_board(cmd->remaining()); });
}

}  // namespace loa::cli
