// Drives a line-based front end (UCI, GTP) with the fuzz input as its script, on a session
// whose searches stop at 300 nodes, so that 'go'/'genmove' with any limit ends quickly.
#pragma once

#include <sstream>

#include "fuzz_input.hpp"
#include "loa/engine/frontends.hpp"

namespace fuzz {

inline int run_script(const std::uint8_t* data, std::size_t size,
                      int (*front_end)(std::istream&, loa::engine::Output&, loa::engine::Session&)) {
    std::istringstream in(text(data, size));
    std::ostringstream out;
    loa::engine::Output output(out);
    loa::engine::Session session;
    session.cap_nodes(300);
    (void)front_end(in, output, session);
    return 0;
}

}  // namespace fuzz
