// Learns the realization probabilities of move categories (loa/realization.hpp) from game
// records: in every position of a game from `min_ply` on (by default from the end of the
// game's opening, whose random moves nobody chose), each legal move counts as available in its
// category, and the move played as played in its own.
#pragma once

#include <string>
#include <vector>

#include "loa/realization.hpp"
#include "loa/rules.hpp"

namespace matches {

struct RealizationLearning {
    std::vector<std::string> record_files;  // written by loa-match --pgn
    loa::RuleSet rules;                     // the rules the games were played under
    int min_ply = -1;                       // -1: from each game's "{end of opening}"
    double smoothing = 10;
};

// Throws InputError on unreadable or malformed records (naming the file), or when no position
// was counted.
loa::RealizationProbabilities learn_realization(const RealizationLearning& settings);

// A readable summary: the counts and the most and least likely categories.
std::string realization_summary(const loa::RealizationProbabilities& p, int shown = 8);

}  // namespace matches
