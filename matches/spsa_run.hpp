// `loa-match spsa`: an SPSA run (matches/spsa.hpp) played out, one iteration after another,
// each iteration `pairs` game pairs (an opening, colours swapped) between the two perturbed
// engines, over `threads` games at once.
//
// The run's file is its record and its state, JSON lines: a header with every setting, then
// one line per iteration (its signs, both engines' values, the games' wins / draws / losses
// for the plus engine, theta after the update). Run again on its file with the same settings,
// it checks every line (the signs are drawn again from the seed and the updates recomputed)
// and goes on after the last one; a line cut by a kill is dropped and that iteration played
// again. A file of other settings, or not of this program, is refused and left as it is.
// The trajectory depends on the games alone, not on -j.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "loa/rules.hpp"
#include "matches/engine_spec.hpp"
#include "matches/openings.hpp"
#include "matches/spsa.hpp"

namespace matches {

struct SpsaSettings {
    std::string engine = "name=spsa,preset=full";  // both sides: this, plus the tuned keys
    std::vector<SpsaParam> params;
    SpsaSchedule schedule;
    int pairs = 1;  // game pairs an iteration (one sign vector, one update)
    std::uint64_t seed = 1;
    int threads = 1;
    std::vector<Opening> openings;  // played in an order shuffled by the seed
    std::string openings_name = "standard start";
    loa::RuleSet rules;
    // After every iteration (played or read back): its number and theta after it.
    std::function<void(int k, const std::vector<double>& theta, int wins, int draws, int losses)> on_iteration;
};

struct SpsaIteration {
    int k = 0;
    std::vector<int> flips;
    std::vector<double> plus, minus;  // the values the engines played (before rounding)
    int wins = 0, draws = 0, losses = 0;  // the plus engine's
    std::vector<double> theta;  // after the update
};

struct SpsaResult {
    std::vector<double> start, theta;
    std::vector<SpsaIteration> iterations;  // all of them, the resumed ones first
    int resumed = 0;                        // iterations read from the file
    int time_losses = 0;                    // games of this run lost on time
};

// The header line of a run of `s`.
std::string spsa_header(const SpsaSettings& s);

// Plays the iterations missing from `path` (created when missing). Throws InputError, touching
// nothing, when the file is not this run's, another run holds it, or a setting is unusable
// (an external engine, no limit, a parameter twice, values the engine refuses).
SpsaResult run_spsa(const SpsaSettings& s, const std::string& path);

// A PNG of each parameter over the iterations (gnuplot; the data beside it, PATH.dat).
void write_spsa_plot(const SpsaSettings& s, const SpsaResult& r, const std::string& png_path);

}  // namespace matches
