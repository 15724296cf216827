// A small fast match (2 engines, 6 games at 600 nodes from 3 generated openings; a 1 MB table,
// cleared every game, which under ThreadSanitizer costs more than the search) for the tests
// of the runner and of what reads its records.
#pragma once

#include "loa/position.hpp"
#include "matches/match.hpp"
#include "matches/openings.hpp"
#include "matches/player.hpp"

namespace matches::fixtures {

inline MatchSettings small_match(int concurrency) {
    MatchSettings s;
    s.engines = {parse_engine_spec("name=a,preset=pvs+tt+rhh,nodes=600,qsearch_plies=2,tt=1", 0),
                 parse_engine_spec("name=b,preset=pvs+tt+hh,nodes=600,qsearch_plies=2,tt=1", 1)};
    s.games = 6;
    s.concurrency = concurrency;
    OpeningGenerator g;
    g.count = 3;
    g.plies = 4;
    g.balance_depth = 1;
    g.max_abs_score = 1000;
    s.openings = generate_openings(g, loa::Position::start(), s.rules);
    return s;
}

}  // namespace matches::fixtures
