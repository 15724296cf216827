// Search-variant strings: rejected with InputError, or a config whose printed form parses to it.
#include <cstdlib>

#include "common/error.hpp"
#include "common/search/config.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const search::SearchConfig c = search::parse_search_config(fuzz::text(data, size));
        if (search::to_string(search::parse_search_config(search::to_string(c))) != search::to_string(c)) std::abort();
    } catch (const common::InputError&) {
    }
    return 0;
}
