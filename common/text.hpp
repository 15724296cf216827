// Small text helpers shared by the parsers of option strings ("key=value,key=value").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace common {

std::string_view trim(std::string_view s);
std::vector<std::string_view> split(std::string_view s, char separator);
// Splits "a=1, b=x ,c" into {("a","1"),("b","x"),("c","")}; `what` names the string in
// errors (empty keys, duplicate '=').
std::vector<std::pair<std::string_view, std::string_view>> parse_key_values(std::string_view spec,
                                                                             std::string_view what);
std::optional<int> parse_int(std::string_view s);
// Appends `word`, with a space before it unless `s` is empty.
void append_word(std::string& s, std::string_view word);
// ASCII lower case: protocol names and options are matched without regard to case.
std::string lowercase(std::string_view s);
// Whether `s` holds an ASCII control character (a newline, a tab, ...).
bool has_control_character(std::string_view s);
// `s` as an error message may quote it: whole when at most `max` bytes, else its first `max`
// bytes and how long it was ("abc... (10485760 bytes)"), so that a huge bad token is not
// echoed back in full; control characters are written \xNN (a NUL would cut the message).
std::string excerpt(std::string_view s, std::size_t max = 200);
std::optional<long long> parse_int64(std::string_view s);
// A finite decimal number ("0.05", "+5", "3", "1e-3"), the whole string; nullopt otherwise.
std::optional<double> parse_double(std::string_view s);
// The candidate nearest to `word` (case-insensitive edit distance), if it is near enough to be
// what was meant (at most a third of the word's length, and 2, away); empty otherwise. For the
// "did you mean" of error messages.
std::string nearest_word(std::string_view word, const std::vector<std::string>& candidates);
// Why the last system call failed, as the system says it ("No such file or directory"), from
// errno, which the caller sets to 0 before the call; "reason unknown" when the call set none.
// Safe on any thread with glibc 2.32 or later (libstdc++ takes the text from strerror).
std::string last_system_error();

}  // namespace common
