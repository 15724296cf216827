// Evaluation weight JSON.
#include "common/error.hpp"
#include "fuzz_input.hpp"
#include "loa/evaluation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        (void)loa::parse_weights_json(fuzz::text(data, size));
    } catch (const common::InputError&) {
    }
    return 0;
}
