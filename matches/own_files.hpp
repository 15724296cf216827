// The kinds of file the runner writes, each with how it recognises one it made (its first
// bytes): what common::replace_file asks before it replaces a file at a path the user named,
// so that a file of the user's there is never overwritten.
#pragma once

#include <string_view>

#include "common/files.hpp"

namespace matches::own {

// A JSON object whose first key is `key` (as nlohmann's dump writes this program's outputs).
common::Ownership json_first_key(std::string_view what, std::string_view key);

// A match's result (--json of a match, merge): {"event": ...
common::Ownership result_json();
// A state file (its first line: the match's settings).
common::Ownership state_file();
// The games in play beside a state file (<state>.live).
common::Ownership live_file();
// The JSON outputs of the subcommands (tune --out, learn-rps --out, margins --json, spsa
// --json, datagen --counts).
common::Ownership weights_file();
common::Ownership realization_file();
common::Ownership margins_json();
common::Ownership spsa_json();
common::Ownership datagen_counts();
// A game of the web board's operator mode (matches/web/operator_games.hpp).
common::Ownership operator_game();
// A file of positions, one position text a line (positions --out).
common::Ownership positions_file();
// A file of openings made by `loa-match openings` (its "# ... balanced LOA openings" header).
common::Ownership openings_file();
// A tree-size output: its JSON result, its raw runs, or its CSV table.
common::Ownership treesize_output();
// The data and script files a plot writes beside its picture, and the picture (a PNG).
common::Ownership plot_data();
common::Ownership plot_script();
common::Ownership picture();

// The first bytes each plot data and script file begins with: what plot_data and plot_script
// recognise (plots of earlier versions, without the mark, are recognised too).
inline constexpr std::string_view PlotDataMark = "# loa-match plot data: ";
inline constexpr std::string_view PlotScriptMark = "# loa-match plot script\n";

}  // namespace matches::own
