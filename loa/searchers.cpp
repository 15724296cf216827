// The one place the searchers over LOA are compiled (loa/searchers.hpp says why).
#include "loa/searchers.hpp"

template class search::Searcher<loa::SearchGame>;
template class search::ParallelSearcher<loa::SearchGame>;
template class solver::SolvingSearcher<loa::SearchGame>;
template class mcts::Mcts<loa::SearchGame>;
template class variant::VariantSearcher<loa::SearchGame>;
