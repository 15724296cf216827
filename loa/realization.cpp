#include "loa/realization.hpp"

#include <algorithm>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/files.hpp"
#include "loa/error.hpp"

namespace loa {

std::string describe_realization_category(int category) {
    const int at_from = category % 3, at_to = category / 3 % 4, to_ring = category / 12 % 4,
              from_ring = category / 48 % 4, capture = category / 192;
    return fmt::format("{}, ring {} -> {}, {}{} own at to, {}{} own left at from", capture ? "capture" : "quiet", from_ring,
                       to_ring, at_to, at_to == 3 ? "+" : "", at_from, at_from == 2 ? "+" : "");
}

void RealizationProbabilities::compute() {
    available.resize(RealizationCategoryCount);
    played.resize(RealizationCategoryCount);
    std::uint64_t all_available = 0, all_played = 0;
    for (int c = 0; c < RealizationCategoryCount; ++c) {
        all_available += available[static_cast<std::size_t>(c)];
        all_played += played[static_cast<std::size_t>(c)];
    }
    const double mean = all_available ? static_cast<double>(all_played) / static_cast<double>(all_available) : 0.5;
    probability.assign(RealizationCategoryCount, mean);
    for (std::size_t c = 0; c < probability.size(); ++c)
        probability[c] = (static_cast<double>(played[c]) + smoothing * mean) / (static_cast<double>(available[c]) + smoothing);
}

std::string realization_to_json(const RealizationProbabilities& p) {
    nlohmann::ordered_json j;
    j["format"] = "loa-realization-probabilities-1";
    j["categories"] = RealizationCategoryCount;
    j["category"] = "capture x from ring x to ring x own neighbours at to (0-3+) x own neighbours left at from (0-2+)";
    j["games"] = p.games;
    j["positions"] = p.positions;
    j["min_ply"] = p.min_ply;
    j["smoothing"] = p.smoothing;
    j["available"] = p.available;
    j["played"] = p.played;
    j["probability"] = p.probability;
    return j.dump(1);
}

RealizationProbabilities parse_realization_json(const std::string& text) {
    RealizationProbabilities p;
    try {
        const auto j = nlohmann::json::parse(text);
        if (j.at("format").get<std::string>() != "loa-realization-probabilities-1")
            throw InputError("realization probabilities: unknown format '" + j.at("format").get<std::string>() + "'");
        p.games = j.at("games").get<std::uint64_t>();
        p.positions = j.at("positions").get<std::uint64_t>();
        p.min_ply = j.at("min_ply").get<int>();
        p.smoothing = j.at("smoothing").get<double>();
        p.available = j.at("available").get<std::vector<std::uint64_t>>();
        p.played = j.at("played").get<std::vector<std::uint64_t>>();
        p.probability = j.at("probability").get<std::vector<double>>();
    } catch (const nlohmann::json::exception& e) {
        throw InputError(fmt::format("realization probabilities: {}", e.what()));
    }
    const auto n = static_cast<std::size_t>(RealizationCategoryCount);
    if (p.available.size() != n || p.played.size() != n || p.probability.size() != n)
        throw InputError(fmt::format("realization probabilities: {} categories expected", n));
    for (std::size_t c = 0; c < n; ++c) {
        if (!(p.probability[c] > 0 && p.probability[c] <= 1))
            throw InputError(fmt::format("realization probabilities: category {} has probability {} (must be in (0, 1])", c,
                                         p.probability[c]));
        if (p.played[c] > p.available[c])
            throw InputError(fmt::format("realization probabilities: category {} played more often than available", c));
    }
    return p;
}

RealizationProbabilities load_realization_file(const std::string& path) {
    const std::string text = common::read_file(path, common::MaxOptionFile, "realization probabilities");
    try {
        return parse_realization_json(text);
    } catch (const InputError& e) {
        throw InputError(fmt::format("'{}': {}", path, e.what()));
    }
}

}  // namespace loa
