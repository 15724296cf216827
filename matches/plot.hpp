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

// Checks, before a run plays its first game, that its plot can be written: the picture and the
// data and script files beside it (png_path + ".dat", ".gp") are new, or files a plot wrote
// (the picture: a PNG), none a symbolic link or a special file, in a writable directory; and
// that gnuplot is installed. Throws common::InputError naming the file and the cause.
void check_plot_outputs(const std::string& png_path);

// Text as a single-quoted gnuplot string (a quote inside is doubled): names and paths in scripts.
std::string gnuplot_string(std::string_view text);

// Runs gnuplot on a script; throws InputError when it fails or is not installed.
void run_gnuplot(const std::string& script_path);

}  // namespace matches
