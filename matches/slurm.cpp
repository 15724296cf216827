#include "matches/slurm.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include <sys/stat.h>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "matches/own_files.hpp"
#include "matches/process.hpp"

namespace matches {
namespace fs = std::filesystem;

namespace {

ino_t inode_of(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? st.st_ino : 0;
}

// Slurm's filename patterns take '%' as a placeholder: a '%' in a path must be doubled.
std::string percent_escaped(const std::string& path) {
    std::string out;
    for (const char c : path) out += c == '%' ? std::string("%%") : std::string(1, c);
    return out;
}

// Standard output of a command (sbatch, squeue), and whether it ended by itself: a command
// still printing after `timeout_ms` was cut short and its output is not to be trusted. Its
// standard error goes to ours. A sentinel line after the command carries its exit status.
std::optional<std::vector<std::string>> output_of(const std::string& program, const std::vector<std::string>& args,
                                                  double timeout_ms) {
    std::vector<std::string> argv = {"-c", "\"$0\" \"$@\"; echo \"loa-exit $?\"", program};
    argv.insert(argv.end(), args.begin(), args.end());
    ChildProcess p;
    p.start("sh", argv);
    std::vector<std::string> lines;
    while (auto line = p.read_line(timeout_ms)) lines.push_back(*line);
    p.stop();
    if (lines.empty() || lines.back() != "loa-exit 0") return std::nullopt;
    lines.pop_back();
    return lines;
}

// Single quotes for bash: the batch script runs the command exactly as given.
std::string quoted(const std::string& word) {
    std::string out = "'";
    for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

}  // namespace

std::string run_directory_path(std::string path) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    if (path.empty() || path == "/") throw common::InputError("--slurm-dir: give a directory of its own, not '/'");
    return path;
}

std::vector<std::string> task_arguments(const std::vector<std::string>& args, const std::map<std::string, int>& drop) {
    std::vector<std::string> out;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        const auto eq = a.find('=');
        std::string name = a.rfind("--", 0) == 0 && eq != std::string::npos ? a.substr(0, eq) : a;
        // A short option with its value attached ("-j4") is dropped whole.
        const bool short_attached = a.size() > 2 && a[0] == '-' && a[1] != '-';
        if (short_attached) name = a.substr(0, 2);
        const auto it = drop.find(name);
        if (it == drop.end()) {
            out.push_back(a);
            continue;
        }
        if (name == a) i += static_cast<std::size_t>(it->second);  // "--opt value": skip the value too
    }
    return out;
}

std::vector<std::string> task_command(const std::vector<std::string>& args, const std::map<std::string, int>& drop) {
    std::vector<std::string> command = {fs::read_symlink("/proc/self/exe").string()};
    for (std::string& a : task_arguments(args, drop)) command.push_back(std::move(a));
    return command;
}

SlurmRun::SlurmRun(SlurmSettings settings, std::vector<std::string> command,
                   std::function<std::vector<std::string>(int)> per_task)
    : settings_(std::move(settings)), command_(std::move(command)), per_task_(std::move(per_task)) {
    if (settings_.tasks < 1) throw common::InputError("--slurm: give at least one task");
    claim_directory();
    settings_.dir = fs::canonical(settings_.dir).string();  // tasks run elsewhere: an absolute path
    load_jobs();
}

void SlurmRun::claim_directory() {
    const fs::path dir(settings_.dir);
    bool created = false;
    if (!fs::exists(dir)) {
        fs::create_directories(dir);
        created = true;
    } else if (!fs::is_directory(dir)) {
        throw common::InputError(fmt::format("--slurm-dir '{}' is not a directory", settings_.dir));
    }
    const fs::path marker = dir / MarkerName;
    if (fs::exists(marker)) return;  // a run's directory: resumed
    // A run directory of a version before the mark holds the jobs list and run files only.
    bool earlier_run = !created && fs::exists(dir / "jobs");
    for (const fs::directory_entry& e : fs::directory_iterator(dir))
        earlier_run = earlier_run && written_by_a_run(e.path().filename().string(), settings_.state_name);
    if (!created && !earlier_run && !fs::is_empty(dir))
        throw common::InputError(fmt::format(
            "--slurm-dir '{}' already holds files and is not a loa-match run directory: give a new or empty directory "
            "(the run writes its files there and deletes them when it ends)",
            settings_.dir));
    common::replace_file(marker.string(),
                         fmt::format("A loa-match Slurm run directory: the run deletes the files it wrote here when "
                                     "it ends.\ncreated {}\n",
                                     created || earlier_run ? "yes" : "no"),
                         common::in_own_directory("the run directory's marker"));
}

bool SlurmRun::written_by_a_run(const std::string& name, const std::string& state_name) {
    // datagen's runs (state "txt"): their parts, the parts' locks, the split they were made by.
    static const std::regex datagen_file(R"((task-[0-9]+\.txt(\.lock)?|datagen-split)(\.tmp-[0-9]+-[0-9]+)?)");
    if (state_name == "txt" && std::regex_match(name, datagen_file)) return true;
    // The run's own files (the mark, the batch script, the job list, the round, where its
    // records begin in its PGN), each task's log, result (or runs) and the state, lock and live
    // files beside it; and the temporary of any of them (<file>.tmp-<pid>-<n>, while it is
    // replaced: a kill may leave one).
    static const std::regex run_file(
        R"((loa-match-run|task\.sbatch|jobs|round|pgn-start|task-[0-9]+\.(out|json(\.state(\.lock|\.live)?)?))(\.tmp-[0-9]+-[0-9]+)?)");
    return std::regex_match(name, run_file);
}

