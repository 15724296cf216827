// Rule strings: rejected with InputError, or rules that print and parse back.
#include <cstdlib>

#include "common/error.hpp"
#include "fuzz_input.hpp"
#include "loa/rules.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const loa::RuleSet r = loa::parse_rules(fuzz::text(data, size));
        if (!(loa::parse_rules(loa::to_string(r)) == r)) std::abort();
    } catch (const common::InputError&) {
    }
    return 0;
}
