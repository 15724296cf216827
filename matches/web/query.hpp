// What the board's streaming routes share: reading a query's parameters, and writing a
// server-sent event.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/text.hpp"
#include "loa/error.hpp"
#include "matches/web/game_api.hpp"

namespace matches::web {

inline std::string query_param(const std::map<std::string, std::string>& params, const char* key) {
    const auto it = params.find(key);
    return it == params.end() ? std::string() : it->second;
}

// An integer parameter within [low, high]; nullopt when absent; InputError naming it otherwise.
inline std::optional<long long> query_number(const std::map<std::string, std::string>& params, const char* key, long long low,
                                             long long high) {
    const std::string text = query_param(params, key);
    if (text.empty()) return std::nullopt;
    const auto value = common::parse_int64(text);
    if (!value || *value < low || *value > high)
        throw InputError(fmt::format("'{}' must be an integer from {} to {}, not '{}'", key, low, high, text));
    return *value;
}

inline std::string sse_event(std::string_view name, const nlohmann::json& data) {
    return fmt::format("event: {}\ndata: {}\n\n", name, json_text(data));
}

}  // namespace matches::web
