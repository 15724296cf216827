// Expected node types (Knuth and Moore): which nodes the search expects to fail high. Only
// multi-cut asks: it is tried at expected cut nodes that are not on the principal variation.
#pragma once

#include "common/search/config.hpp"

namespace search {

// Whether a child is an expected cut node, from its parent's type and its place among the
// parent's moves. A PV node's first child is on the PV, its later (scout) children are cut
// nodes; a cut node's first child is an all node; every child of an all node is a cut node.
// The schemes differ on a cut node's later children, searched only because its first move did
// not cut: `Retype` takes such a node for the all node it turned out to be, so its later
// children are cut nodes; `Alternate` keeps the types alternating by generation (all nodes).
constexpr bool child_expects_cut(McTypes scheme, bool pv_node, bool cut_node, bool first_child) {
    if (first_child) return !pv_node && !cut_node;
    if (pv_node || !cut_node) return true;
    return scheme == McTypes::Retype;
}

}  // namespace search
