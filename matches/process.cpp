#include "matches/process.hpp"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <fmt/format.h>

#include "common/error.hpp"

namespace matches {

ChildProcess::~ChildProcess() { stop(); }

void ChildProcess::start(const std::string& program, const std::vector<std::string>& args) {
    stop();
    int in_pipe[2], out_pipe[2], exec_status[2];
    if (pipe(in_pipe) || pipe(out_pipe) || pipe(exec_status)) throw common::InputError("cannot create pipes");
    fcntl(exec_status[1], F_SETFD, FD_CLOEXEC);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw common::InputError("cannot fork");
    if (pid == 0) {
        setsid();  // its own session and process group, led by this process
        dup2(in_pipe[0], STDIN_FILENO);
        dup2(out_pipe[1], STDOUT_FILENO);
        close(in_pipe[1]);
        close(out_pipe[0]);
        close(exec_status[0]);
        execvp(program.c_str(), argv.data());
        const int err = errno;  // exec failed: tell the parent, which reads it from the pipe
        if (write(exec_status[1], &err, sizeof err) < 0) _exit(127);
        _exit(127);
    }
    setpgid(pid, pid);  // in case the parent runs first (fails harmlessly once setsid has run)
    close(in_pipe[0]);
    close(out_pipe[1]);
    close(exec_status[1]);
    int err = 0;
    const ssize_t got = read(exec_status[0], &err, sizeof err);
    close(exec_status[0]);
    if (got == static_cast<ssize_t>(sizeof err)) {
        close(in_pipe[1]);
        close(out_pipe[0]);
        waitpid(pid, nullptr, 0);
        throw common::InputError(fmt::format("cannot start '{}': {}", program, std::strerror(err)));
    }
    pid_ = pid;
    to_child_ = in_pipe[1];
    from_child_ = out_pipe[0];
    buffer_.clear();
    signal(SIGPIPE, SIG_IGN);  // a dead engine must not kill the runner
}

bool ChildProcess::write_line(const std::string& line) {
    if (to_child_ < 0) return false;
    const std::string text = line + '\n';
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = write(to_child_, text.data() + done, text.size() - done);
        if (n <= 0) {
            if (n < 0 && errno == EINTR) continue;
            return false;
        }
        done += static_cast<std::size_t>(n);
    }
    return true;
}

std::optional<std::string> ChildProcess::read_line(double timeout_ms) {
    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + std::chrono::microseconds(static_cast<long long>(timeout_ms * 1000));
    for (;;) {
        if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
            std::string line = buffer_.substr(0, nl);
            buffer_.erase(0, nl + 1);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            return line;
        }
        if (from_child_ < 0) return std::nullopt;
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now()).count();
        if (left <= 0) return std::nullopt;
        pollfd p{from_child_, POLLIN, 0};
        const int ready = poll(&p, 1, static_cast<int>(left));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) return std::nullopt;
        char chunk[4096];
        const ssize_t n = read(from_child_, chunk, sizeof chunk);
        if (n <= 0) {
            close(from_child_);
            from_child_ = -1;
            continue;  // hand out what is buffered, then report the end
        }
        buffer_.append(chunk, static_cast<std::size_t>(n));
    }
}

namespace {

// True when the process has ended. It is not reaped (WNOWAIT): while it stays a zombie its
// process-group id cannot be reused, so the group can still be killed safely.
bool has_exited(pid_t pid) {
    siginfo_t info{};
    return waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid;
}

}  // namespace

bool ChildProcess::gone() {
    if (from_child_ < 0) return true;
    return pid_ > 0 && has_exited(pid_);
}

void ChildProcess::stop() {
    if (to_child_ >= 0) close(to_child_);
    if (from_child_ >= 0) close(from_child_);
    to_child_ = from_child_ = -1;
    if (pid_ <= 0) return;
    // Closing its input ends a well-behaved engine; give it a moment. Whatever is left of its
    // group then (a hung engine, or the children of a wrapper that has quit) is killed.
    for (int i = 0; i < 20 && !has_exited(pid_); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    kill(-pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    // SIGKILL is delivered asynchronously: on a loaded machine the rest of the group (a
    // wrapper's children) can still be running for a moment. Wait until no process of the
    // group is left, so that "stopped" means gone (bounded: an orphan that nobody reaps stays
    // a zombie of the group).
    for (int i = 0; i < 100 && kill(-pid_, 0) == 0; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    pid_ = -1;
}

}  // namespace matches
