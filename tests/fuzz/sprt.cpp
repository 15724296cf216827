// --sprt strings, and the LLR of small samples under the settings they give (finite or a
// clear error, never a crash).
#include <cmath>
#include <cstdlib>

#include "common/error.hpp"
#include "fuzz_input.hpp"
#include "matches/sprt.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        const matches::SprtSettings s = matches::parse_sprt(fuzz::text(data, size));
        matches::Pentanomial p;
        for (std::size_t i = 0; i < 5 && i < size; ++i) p.count[i] = data[i] % 50;
        if (!std::isfinite(matches::sprt_llr(p, s))) std::abort();
    } catch (const common::InputError&) {
    }
    return 0;
}
