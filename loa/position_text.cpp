#include "loa/position_text.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "loa/error.hpp"
#include "common/text.hpp"

namespace loa {
using common::trim;

Position parse_position(std::string_view input) {
    const std::string_view text = trim(input);
    if (text.empty()) throw InputError("empty position text");
    const auto space = text.find_first_of(" \t");
    const std::string_view board = text.substr(0, space);
    if (space == std::string_view::npos)
        throw InputError(fmt::format("position '{}': missing side to move (add ' b' or ' w')", text));
    const std::string_view side = trim(text.substr(space));
    if (side != "b" && side != "w")
        throw InputError(fmt::format("position '{}': side to move must be 'b' or 'w', not '{}'", text, side));

    Bitboard pieces[2] = {0, 0};
    int rank = 7, file = 0;
    for (const char c : board) {
        if (c == '/') {
            if (file != 8)
                throw InputError(fmt::format("position: rank {} has {} squares, expected 8", rank + 1, file));
            if (--rank < 0) throw InputError("position: more than 8 ranks");
            file = 0;
            continue;
        }
        int empty = 0;
        if (c == '.')
            empty = 1;
        else if (c >= '1' && c <= '8')
            empty = c - '0';
        else if (c != 'b' && c != 'w')
            throw InputError(fmt::format(
                "position: unexpected character '{}' in rank {} (expected b, w, '.' or a digit 1-8)", c, rank + 1));
        if (file + std::max(empty, 1) > 8)
            throw InputError(fmt::format("position: rank {} has more than 8 squares", rank + 1));
        if (empty) {
            file += empty;
        } else {
            pieces[c == 'w'] |= square_bb(make_square(file, rank));
            ++file;
        }
    }
    if (rank != 0) throw InputError(fmt::format("position: {} ranks given, expected 8", 8 - rank));
    if (file != 8) throw InputError(fmt::format("position: rank 1 has {} squares, expected 8", file));
    return Position::from_bitboards(pieces[0], pieces[1], side == "b" ? Colour::Black : Colour::White);
}

std::string position_to_text(const Position& pos) {
    std::string out;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const Bitboard bb = square_bb(make_square(file, rank));
            const char piece = (pos.pieces(Colour::Black) & bb) ? 'b' : (pos.pieces(Colour::White) & bb) ? 'w' : 0;
            if (!piece) {
                ++empty;
                continue;
            }
            if (empty) out += static_cast<char>('0' + empty);
            empty = 0;
            out += piece;
        }
        if (empty) out += static_cast<char>('0' + empty);
        if (rank) out += '/';
    }
    out += ' ';
    out += colour_char(pos.side_to_move());
    return out;
}

Position position_from_argument(std::string_view text) {
    const std::string_view t = trim(text);
    if (t == "startpos" || t == "start") return Position::start();
    if (t == "eggs" || t == "scrambled") return Position::scrambled_eggs();
    return parse_position(t);
}

// Position's text members (position.hpp), here with the text they read and write.
Position Position::scrambled_eggs() {
    return from_text("1wbwbwb1/b6w/w6b/b6w/w6b/b6w/w6b/1bwbwbw1 b");
}

Position Position::from_text(std::string_view text) { return parse_position(text); }

std::string Position::to_text() const { return position_to_text(*this); }

}  // namespace loa
