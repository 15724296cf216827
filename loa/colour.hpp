#pragma once

#include <cstdint>
#include <string_view>

namespace loa {

enum class Colour : std::uint8_t { Black = 0, White = 1 };

constexpr Colour operator~(Colour c) { return c == Colour::Black ? Colour::White : Colour::Black; }
constexpr int index(Colour c) { return static_cast<int>(c); }
constexpr char colour_char(Colour c) { return c == Colour::Black ? 'b' : 'w'; }
constexpr std::string_view colour_name(Colour c) { return c == Colour::Black ? "black" : "white"; }

}  // namespace loa
