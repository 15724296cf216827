// Network files (.nnue, docs/nnue.md). A fuzzed file almost never carries its right checksum,
// so each input is also parsed with its checksum recomputed: the reader's size and overflow
// checks, and then the evaluation of a few positions with whatever weights passed them, are
// fuzzed too.
#include <cstring>

#include "common/error.hpp"
#include "common/fnv1a.hpp"
#include "fuzz_input.hpp"
#include "loa/nnue/accumulator.hpp"
#include "loa/nnue/network.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string bytes = fuzz::text(data, size);
    try {
        (void)loa::nnue::parse_network(bytes, "fuzz");
    } catch (const common::InputError&) {
    }
    if (bytes.size() < 8) return 0;
    const std::uint64_t sum = common::fnv1a(std::string_view(bytes).substr(0, bytes.size() - 8));
    std::memcpy(bytes.data() + bytes.size() - 8, &sum, sizeof sum);
    try {
        const auto net = std::make_shared<const loa::nnue::Network>(loa::nnue::parse_network(bytes, "fuzz"));
        loa::nnue::AccumulatorStack stack(net);
        for (const char* text : {"1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 b", "1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 w",
                                 "8/4b2b/8/2b5/8/2w2b2/8/8 w"})
            (void)stack.evaluate(loa::Position::from_text(text));
    } catch (const common::InputError&) {
    }
    return 0;
}