void SlurmRun::clean_up() const {
    const fs::path dir(settings_.dir);
    bool created = false;
    if (const auto marker = common::read_file_if_exists((dir / MarkerName).string(), common::MaxListFile, "--slurm-dir"))
        created = marker->find("\ncreated yes\n") != std::string::npos;
    std::error_code error;
    for (const fs::directory_entry& e : fs::directory_iterator(dir, error))
        if (written_by_a_run(e.path().filename().string(), settings_.state_name) && !e.is_directory()) fs::remove(e.path(), error);
    if (created) fs::remove(dir, error);  // only when empty: whatever else is there stays
}

void SlurmRun::start_round() {
    for (int t = 1; t <= settings_.tasks; ++t) fs::remove(result_file(t));
    submissions_.clear();
    reported_done_.clear();
    read_up_to_.clear();
    save_jobs();
}

std::string SlurmRun::result_file(int task) const { return fmt::format("{}/task-{}.json", settings_.dir, task); }
std::string SlurmRun::state_file(int task) const { return fmt::format("{}/task-{}.{}", settings_.dir, task, settings_.state_name); }

std::string SlurmRun::write_batch_script() const {
    const std::string path = settings_.dir + "/task.sbatch";
    std::ostringstream out;
    out << "#!/bin/bash\n"
        << "# Written by loa-match --slurm: one task of the job array plays one shard.\n"
        << "# (job name, log, CPUs and working directory: sbatch's arguments)\n"
        << "set -e\n"
        << "case \"$SLURM_ARRAY_TASK_ID\" in\n";
    for (int task = 1; task <= settings_.tasks; ++task) {
        out << fmt::format("  {}) exec", task);
        for (const std::string& word : command_) out << ' ' << quoted(word);
        for (const std::string& word : per_task_(task)) out << ' ' << quoted(word);
        out << " ;;\n";
    }
    out << "  *) echo \"no task $SLURM_ARRAY_TASK_ID\" >&2; exit 2 ;;\nesac\n";
    common::replace_file(path, out.str(), common::in_own_directory("a task's file of the run directory"));
    return path;
}

