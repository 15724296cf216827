// The CodinGame front end driven by arbitrary referee transcripts, searches capped at 300 nodes.
#include <sstream>

#include "fuzz_input.hpp"
#include "loa/engine/frontends.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(fuzz::text(data, size));
    std::ostringstream out, log;
    loa::engine::CodinGameSettings settings;
    settings.node_cap = 300;
    (void)loa::engine::run_codingame(in, out, log, settings);
    return 0;
}
