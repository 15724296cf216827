// Node types: children follow Knuth and Moore, the schemes differ only behind a failed cut.
#include <gtest/gtest.h>

#include "common/search/frontier.hpp"
#include "common/search/margin_probe.hpp"
#include "common/search/node_type.hpp"
#include "common/search/search.hpp"

namespace {

// Knuth and Moore's node types, written out from their definition: a PV node's first child is
// on the PV and its scouts are cut nodes; a cut node's first child is an all node; every child
// of an all node is a cut node. The schemes differ only on a cut node's later children.
TEST(NodeTypes, ChildrenFollowKnuthAndMooreAndTheSchemesDifferOnlyBehindAFailedCut) {
    using search::child_expects_cut;
    using search::McTypes;
    for (const McTypes scheme : {McTypes::Retype, McTypes::Alternate}) {
        // parent: (pv, cut)
        EXPECT_FALSE(child_expects_cut(scheme, true, false, true));   // PV -> PV
        EXPECT_TRUE(child_expects_cut(scheme, true, false, false));   // PV scout -> cut
        EXPECT_FALSE(child_expects_cut(scheme, false, true, true));   // cut -> all
        EXPECT_TRUE(child_expects_cut(scheme, false, false, true));   // all -> cut
        EXPECT_TRUE(child_expects_cut(scheme, false, false, false));  // all -> cut
    }
    // A cut node whose first move did not cut turned out an all node: its later children are
    // cut nodes (Retype), or all nodes when types simply alternate by generation.
    EXPECT_TRUE(child_expects_cut(McTypes::Retype, false, true, false));
    EXPECT_FALSE(child_expects_cut(McTypes::Alternate, false, true, false));
}

}  // namespace
