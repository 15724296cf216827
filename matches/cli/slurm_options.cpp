#include "matches/cli/slurm_options.hpp"

#include <string>

namespace matches::cli {

void add_slurm_options(CLI::App& app, SlurmOptions& options, const SlurmHelp& help) {
    app.add_option("--slurm", options.tasks, std::string(help.split))->check(CLI::Range(1, 100000));
    app.add_option("--slurm-args", options.sbatch_args, "Extra sbatch arguments, e.g. \"--partition=short --time=2:00:00\"");
    app.add_option("--slurm-dir", options.dir,
                   "Directory of the tasks' files on the shared filesystem (default: " + std::string(help.default_dir) + ")");
    app.add_option("--slurm-retries", options.retries, "Resubmissions of a failed task")->check(CLI::Range(0, 100))->capture_default_str();
    app.add_option("--slurm-cpus", options.cpus, std::string(help.at_once) + " at once in each task (its --cpus-per-task)")
        ->check(CLI::Range(1, 1024))
        ->capture_default_str();
}

}  // namespace matches::cli
