// A PNG of how a match developed: the Elo estimate with its 95% pentanomial interval and, with
// an SPRT, the log-likelihood ratio with its bounds, after every whole game pair in the order the
// run counted them (MatchResult::counting_order). Drawn by
// gnuplot (Debian's gnuplot-nox); the data file is written beside the picture.
#pragma once

#include <string>
#include <string_view>

#include "matches/match.hpp"

namespace matches {

void write_plot(const MatchSettings& s, const MatchResult& r, const std::string& png_path);

// Text as a single-quoted gnuplot string (a quote inside is doubled): names and paths in scripts.
std::string gnuplot_string(std::string_view text);

// Runs gnuplot on a script; throws InputError when it fails or is not installed.
void run_gnuplot(const std::string& script_path);

}  // namespace matches
