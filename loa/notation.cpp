#include "loa/notation.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "loa/error.hpp"
#include "loa/movegen.hpp"

namespace loa {

std::optional<Square> parse_square(std::string_view text) {
    if (text.size() != 2) return std::nullopt;
    const char f = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
    const char r = text[1];
    if (f < 'a' || f > 'h' || r < '1' || r > '8') return std::nullopt;
    return make_square(f - 'a', r - '1');
}

Move parse_move(const Position& pos, std::string_view text) {
    const MoveList legal = legal_moves(pos);
    const bool must_pass = legal.size() == 1 && legal[0].is_pass();
    if (text == "pass") {
        if (!must_pass) throw InputError("illegal move 'pass': passing is allowed only without a legal move");
        return Move::pass();
    }
    char marker = 0;
    std::string_view from_text, to_text;
    if (text.size() == 4) {
        from_text = text.substr(0, 2);
        to_text = text.substr(2, 2);
    } else if (text.size() == 5 && (text[2] == '-' || text[2] == 'x' || text[2] == 'X')) {
        from_text = text.substr(0, 2);
        to_text = text.substr(3, 2);
        marker = static_cast<char>(std::tolower(static_cast<unsigned char>(text[2])));
    } else {
        throw InputError(fmt::format("malformed move '{}' (expected e.g. b1-d3, c1xa3, b1d3 or pass)", text));
    }
    const auto from = parse_square(from_text), to = parse_square(to_text);
    if (!from || !to)
        throw InputError(fmt::format("malformed move '{}': '{}' is not a square a1..h8", text, !from ? from_text : to_text));
    for (const Move m : legal) {
        if (m.is_pass() || m.from() != *from || m.to() != *to) continue;
        if (marker == 'x' && !m.is_capture())
            throw InputError(fmt::format("move '{}' is marked as a capture but {} is empty", text, to_text));
        if (marker == '-' && m.is_capture())
            throw InputError(fmt::format("move '{}' captures on {}: write {}", text, to_text, move_to_text(m)));
        return m;
    }
    const Bitboard from_bb = square_bb(*from);
    const Colour us = pos.side_to_move();
    if (!(pos.pieces(us) & from_bb))
        throw InputError(fmt::format("illegal move '{}': no {} piece on {}", text, colour_name(us), from_text));
    throw InputError(fmt::format("illegal move '{}' for {}", text, colour_name(us)));
}

namespace {

// The index just past the variation that opens at text[open] ('('), nested ones and comments
// (brace, rest-of-line and escape lines, which may hold parentheses) included.
std::size_t variation_end(std::string_view text, std::size_t open) {
    int depth = 0;
    for (std::size_t i = open; i < text.size(); ++i) {
        if (text[i] == '{') {
            i = text.find('}', i);
            if (i == std::string_view::npos) break;
        } else if (text[i] == ';' || (text[i] == '%' && text[i - 1] == '\n')) {
            i = text.find('\n', i);
            if (i == std::string_view::npos) break;
        } else if (text[i] == '(') {
            ++depth;
        } else if (text[i] == ')' && --depth == 0) {
            return i + 1;
        }
    }
    throw InputError("move list: a variation '(' is not closed");
}

}  // namespace

MoveText parse_movetext(std::string_view text, Variations variations) {
    MoveText out;
    const auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) || c == ','; };
    std::size_t i = 0;
    while (i < text.size()) {
        const char c = text[i];
        if (is_space(c)) {
            ++i;
        } else if (c == '%' && (i == 0 || text[i - 1] == '\n')) {  // an escape line
            i = std::min(text.size(), text.find('\n', i));
        } else if (c == ';') {  // a comment to the end of the line
            const std::size_t end = std::min(text.size(), text.find('\n', i));
            out.comments.emplace_back(out.moves.size(), text.substr(i + 1, end - i - 1));
            i = end;
        } else if (c == '{') {
            const std::size_t end = text.find('}', i);
            if (end == std::string_view::npos) throw InputError("move list: a comment '{' is not closed");
            out.comments.emplace_back(out.moves.size(), text.substr(i + 1, end - i - 1));
            i = end + 1;
        } else if (c == '(' && variations == Variations::Skip) {
            i = variation_end(text, i);
        } else if (c == '(' || c == ')') {
            if (variations == Variations::Skip) throw InputError("move list: a ')' closes no variation");
            throw InputError("move list: variations '( ... )' are not read: give the line to play only");
        } else {
            std::size_t j = i;
            while (j < text.size() && !is_space(text[j]) && text[j] != '{' && text[j] != ';' && text[j] != '(' && text[j] != ')')
                ++j;
            std::string_view token = text.substr(i, j - i);
            i = j;
            // A move number, alone or glued to its move ("12.", "12...", "1.b1-d3").
            const std::size_t digits = token.find_first_not_of("0123456789");
            if (digits > 0 && digits != std::string_view::npos && token[digits] == '.') {
                const std::size_t after = token.find_first_not_of('.', digits);
                if (after == std::string_view::npos) continue;  // "12." or "12..."
                token.remove_prefix(after);                     // "1.b1-d3"
            }
            if (token.front() == '$') continue;  // NAG
            if (token == "1-0" || token == "0-1" || token == "1/2-1/2" || token == "*") continue;
            while (!token.empty() && (token.back() == '!' || token.back() == '?')) token.remove_suffix(1);
            if (!token.empty()) out.moves.push_back(token);
        }
    }
    return out;
}

std::vector<std::string_view> split_move_list(std::string_view text) { return parse_movetext(text).moves; }

}  // namespace loa
