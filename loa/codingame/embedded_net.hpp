// The network inside the CodinGame bot's source: the arena takes one source file, so the
// shipped .nnue file travels as text, 15 bits a character, in three blocks of the Basic
// Multilingual Plane that hold no combining marks and that Unicode normalisation leaves alone
// (CJK Extension A, CJK Unified Ideographs, Hangul syllables): a character is one UTF-16 unit,
// which is how the arena counts its 100,000. scripts/codingame/net_text.py writes the text; the
// file's own checksum (network.hpp) is checked when the decoded bytes are parsed.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace loa::codingame {

// Defined in the generated source (the bot's file, or net_text.py's output in the build).
extern const char16_t EmbeddedNetText[];
extern const std::size_t EmbeddedNetBytes;

// The bytes `text` holds (`size` of them); throws InputError on a character outside the blocks
// or a text of the wrong length.
std::string decode_net_text(std::u16string_view text, std::size_t size);

}  // namespace loa::codingame
