// The UCI-style front end driven by arbitrary scripts, on a session whose searches stop
// at 300 nodes (so that 'go'/'genmove' with any limit ends quickly).
#include <sstream>

#include "fuzz_input.hpp"
#include "loa/engine/frontends.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(fuzz::text(data, size));
    std::ostringstream out;
    loa::engine::Output output(out);
    loa::engine::Session session;
    session.cap_nodes(300);
    (void)loa::engine::run_uci(in, output, session);
    return 0;
}
