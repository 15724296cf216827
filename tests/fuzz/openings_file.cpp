// Opening files (a position or a move list a line).
#include "common/error.hpp"
#include "fuzz_input.hpp"
#include "matches/openings.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string path = fuzz::as_file(data, size, "openings");
    try {
        (void)matches::load_openings(path, loa::Position::start(), loa::RuleSet{});
    } catch (const common::InputError&) {
    }
    return 0;
}
