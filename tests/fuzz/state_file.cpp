// loa-match state files (settings line, then one game record a line), for a fixed match.
#include "common/error.hpp"
#include "fuzz_input.hpp"
#include "matches/state.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const matches::MatchSettings settings = [] {
        matches::MatchSettings s;
        s.engines = {matches::parse_engine_spec("name=a,depth=1", 0), matches::parse_engine_spec("name=b,depth=1", 1)};
        s.games = 4;
        return s;
    }();
    const std::string path = fuzz::as_file(data, size, "state");
    try {
        (void)matches::StateFile(path, settings).load();
    } catch (const common::InputError&) {
    }
    return 0;
}
