// The Slurm driver the commands share (a match, datagen, treesize): the five --slurm-* options,
// the claim on the run directory, what becomes of an earlier run's files, the command each
// task runs, and following the tasks, where an interrupt stops the driver and leaves the tasks
// running. A command keeps only what differs: what each task is given, what its progress lines
// mean, and how the tasks' results are put together (a match's rounds and merge, datagen's
// split and join, treesize's runs). matches/slurm.hpp is the job array underneath.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/file_lock.hpp"
#include "matches/slurm.hpp"

namespace matches {

// --slurm N, --slurm-args, --slurm-dir, --slurm-retries, --slurm-cpus.
struct SlurmOptions {
    int tasks = 0;  // 0: the command runs here, not on Slurm
    std::string sbatch_args;
    std::string dir;  // empty: the command's default
    int retries = 2;
    int cpus = 1;

    bool enabled() const { return tasks > 0; }
};

// What differs between the commands' job arrays.
struct SlurmJob {
    std::string job_name;     // sbatch's --job-name
    std::string state_name;   // task-N.<state_name> grows as a task plays (see SlurmSettings)
    std::string default_dir;  // the run directory when --slurm-dir is not given
    int tasks = 0;            // the tasks to submit (0: --slurm's count)
};

class SlurmDriver {
public:
    // Claims the run directory for this driver (one driver per directory; throws
    // common::InputError when another holds it).
    SlurmDriver(const SlurmOptions& options, const SlurmJob& job);

    const std::string& dir() const { return settings_.dir; }
    int tasks() const { return settings_.tasks; }
    // Task i's file task-i.<extension> in the run directory, by its absolute path (the
    // tasks run elsewhere).
    std::string task_file(int task, std::string_view extension) const;

    // The directory's files of an earlier run go (a run whose results were taken already, or
    // one --fresh replaces), only those, and only when none of its tasks is queued or running:
    // they would go on writing into the new run's files. Throws InputError otherwise, ending
    // with `what_to_do`.
    void discard_earlier_run(std::string_view option, std::string_view what_to_do);

    // The run: every task runs this program with the driver's command line `args` without
    // the options no task takes (the five --slurm-* options, -j and --concurrency, --shard,
    // and `own_options`, with their arity), then per_task(i) (1-based i) and `-j <cpus>`.
    SlurmRun& start(const std::vector<std::string>& args, const std::map<std::string, int>& own_options,
                    std::function<std::vector<std::string>(int)> per_task);

    // Follows the tasks until each has its result (SlurmRun::run). Returns false when
    // `interrupt` was raised, after saying how far the run came (`progress()`, e.g. "after 5
    // of 24 games"), that the tasks go on, and that the same command follows them again and
    // then does `then` ("merge their results").
    bool follow(const std::function<void(int task, const std::string& line)>& on_line, const std::function<void(int task)>& on_done,
                const std::atomic<bool>& interrupt, const std::function<std::string()>& progress, std::string_view then);

private:
    SlurmSettings settings_;
    common::FileLock claim_;
    std::optional<SlurmRun> run_;
};

}  // namespace matches
