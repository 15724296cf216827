// Move lists (PGN movetext too), played from the start position through Game (every move
// checked): rejected with InputError (the list, or a move) or played; each accepted move prints
// and parses back to itself.
#include <cstdlib>
#include <string_view>
#include <vector>

#include "common/error.hpp"
#include "fuzz_input.hpp"
#include "loa/game.hpp"
#include "loa/notation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string input = fuzz::text(data, size);
    loa::Game game;
    std::vector<std::string_view> words;
    try {
        words = loa::split_move_list(input);  // a variation or an open comment is refused
    } catch (const common::InputError&) {
        return 0;
    }
    for (const std::string_view word : words) {
        try {
            const loa::Position before = game.position();
            const loa::Move m = game.play(word);
            if (!(loa::parse_move(before, loa::move_to_text(m)) == m)) std::abort();
            if (!(loa::parse_move(before, loa::move_to_compact(m)) == m)) std::abort();
        } catch (const common::InputError&) {
        }
    }
    return 0;
}
