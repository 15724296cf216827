#include "loa/codingame/embedded_net.hpp"

#include <cstdint>
#include <vector>

#include "loa/error.hpp"

namespace loa::codingame {
namespace {

// The blocks, in order: a character's value is its offset in the blocks laid end to end.
struct Block {
    char16_t first;
    std::uint32_t size;
};
constexpr Block Blocks[] = {{0x3400, 6592}, {0x4E00, 20992}, {0xAC00, 11172}};
constexpr int BitsPerCharacter = 15;

// The characters' bits as bytes, oldest bits lowest (the last byte may be padding).
std::vector<std::uint8_t> text_bytes(std::u16string_view text) {
    std::vector<std::uint8_t> bytes;
    std::uint32_t pending = 0;
    int pending_bits = 0;
    for (const char16_t c : text) {
        std::uint32_t value = 0, offset = 0;
        bool found = false;
        for (const Block& b : Blocks) {
            if (c >= b.first && c < b.first + b.size) value = offset + (c - b.first), found = true;
            offset += b.size;
        }
        if (!found || value >> BitsPerCharacter) throw InputError("the embedded network's text holds a character outside its blocks");
        pending |= value << pending_bits;
        for (pending_bits += BitsPerCharacter; pending_bits >= 8; pending_bits -= 8, pending >>= 8)
            bytes.push_back(static_cast<std::uint8_t>(pending & 0xFF));
    }
    return bytes;
}

}  // namespace

std::string decode_net_text(std::u16string_view text, std::size_t size) {
    // The arithmetic decoder of net_text.py's coder: each bit's probability (16-bit fixed
    // point) is kept per previous byte and position in this byte's bit tree.
    const std::vector<std::uint8_t> packed = text_bytes(text);
    std::vector<std::uint16_t> one(256 * 256, 1 << 15);
    std::uint32_t low = 0, high = 0xFFFFFFFF, value = 0;
    std::size_t at = 0;
    auto next_byte = [&]() -> std::uint32_t { return at < packed.size() ? packed[at++] : (++at, 0); };
    for (int k = 0; k < 4; ++k) value = value << 8 | next_byte();
    std::string bytes;
    bytes.reserve(size);
    for (std::uint32_t previous = 0; bytes.size() < size;) {
        std::uint32_t node = 1;
        for (int k = 0; k < 8; ++k) {
            std::uint16_t& p = one[previous << 8 | node];
            const std::uint32_t middle = low + static_cast<std::uint32_t>((std::uint64_t{high - low} * p) >> 16);
            const int bit = value <= middle;
            if (bit) high = middle;
            else low = middle + 1;
            p = static_cast<std::uint16_t>(p + (((bit << 16) - p) >> 4));
            node = node * 2 + static_cast<std::uint32_t>(bit);
            for (; ((low ^ high) & 0xFF000000) == 0; low <<= 8, high = high << 8 | 0xFF) value = value << 8 | next_byte();
        }
        previous = node & 0xFF;
        bytes.push_back(static_cast<char>(previous));
    }
    // The coder ends with the four bytes of its last bound: a text that read past its bytes
    // is not the network's.
    if (at > packed.size()) throw InputError("the embedded network's text ends before its " + std::to_string(size) + " bytes");
    return bytes;
}

}  // namespace loa::codingame
