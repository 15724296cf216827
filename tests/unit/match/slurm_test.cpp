// Slurm: a task's command line is the driver's without the driver's own options.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "matches/slurm.hpp"

namespace matches {
namespace {

TEST(Slurm, ATaskGetsTheCommandLineWithoutTheDriversOptions) {
    const std::map<std::string, int> drop = {{"--slurm", 1}, {"--json", 1}, {"-q", 0}, {"-j", 1}, {"--fresh", 0}};
    const std::vector<std::string> args = {"loa-match", "--engine", "name=a,depth=2", "--slurm", "4",   "--json=x.json",
                                           "-q",        "--games",  "8",              "-j",      "2",   "--fresh",
                                           "--engine",  "name=b",   "--json",         "y.json",  "-j4", "-g8"};
    EXPECT_EQ(task_arguments(args, drop),
              (std::vector<std::string>{"--engine", "name=a,depth=2", "--games", "8", "--engine", "name=b", "-g8"}));
    // A subcommand stays; a value that looks like an option is a value.
    EXPECT_EQ(task_arguments({"loa-match", "treesize", "--slurm", "--json", "--variant", "pvs"}, drop),
              (std::vector<std::string>{"treesize", "--variant", "pvs"}));
}

}  // namespace
}  // namespace matches
