// Opening positions for matches: from a file, or generated (random legal plies kept only when
// a short search judges the result near balanced). Every opening is played twice, colours
// swapped.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "loa/game.hpp"

namespace matches {

struct Opening {
    std::string label;       // where it came from
    loa::Position start;     // the game's start position (standard, eggs, or from the file)
    std::vector<loa::Move> moves;  // opening moves played from `start` before the engines take over
};

// One opening a line: a position string ("... b"), or a move list from `start` ("b1-d3 a2c2").
// Blank lines and lines starting with '#' are skipped. Or game records (PGN, a file whose first
// line is a tag; the --pgn of a match): each game's start (its FEN tag, else the standard start)
// and its moves up to its "{end of opening}" comment, or all of them; a game that repeats the
// one before (the other colour of a pair) is left out. Throws InputError naming the
// line or the game.
std::vector<Opening> load_openings(const std::string& path, const loa::Position& start, const loa::RuleSet& rules);

struct OpeningGenerator {
    int count = 100;
    int plies = 4;             // random plies from the start
    int max_plies = 0;         // > plies: the number of plies is drawn from plies..max_plies
    std::uint64_t seed = 1;
    int balance_depth = 3;     // search depth of the balance check
    int max_abs_score = 150;   // kept when |score| <= this (centi-units)
    // Distinct also under the mirror images that keep the start position (files mirrored, ranks
    // flipped): a mirrored opening is the same test twice.
    bool distinct_under_symmetry = false;
    std::function<void(int kept, int tried)> on_progress;  // called after every kept opening
};

std::vector<Opening> generate_openings(const OpeningGenerator& g, const loa::Position& start, const loa::RuleSet& rules);

// An openings file of generated openings: a header of '#' lines (`header`, one a line), then
// each opening's moves ("b1-d3 a2-c2 ..."), the format load_openings reads (the moves are
// from the start position the openings were generated from: give it again with --start).
std::string openings_file_text(const std::vector<Opening>& openings, const std::vector<std::string>& header);

// A fingerprint of the openings as a match plays them (positions, moves, order): two runs
// with the same fingerprint play the same openings.
std::string openings_digest(const std::vector<Opening>& openings);

// Plays the opening on a new game; the opening's moves are checked against the rules.
loa::Game start_game(const Opening& opening, const loa::RuleSet& rules);

}  // namespace matches
