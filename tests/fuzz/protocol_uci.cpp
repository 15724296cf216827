// The UCI-style front end driven by arbitrary scripts (see protocol_script.hpp).
#include "protocol_script.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_script(data, size, loa::engine::run_uci);
}
