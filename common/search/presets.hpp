// The preset tokens of the alpha-beta core ("pvs+tt+killers", "full"): what each switches on.
// The variant layer (common/variant/config.cpp) reads them from variant strings; the CodinGame
// bot (loa/codingame/) starts from "full" here, the engine's default, without that layer.
#pragma once

#include <string_view>

#include "common/search/config.hpp"

namespace search {

// The tokens apply_preset_token knows, in the order `loa variants` lists them.
inline constexpr std::string_view AlphaBetaPresetTokens[] = {"ab",  "pvs", "asp", "tt",  "killers",  "hh",    "bf",  "rhh",
                                                             "ref", "caps", "null", "lmr", "ext", "frontier", "tuned", "full"};

// Turns on what `token` names; false (and `c` unchanged) for a token it does not know.
inline bool apply_preset_token(SearchConfig& c, std::string_view token) {
    if (token == "ab") return true;
    if (token == "pvs") c.pvs = true;
    else if (token == "asp") c.aspiration = true;
    else if (token == "tt") c.tt = true;
    else if (token == "killers") c.killers = 2;
    else if (token == "hh") c.history = HistoryMode::Absolute;
    else if (token == "bf") c.history = HistoryMode::Butterfly;
    else if (token == "rhh") c.history = HistoryMode::Relative;
    else if (token == "ref") c.refutation = true;
    else if (token == "caps") c.captures_first = true;
    else if (token == "null") c.null_move = NullMove::Adaptive;
    else if (token == "lmr") c.lmr = true;
    else if (token == "ext") c.extensions = true;
    else if (token == "frontier") {
        c.futility_margin = StandardFutility;
        c.ext_futility_margin = StandardExtFutility;
        c.razor_margin = StandardRazoring;
    } else if (token == "tuned") {
        // The numbers SPSA tuned on `full` with the network (net2-spsa, docs/spsa.md): LMR's, the
        // aspiration window and the time manager's. The other presets keep the values they
        // started from, the struct's defaults.
        c.lmr_min_depth = 2;
        c.lmr_min_moves = 4;
        c.lmr_deep_depth = 4;
        c.lmr_deep_moves = 2;
        c.aspiration_window = 27;
        c.time_tuning.start_percent = 64;
        c.time_tuning.max_slice_percent = 440;
        c.time_tuning.stable_percent = 68;
    } else if (token == "full") {
        // The frontier trio joined `full` when its SPRTs accepted (docs/strength.md): +19.4 Elo
        // at stc, +16.1 at ltc; the tuned numbers with loa-net-2 (rows 27 and 28).
        for (const char* t : {"pvs", "asp", "tt", "killers", "rhh", "caps", "null", "lmr", "frontier", "tuned"}) apply_preset_token(c, t);
    } else {
        return false;
    }
    return true;
}

}  // namespace search
