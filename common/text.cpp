#include "common/text.hpp"

#include <algorithm>
#include <cerrno>
#include <cctype>
#include <charconv>
#include <cmath>
#include <system_error>

#include <fmt/format.h>

#include "common/error.hpp"

namespace common {

std::string_view trim(std::string_view s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string_view::npos) return {};
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

std::vector<std::string_view> split(std::string_view s, char separator) {
    std::vector<std::string_view> parts;
    for (;;) {
        const auto at = s.find(separator);
        parts.push_back(s.substr(0, at));
        if (at == std::string_view::npos) return parts;
        s.remove_prefix(at + 1);
    }
}

std::vector<std::pair<std::string_view, std::string_view>> parse_key_values(std::string_view spec,
                                                                             std::string_view what) {
    std::vector<std::pair<std::string_view, std::string_view>> out;
    if (trim(spec).empty()) return out;
    for (const std::string_view item : split(spec, ',')) {
        const std::string_view field = trim(item);
        if (field.empty()) throw InputError(fmt::format("{}: empty item in '{}'", what, spec));
        const auto eq = field.find('=');
        const std::string_view key = trim(field.substr(0, eq));
        const std::string_view value = eq == std::string_view::npos ? std::string_view{} : trim(field.substr(eq + 1));
        if (key.empty()) throw InputError(fmt::format("{}: missing key in '{}'", what, field));
        if (eq != std::string_view::npos && value.empty())
            throw InputError(fmt::format("{}: missing value for '{}'", what, key));
        out.emplace_back(key, value);
    }
    return out;
}

std::optional<long long> parse_int64(std::string_view s) {
    s = trim(s);
    long long v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
    return v;
}

std::optional<double> parse_double(std::string_view s) {
    s = trim(s);
    if (s.size() > 1 && s.front() == '+') s.remove_prefix(1);  // from_chars takes no '+'; people write it
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty() || !std::isfinite(v)) return std::nullopt;
    return v;
}

std::optional<int> parse_int(std::string_view s) {
    const auto v = parse_int64(s);
    if (!v || *v < -2147483647LL || *v > 2147483647LL) return std::nullopt;
    return static_cast<int>(*v);
}

void append_word(std::string& s, std::string_view word) {
    if (!s.empty()) s += ' ';
    s += word;
}

std::string lowercase(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool has_control_character(std::string_view s) {
    for (const char c : s)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) return true;
    return false;
}

std::string excerpt(std::string_view s, std::size_t max) {
    std::string out;
    for (const char c : s.substr(0, max)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7F) {  // a NUL would end the message, an escape drive the terminal
            static constexpr char Hex[] = "0123456789abcdef";
            out += "\\x";
            out += Hex[byte >> 4];
            out += Hex[byte & 15];
        } else {
            out += c;
        }
    }
    if (s.size() > max) out += "... (" + std::to_string(s.size()) + " bytes)";
    return out;
}

std::string nearest_word(std::string_view word, const std::vector<std::string>& candidates) {
    const std::string a = lowercase(word);
    const std::size_t allowed = std::min<std::size_t>(2, std::max<std::size_t>(1, a.size() / 3));
    std::string best;
    std::size_t best_distance = allowed + 1;
    for (const std::string& candidate : candidates) {
        const std::string b = lowercase(candidate);
        // Edit distance with a swap of neighbouring letters as one edit (the commonest typo:
        // "nodse"), row by row: `before` and `last` are the two rows above.
        std::vector<std::size_t> before(b.size() + 1), last(b.size() + 1), row(b.size() + 1);
        for (std::size_t j = 0; j <= b.size(); ++j) last[j] = j;
        for (std::size_t i = 1; i <= a.size(); ++i) {
            row[0] = i;
            for (std::size_t j = 1; j <= b.size(); ++j) {
                row[j] = std::min({last[j] + 1, row[j - 1] + 1, last[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
                if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) row[j] = std::min(row[j], before[j - 2] + 1);
            }
            std::swap(before, last);
            std::swap(last, row);
        }
        if (last[b.size()] < best_distance) {
            best_distance = last[b.size()];
            best = candidate;
        }
    }
    return best;
}

std::string last_system_error() {
    const int code = errno;
    return code ? std::error_code(code, std::generic_category()).message() : std::string("reason unknown");
}

}  // namespace common
