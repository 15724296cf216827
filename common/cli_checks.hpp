// Command-line validators whose refusals a person can read: CLI11's PositiveNumber says
// "not in range 0.000000 to 1797693134862315708...", a 300-digit bound. Ours name the value and
// what it should be, and times in milliseconds take a unit as people type them ("1s", "250ms").
#pragma once

#include <CLI/CLI.hpp>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "common/text.hpp"

namespace common {

// A number > 0 (or >= 0 with `allow_zero`).
inline CLI::Validator positive_number(bool allow_zero = false) {
    return CLI::Validator(
        [allow_zero](std::string& text) -> std::string {
            const auto value = parse_double(text);
            if (!value || *value < 0 || (*value == 0 && !allow_zero))
                return fmt::format("'{}' is not a {} number", text, allow_zero ? "non-negative" : "positive");
            return {};
        },
        allow_zero ? "NONNEGATIVE" : "POSITIVE");
}

// A time in milliseconds: "200", "200ms", "1.5s" or "2min", made a number of milliseconds
// for the option it feeds. Use with ->transform().
inline CLI::Validator milliseconds(bool allow_zero = false) {
    return CLI::Validator(
        [allow_zero](std::string& text) -> std::string {
            std::string_view number = trim(text);
            double scale = 1;
            for (const auto& [unit, factor] : {std::pair{"ms", 1.0}, std::pair{"min", 60'000.0}, std::pair{"s", 1000.0}}) {
                const std::string_view u = unit;
                if (number.size() > u.size() && number.ends_with(u)) {
                    number.remove_suffix(u.size());
                    scale = factor;
                    break;
                }
            }
            const auto value = parse_double(trim(number));
            if (!value || *value < 0 || (*value == 0 && !allow_zero) || !std::isfinite(*value * scale) || *value * scale > 1e12)
                return fmt::format("'{}' is not a {} time: milliseconds, or with a unit (250ms, 1.5s, 2min)", text,
                                   allow_zero ? "non-negative" : "positive");
            text = fmt::format("{:.10g}", *value * scale);  // 1.1s is 1100, not 1100.0000000000002
            return {};
        },
        allow_zero ? "MS>=0" : "MS");
}

}  // namespace common
