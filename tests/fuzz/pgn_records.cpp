// The PGN-like game records loa-match writes.
#include <sstream>

#include "common/error.hpp"
#include "fuzz_input.hpp"
#include "matches/records.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(fuzz::text(data, size));
    try {
        (void)matches::read_records(in);
    } catch (const common::InputError&) {
    }
    return 0;
}
