#include "matches/slurm_driver.hpp"

#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "common/error.hpp"

namespace matches {

namespace {

SlurmSettings settings_of(const SlurmOptions& options, const SlurmJob& job) {
    SlurmSettings s;
    s.tasks = job.tasks > 0 ? job.tasks : options.tasks;
    s.sbatch_args = options.sbatch_args;
    s.retries = options.retries;
    s.cpus_per_task = options.cpus;
    s.poll_seconds = 1;
    s.job_name = job.job_name;
    s.state_name = job.state_name;
    s.dir = run_directory_path(!options.dir.empty() ? options.dir : job.default_dir);
    return s;
}

// Options of the driver's command line that no task takes, whatever the command: the driver's
// own, and what every task is given for itself.
const std::map<std::string, int> SharedDriverOptions = {
    {"--slurm", 1}, {"--slurm-args", 1}, {"--slurm-dir", 1}, {"--slurm-retries", 1}, {"--slurm-cpus", 1},
    {"-j", 1},      {"--concurrency", 1}, {"--shard", 1}};

}  // namespace

SlurmDriver::SlurmDriver(const SlurmOptions& options, const SlurmJob& job)
    : settings_(settings_of(options, job)), claim_(settings_.dir) {}

std::string SlurmDriver::task_file(int task, std::string_view extension) const {
    return fmt::format("{}/task-{}.{}", std::filesystem::absolute(settings_.dir).string(), task, extension);
}

void SlurmDriver::discard_earlier_run(std::string_view option, std::string_view what_to_do) {
    if (!std::filesystem::exists(settings_.dir)) return;
    const SlurmRun earlier(settings_, {}, [](int) { return std::vector<std::string>{}; });
    const auto active = earlier.active_tasks();
    if (!active || !active->empty())
        throw common::InputError(fmt::format("{}tasks of the earlier run in {} are still queued or running (or squeue does not "
                                             "answer): {}",
                                             option.empty() ? "" : fmt::format("{}: ", option), settings_.dir, what_to_do));
    earlier.clean_up();  // its files only
}

SlurmRun& SlurmDriver::start(const std::vector<std::string>& args, const std::map<std::string, int>& own_options,
                             std::function<std::vector<std::string>(int)> per_task) {
    std::map<std::string, int> dropped = SharedDriverOptions;
    dropped.insert(own_options.begin(), own_options.end());
    const std::string cpus = std::to_string(settings_.cpus_per_task);
    run_.emplace(settings_, task_command(args, dropped), [per_task = std::move(per_task), cpus](int task) {
        std::vector<std::string> extra = per_task(task);
        extra.insert(extra.end(), {"-j", cpus});
        return extra;
    });
    return *run_;
}

bool SlurmDriver::follow(const std::function<void(int, const std::string&)>& on_line, const std::function<void(int)>& on_done,
                         const std::atomic<bool>& interrupt, const std::function<std::string()>& progress, std::string_view then) {
    if (run_->run(on_line, on_done, &interrupt)) return true;
    fmt::print("Interrupted {}; the Slurm tasks go on.\nRun the same command again to follow them and {}.\n", progress(), then);
    std::fflush(stdout);
    return false;
}

}  // namespace matches
