// The searchers over LOA, compiled once (loa/searchers.cpp) instead of in every file that
// searches. The search core is templates over the game; each of the seventeen files that search
// LOA compiled all of it again, in each of the three builds of the test command (Release,
// ASan/UBSan, TSan). Declared here as instantiated elsewhere, a file compiles only what it inlines:
// analyze_command.cpp at -O3 took 15.6 s before, 8.1 s after. Include this header, not the
// common ones, wherever LOA is searched.
#pragma once

#include "common/search/lazy_smp.hpp"
#include "common/search/search.hpp"
#include "common/solver/solving_searcher.hpp"
#include "common/variant/searcher.hpp"
#include "loa/search_game.hpp"

extern template class search::Searcher<loa::SearchGame>;
extern template class search::ParallelSearcher<loa::SearchGame>;
extern template class solver::SolvingSearcher<loa::SearchGame>;
extern template class mcts::Mcts<loa::SearchGame>;
extern template class variant::VariantSearcher<loa::SearchGame>;
