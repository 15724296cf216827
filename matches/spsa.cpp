#include "matches/spsa.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/splitmix64.hpp"
#include "common/variant/keys.hpp"
#include "common/text.hpp"

namespace matches {
namespace {

using common::InputError;

using common::splitmix64;

// "futility.opening" -> ("futility", 0), "futility.endgame" -> ("futility", 1), else (name, -1).
std::pair<std::string, int> split_half(std::string_view name) {
    for (const auto& [suffix, half] : {std::pair{".opening", 0}, std::pair{".endgame", 1}})
        if (name.ends_with(suffix)) return {std::string(name.substr(0, name.size() - std::string_view(suffix).size())), half};
    return {std::string(name), -1};
}

bool is_margin_key(const variant::VariantKey& key) { return key.values.find("<opening>:<endgame>") != std::string::npos; }

// Integer keys and the few text keys that take a number for their strength. Not: switches (0
// and 1 would read as off and on), choices, sizes of tables and thread counts (more is not
// "better play" to tune but a resource), the MCTS seed.
bool tunable(const variant::VariantKey& key) {
    static const std::set<std::string_view> resources = {"threads", "mcts_tree", "mcts_seed", "tt", "eval_cache", "solver"};
    static const std::set<std::string_view> numeric_text = {"aspiration", "null", "solver_score", "lmp", "iir"};
    if (resources.contains(key.name)) return false;
    return key.kind == variant::KeyKind::Integer || is_margin_key(key) || numeric_text.contains(key.name);
}

long rounded(double v) { return std::lround(v); }

// A margin's two halves as the key prints them: "90:120", "90" (both the same) or "off".
std::optional<std::pair<long, long>> margin_halves(const std::string& text) {
    const auto parts = common::split(text, ':');
    const auto first = common::parse_int(parts[0]);
    if (!first) return std::nullopt;
    const auto second = parts.size() == 2 ? common::parse_int(parts[1]) : first;
    if (!second) return std::nullopt;
    return std::pair<long, long>{*first, *second};
}

}  // namespace

SpsaParam parse_spsa_param(std::string_view text) {
    const auto eq = text.find('=');
    if (eq == std::string_view::npos || eq == 0)
        throw InputError(fmt::format("spsa: parameter '{}': expected NAME=start,min,max[,c_end[,r_end]]", text));
    SpsaParam p;
    p.name = std::string(text.substr(0, eq));
    const auto fields = common::split(text.substr(eq + 1), ',');
    if (fields.size() < 3 || fields.size() > 5)
        throw InputError(fmt::format("spsa: parameter '{}': expected NAME=start,min,max[,c_end[,r_end]], got {} numbers", text, fields.size()));
    std::vector<double> v;
    for (const std::string_view f : fields) {
        const auto d = common::parse_double(f);
        if (!d || !std::isfinite(*d)) throw InputError(fmt::format("spsa: parameter '{}': '{}' is not a number", p.name, f));
        v.push_back(*d);
    }
    p.start = v[0], p.min = v[1], p.max = v[2];
    if (!(p.min < p.max)) throw InputError(fmt::format("spsa: parameter '{}': min {:g} must be below max {:g}", p.name, p.min, p.max));
    if (p.start < p.min || p.start > p.max)
        throw InputError(fmt::format("spsa: parameter '{}': start {:g} is outside [{:g}, {:g}]", p.name, p.start, p.min, p.max));
    const auto [key_name, half] = split_half(p.name);
    const variant::VariantKey* key = variant::find_variant_key(key_name);
    if (!key) {
        const std::string near = common::nearest_word(key_name, variant::variant_key_names());
        throw InputError(fmt::format("spsa: parameter '{}': no search key '{}'{} (loa variants lists them)", p.name, key_name,
                                     near.empty() ? "" : fmt::format("; did you mean '{}'?", near)));
    }
    if (!tunable(*key))
        throw InputError(fmt::format("spsa: parameter '{}': '{}' ({}) is not a number that changes how the engine plays", p.name,
                                     key_name, key->values));
    if (half >= 0 && !is_margin_key(*key))
        throw InputError(fmt::format("spsa: parameter '{}': only a tapered margin ({}) has .opening and .endgame halves", p.name, key->values));
    // Both bounds must be values the key takes (its range is checked by the key itself).
    for (const double bound : {p.min, p.max}) {
        variant::VariantConfig probe = variant::preset_variant("full");
        const std::string value = half >= 0 ? fmt::format("{0}:{0}", rounded(bound)) : std::to_string(rounded(bound));
        try {
            key->set(probe, value);
        } catch (const InputError& e) {
            throw InputError(fmt::format("spsa: parameter '{}': bound {:g} is not a value of the key ({})", p.name, bound, e.what()));
        }
    }
    p.c_end = v.size() > 3 ? v[3] : std::max(0.5, (p.max - p.min) / 20);
    p.r_end = v.size() > 4 ? v[4] : 0.002;
    // The engines get whole numbers: a smaller perturbation would often round to the same value
    // on both sides, a run that measures nothing.
    if (p.c_end < 0.5 || p.c_end > (p.max - p.min) / 2)
        throw InputError(fmt::format("spsa: parameter '{}': c_end {:g} must be in [0.5, (max - min) / 2 = {:g}] (the keys take integers)",
                                     p.name, p.c_end, (p.max - p.min) / 2));
    // fishtest's default is 0.002; above 1 a step would cross the whole range on one game.
    if (!(p.r_end > 0) || p.r_end > 1) throw InputError(fmt::format("spsa: parameter '{}': r_end {:g} must be in (0, 1]", p.name, p.r_end));

    return p;
}

double SpsaSchedule::c_k(const SpsaParam& p, int k) const {
    const double c = p.c_end * std::pow(iterations, gamma);
    return c / std::pow(k, gamma);
}

double SpsaSchedule::a_k(const SpsaParam& p, int k) const {
    const double a = p.r_end * p.c_end * p.c_end * std::pow(big_a() + iterations, alpha);
    return a / std::pow(big_a() + k, alpha);
}

int spsa_game_score(loa::Outcome outcome, bool plus_black) {
    if (outcome == loa::Outcome::BlackWins) return plus_black ? 1 : -1;
    if (outcome == loa::Outcome::WhiteWins) return plus_black ? -1 : 1;
    return 0;
}

std::vector<int> spsa_flips(std::uint64_t seed, int k, std::size_t count) {
    std::vector<int> flips;
    std::uint64_t state = splitmix64(seed ^ splitmix64(static_cast<std::uint64_t>(k)));
    for (std::size_t i = 0; i < count; ++i) {
        state = splitmix64(state);
        flips.push_back((state >> 63) ? 1 : -1);
    }
    return flips;
}

std::vector<double> spsa_perturbed(const std::vector<SpsaParam>& params, const std::vector<double>& theta,
                                   const std::vector<int>& flips, const SpsaSchedule& schedule, int k, int sign) {
    std::vector<double> out;
    for (std::size_t i = 0; i < params.size(); ++i)
        out.push_back(std::clamp(theta[i] + sign * schedule.c_k(params[i], k) * flips[i], params[i].min, params[i].max));
    return out;
}

std::vector<double> spsa_update(const std::vector<SpsaParam>& params, const std::vector<double>& theta,
                                const std::vector<int>& flips, const SpsaSchedule& schedule, int k, int result) {
    std::vector<double> out;
    for (std::size_t i = 0; i < params.size(); ++i) {
        const double step = schedule.a_k(params[i], k) / schedule.c_k(params[i], k) * result * flips[i];
        out.push_back(std::clamp(theta[i] + step, params[i].min, params[i].max));
    }
    return out;
}

std::string spsa_engine_keys(const std::vector<SpsaParam>& params, const std::vector<double>& values,
                             const variant::VariantConfig& base) {
    // Margins first gather their halves; every key is written once, in the parameters' order.
    std::vector<std::string> order;
    std::map<std::string, std::pair<std::optional<long>, std::optional<long>>> margins;
    std::map<std::string, long> plain;
    for (std::size_t i = 0; i < params.size(); ++i) {
        const auto [key, half] = split_half(params[i].name);
        if (std::find(order.begin(), order.end(), key) == order.end()) order.push_back(key);
        const long v = rounded(values[i]);
        if (half < 0) {
            const variant::VariantKey* k = variant::find_variant_key(key);
            if (k && is_margin_key(*k)) margins[key] = {v, v};
            else plain[key] = v;
        } else {
            (half == 0 ? margins[key].first : margins[key].second) = v;
        }
    }
    std::string text;
    for (const std::string& key : order) {
        std::string value;
        if (const auto it = plain.find(key); it != plain.end()) {
            value = std::to_string(it->second);
        } else {
            auto [opening, endgame] = margins[key];
            if (!opening || !endgame) {
                const variant::VariantKey* k = variant::find_variant_key(key);
                const auto kept = margin_halves(k->get(base));
                if (!kept)
                    throw InputError(fmt::format("spsa: '{0}' is off in the engine: tune both halves ({0}.opening and {0}.endgame) or "
                                                 "turn it on",
                                                 key));
                if (!opening) opening = kept->first;
                if (!endgame) endgame = kept->second;
            }
            value = fmt::format("{}:{}", *opening, *endgame);
        }
        text += fmt::format("{}{}={}", text.empty() ? "" : ",", key, value);
    }
    return text;
}

}  // namespace matches
