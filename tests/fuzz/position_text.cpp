// Position text: rejected with InputError, or parsed to a position that prints and parses back.
#include <cstdlib>

#include "common/error.hpp"
#include "fuzz_input.hpp"
#include "loa/position.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const loa::Position pos = loa::Position::from_text(fuzz::text(data, size));
        if (!(loa::Position::from_text(pos.to_text()) == pos)) std::abort();
        if (pos.key() != pos.compute_key()) std::abort();
    } catch (const common::InputError&) {
    }
    return 0;
}
