// The five --slurm-* options, declared once for every command that runs on Slurm (a match,
// datagen, treesize); matches/slurm_driver.hpp does the rest.
#pragma once

#include <string_view>

#include <CLI/CLI.hpp>

#include "matches/slurm_driver.hpp"

namespace matches::cli {

struct SlurmHelp {
    std::string_view split;        // --slurm N: what the N tasks do ("Split the games over ...")
    std::string_view default_dir;  // the run directory without --slurm-dir ("<out>.slurm")
    std::string_view at_once;      // what --slurm-cpus counts ("Games", "Searches")
};

void add_slurm_options(CLI::App& app, SlurmOptions& options, const SlurmHelp& help);

}  // namespace matches::cli
