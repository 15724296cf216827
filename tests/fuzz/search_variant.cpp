// Search-variant strings: rejected with InputError, or a config whose printed form parses to it.
#include <cstdlib>

#include "common/error.hpp"
#include "common/variant/config.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const variant::VariantConfig c = variant::parse_variant(fuzz::text(data, size));
        if (variant::to_string(variant::parse_variant(variant::to_string(c))) != variant::to_string(c)) std::abort();
    } catch (const common::InputError&) {
    }
    return 0;
}
