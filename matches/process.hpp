// A child process spoken to over its standard input and output, one line at a time, with a
// timeout on every read: what an external engine is to the match runner. Each one runs in a
// session (and process group) of its own, and stop() ends the whole group: an engine is often a
// wrapper script, and the real engine it started must not outlive it.
#pragma once

#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace matches {

class ChildProcess {
public:
    ChildProcess() = default;
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    // Starts `program` with `args`; throws common::InputError when it cannot be started.
    void start(const std::string& program, const std::vector<std::string>& args);
    bool running() const { return pid_ > 0; }
    // The process closed its output or ended: it crashed or quit, as opposed to hanging.
    bool gone();
    // False when the process has gone (its input pipe is closed).
    bool write_line(const std::string& line);
    // A line without its newline; nullopt on timeout or end of output.
    std::optional<std::string> read_line(double timeout_ms);
    // Closes its input, gives it a moment to quit, then kills its whole process group and
    // reaps it.
    void stop();

private:
    pid_t pid_ = -1;
    int to_child_ = -1;
    int from_child_ = -1;
    std::string buffer_;
};

}  // namespace matches
