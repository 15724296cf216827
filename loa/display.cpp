#include "loa/display.hpp"

#include <fmt/format.h>

namespace loa {

std::string diagram(const Position& pos) {
    std::string out = "   +-----------------+\n";
    for (int rank = 7; rank >= 0; --rank) {
        out += fmt::format(" {} |", rank + 1);
        for (int file = 0; file < 8; ++file) {
            const Bitboard bb = square_bb(make_square(file, rank));
            out += ' ';
            out += (pos.pieces(Colour::Black) & bb) ? 'b' : (pos.pieces(Colour::White) & bb) ? 'w' : '.';
        }
        out += " |\n";
    }
    out += "   +-----------------+\n     a b c d e f g h\n";
    out += fmt::format("{} to move; black {} pieces, white {}\n", colour_name(pos.side_to_move()),
                       pos.count(Colour::Black), pos.count(Colour::White));
    return out;
}

}  // namespace loa
