// --engine strings of loa-match.
#include "common/error.hpp"
#include "fuzz_input.hpp"
#include "matches/engine_spec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        (void)matches::parse_engine_spec(fuzz::text(data, size), 0);
    } catch (const common::InputError&) {
    }
    return 0;
}
