// Slurm back end: a run split into the tasks of a job array. Each task runs the same loa-match
// command on one shard (`--shard i/N`), with its own state and result file in a directory on
// the shared filesystem. The driver writes the batch script, submits it with sbatch, follows
// the tasks (their state files as they grow, squeue for whether they still run), resubmits a
// task that ended without its result file (failed, cancelled, node lost: its state file makes
// it play only its missing games), and returns when every shard has its result. Started again
// after an interruption of the driver, it picks up the tasks that still run.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace matches {

// A run directory's path as the run names it: without trailing separators ("dir/" is "dir"),
// so that its lock file `<dir>.lock` stands beside it, not in it.
std::string run_directory_path(std::string path);

struct SlurmSettings {
    int tasks = 1;
    std::string sbatch_args;  // given to sbatch as they are (split on spaces)
    std::string dir;          // the run's directory on the shared filesystem
    int retries = 2;          // resubmissions of one task
    int cpus_per_task = 1;
    double poll_seconds = 2;
    std::string job_name = "loa-match";
    // A task's file that grows as it plays, task-N.<state_name>: its new lines are passed on
    // as progress (a match's state file; datagen's part of the data, "txt").
    std::string state_name = "json.state";
};

// The task's command line: `args` (as loa-match was started) without the options that only
// the driver uses or that each task sets for itself. `drop` lists them with their arity.
std::vector<std::string> task_arguments(const std::vector<std::string>& args, const std::map<std::string, int>& drop);

// The command every task runs: this program (by its path: it must be on the shared
// filesystem) with task_arguments(args, drop).
std::vector<std::string> task_command(const std::vector<std::string>& args, const std::map<std::string, int>& drop);

// The run directory belongs to the run. A marker file (MarkerName) says so; a directory that
// exists without one must be empty, or the run is refused: a run writes its own files there,
// and at its end deletes those files only (by their names), and the directory itself only if
// a run created it.
class SlurmRun {
public:
    static constexpr const char* MarkerName = "loa-match-run";

    // `command`: the program and arguments every task runs; each task appends `per_task(i)`
    // (1-based i), e.g. its shard and result file. Creates or claims the run directory
    // (throws common::InputError for a directory that is not a run's and not empty).
    SlurmRun(SlurmSettings settings, std::vector<std::string> command,
             std::function<std::vector<std::string>(int)> per_task);

    // Deletes the files that runs write in the directory (batch script, job list, the tasks'
    // results, states, logs, ...) and the directory when a run created it and nothing else is
    // left in it. Files the run did not write stay.
    void clean_up() const;
    // Whether `name`, a file name in a run directory, is one that runs write there (runs whose
    // tasks grow task-N.<state_name>: datagen's, "txt", write their parts too).
    static bool written_by_a_run(const std::string& name, const std::string& state_name = "json.state");

    // A new round of the same tasks (a run with an SPRT goes in rounds): every task is
    // submitted again, with its retries counted afresh.
    void start_round();

    // Where task i (1-based) writes its result and keeps its state.
    std::string result_file(int task) const;
    std::string state_file(int task) const;

    // Submits the tasks that have no result yet (or follows those still queued from an
    // earlier driver) and waits until every task has its result. `on_line` gets each new
    // line of every task's state file (a finished game) as it appears. Returns false when
    // `interrupt` was raised (the tasks go on). Throws InputError when sbatch fails or a task
    // fails more than `retries` times.
    // `on_done` is called once for each task whose result has appeared (the state file of a
    // finished task is gone: what it held and was not seen is in the result).
    bool run(const std::function<void(int task, const std::string& line)>& on_line, const std::function<void(int task)>& on_done,
             const std::atomic<bool>* interrupt);

    // 1-based tasks queued or running in this run's jobs; nullopt when squeue did not answer.
    std::optional<std::set<int>> active_tasks() const;

private:
    std::string write_batch_script() const;
    void submit(const std::vector<int>& tasks);
    void read_new_lines(int task, const std::function<void(int, const std::string&)>& on_line);
    void save_jobs() const;
    void load_jobs();
    void claim_directory();

    SlurmSettings settings_;
    std::vector<std::string> command_;
    std::function<std::vector<std::string>(int)> per_task_;
    std::vector<std::string> jobs_;       // job ids submitted for this run
    std::map<int, int> submissions_;      // by task
    std::map<int, std::size_t> read_up_to_;  // bytes of each state file already passed on
    std::set<int> reported_done_;
    std::map<int, unsigned long> inode_;  // of each state file when last read
};

}  // namespace matches