void SlurmRun::submit(const std::vector<int>& tasks) {
    if (tasks.empty()) return;
    std::string array;
    for (const int t : tasks) {
        if (!array.empty()) array += ',';
        array += std::to_string(t);
    }
    // Passed as arguments, not #SBATCH lines: paths with spaces need no quoting there. Logs
    // are appended to, so that a failure's log survives its resubmission.
    std::vector<std::string> args = {"--parsable",
                                     "--array=" + array,
                                     "--job-name=" + settings_.job_name,
                                     "--output=" + percent_escaped(settings_.dir) + "/task-%a.out",
                                     "--open-mode=append",
                                     "--cpus-per-task=" + std::to_string(settings_.cpus_per_task),
                                     "--chdir=" + fs::current_path().string()};
    for (const std::string_view word : common::split(settings_.sbatch_args, ' '))
        if (!word.empty()) args.emplace_back(word);
    args.push_back(write_batch_script());
    // No short timeout: a busy controller may take minutes to accept a job.
    const auto out = output_of("sbatch", args, 30 * 60'000);
    // --parsable prints "jobid" or "jobid;cluster".
    const std::string id = !out || out->empty() ? std::string() : out->back().substr(0, out->back().find(';'));
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
        throw common::InputError(fmt::format("--slurm: sbatch did not submit the job (it printed '{}')",
                                             !out || out->empty() ? "" : out->back()));
    jobs_.push_back(id);
    for (const int t : tasks) ++submissions_[t];
    save_jobs();
}

std::optional<std::set<int>> SlurmRun::active_tasks() const {
    std::set<int> active;
    if (jobs_.empty()) return active;
    std::string list;
    for (const std::string& j : jobs_) {
        if (!list.empty()) list += ',';
        list += j;
    }
    // One line a task ("123_4 RUNNING"); a job that has left the queue is not listed. The
    // states are named, so that a user's SQUEUE_STATES cannot hide pending tasks.
    const auto out = output_of("squeue", {"-h", "-r", "-j", list, "-o", "%i %T", "-t",
                                          "PENDING,RUNNING,SUSPENDED,COMPLETING,CONFIGURING,REQUEUED,RESIZING,SIGNALING,STAGE_OUT"},
                               120'000);
    // squeue fails for a job id slurmctld has forgotten (MinJobAge after the end): ask for
    // the ids one at a time then, and count only the answers.
    if (!out) {
        if (jobs_.size() == 1) {
            // One forgotten job: nothing of it runs; any other failure: unknown.
            const auto ping = output_of("scontrol", {"ping"}, 60'000);
            if (ping) return active;
            return std::nullopt;
        }
        for (const std::string& j : jobs_) {
            SlurmRun one = *this;
            one.jobs_ = {j};
            const auto part = one.active_tasks();
            if (!part) return std::nullopt;
            active.insert(part->begin(), part->end());
        }
        return active;
    }
    for (const std::string& line : *out) {
        const auto underscore = line.find('_');
        const auto space = line.find(' ');
        if (underscore == std::string::npos || space == std::string::npos || space < underscore) continue;
        if (const auto task = common::parse_int(line.substr(underscore + 1, space - underscore - 1))) active.insert(*task);
    }
    return active;
}

void SlurmRun::read_new_lines(int task, const std::function<void(int, const std::string&)>& on_line) {
    std::size_t& done = read_up_to_[task];
    // A resumed task rewrites its state file (a new file renamed over the old one) or cuts it
    // back: read it again from the start; the caller keeps each game once. Otherwise only the
    // bytes after those passed on are read (a datagen part is the data itself: reading it whole
    // at every poll would cost its size a second).
    const ino_t inode = inode_of(state_file(task));
    std::error_code error;
    const auto size = static_cast<std::size_t>(fs::file_size(state_file(task), error));
    if (error) return;
    if (size < done || inode != inode_[task]) {
        done = 0;
        inode_[task] = inode;
    }
    if (size <= done) return;
    std::string text;
    try {
        text = common::read_file_from(state_file(task), done, common::MaxRecordFile, "a task's state file");
    } catch (const common::InputError&) {
        return;  // gone or replaced meanwhile: read at the next poll
    }
    const std::size_t end = text.rfind('\n');
    if (end == std::string::npos) return;
    for (std::size_t at = 0, nl; at <= end && (nl = text.find('\n', at)) != std::string::npos; at = nl + 1)
        on_line(task, text.substr(at, nl - at));
    done += end + 1;
}

void SlurmRun::save_jobs() const {
    std::string text;
    for (const std::string& j : jobs_) text += j + '\n';
    for (const auto& [task, n] : submissions_) text += fmt::format("task {} {}\n", task, n);
    common::replace_file(settings_.dir + "/jobs", text, common::in_own_directory("the run directory's jobs"));
}

void SlurmRun::load_jobs() {
    std::istringstream in(common::read_file_if_exists(settings_.dir + "/jobs", common::MaxListFile, "--slurm-dir").value_or(""));
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("task ", 0) == 0) {
            const auto parts = common::split(line, ' ');
            if (parts.size() == 3)
                if (const auto t = common::parse_int(parts[1]), n = common::parse_int(parts[2]); t && n) submissions_[*t] = *n;
        } else if (!line.empty()) {
            jobs_.push_back(line);
        }
    }
}

bool SlurmRun::run(const std::function<void(int, const std::string&)>& on_line, const std::function<void(int)>& on_done,
                   const std::atomic<bool>* interrupt) {
    auto done = [&](int task) { return fs::exists(result_file(task)); };
    {  // submit every task that has no result and is not already queued from an earlier driver
        std::optional<std::set<int>> active = active_tasks();
        for (int attempt = 0; !active && attempt < 10; ++attempt) {
            std::this_thread::sleep_for(std::chrono::seconds(3));
            active = active_tasks();
        }
        if (!active) throw common::InputError("--slurm: squeue does not answer");
        std::vector<int> missing;
        for (int t = 1; t <= settings_.tasks; ++t)
            if (!done(t) && !active->contains(t)) missing.push_back(t);
        submit(missing);
    }
    std::map<int, int> absent;  // consecutive polls in which a task without result was not queued
    for (;;) {
        const std::optional<std::set<int>> queued = active_tasks();
        for (int t = 1; t <= settings_.tasks; ++t) read_new_lines(t, on_line);
        std::vector<int> failed;
        int finished = 0;
        for (int t = 1; t <= settings_.tasks; ++t) {
            if (queued && queued->contains(t)) {
                absent[t] = 0;
                continue;
            }
            if (done(t) && queued) {
                ++finished;
                if (reported_done_.insert(t).second) on_done(t);
                continue;
            }
            // Failed only when squeue answered twice in a row without it (a result written
            // on a shared filesystem may show up late, and squeue may have failed).
            if (queued && ++absent[t] >= 2) {
                failed.push_back(t);
                absent[t] = 0;
            }
        }
        if (finished == settings_.tasks) return true;
        for (const int t : failed)
            if (submissions_[t] > settings_.retries)
                throw common::InputError(fmt::format("--slurm: task {} failed {} times (its log: {}/task-{}.out)", t,
                                                     submissions_[t], settings_.dir, t));
        if (!failed.empty()) {
            std::string list;
            for (const int t : failed) list += fmt::format(" {}", t);
            fmt::print("Slurm: task(s){} ended without a result: submitted again for their missing games\n", list);
            std::fflush(stdout);
            submit(failed);
        }
        const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(settings_.poll_seconds);
        while (std::chrono::steady_clock::now() < until) {
            if (interrupt && interrupt->load()) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
}

}  // namespace matches
