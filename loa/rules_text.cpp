// The rules as text: rule strings read and written, results named (rules.hpp).
#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "common/text.hpp"
#include "loa/error.hpp"
#include "loa/rules.hpp"

namespace loa {

RuleSet parse_rules(std::string_view spec) {
    RuleSet rules;
    for (const auto& item : common::parse_key_values(spec, "rules")) {
        const std::string_view key = item.first, value = item.second;  // named: lambdas capture them
        auto bad_value = [&](std::string_view expected) {
            return InputError(fmt::format("rules: bad value '{}' for '{}' (expected {})", value, key, expected));
        };
        const auto& sets = named_rule_sets();
        const auto named = std::find_if(sets.begin(), sets.end(), [&](const NamedRuleSet& n) { return n.name == key; });
        if (named != sets.end() && value.empty()) {
            rules = named->rules;  // later keys override it: "codingame,plylimit=200"
        } else if (key == "simultaneous") {
            if (value == "draw") rules.simultaneous = SimultaneousConnection::Draw;
            else if (value == "mover") rules.simultaneous = SimultaneousConnection::MoverWins;
            else throw bad_value("draw or mover");
        } else if (key == "nomove") {
            if (value == "pass") rules.no_move = NoMoveRule::Pass;
            else if (value == "lose") rules.no_move = NoMoveRule::Lose;
            else if (value == "draw") rules.no_move = NoMoveRule::Draw;
            else throw bad_value("pass, lose or draw");
        } else if (key == "repetition") {
            if (value == "on" || value == "draw") rules.repetition_draw = true;
            else if (value == "off") rules.repetition_draw = false;
            else throw bad_value("on or off");
        } else if (key == "plylimit") {
            const auto limit = common::parse_int(value);
            if (!limit || *limit < 0) throw bad_value("a number of plies >= 0, 0 for none");
            rules.ply_limit = *limit;
        } else {
            std::string names;
            std::vector<std::string> words = {"simultaneous", "nomove", "repetition", "plylimit"};
            for (const NamedRuleSet& n : sets) names += n.name + ", ", words.push_back(n.name);
            const std::string near = common::nearest_word(key, words);
            throw InputError(fmt::format("rules: unknown key '{}'{} (rule sets: {}keys: simultaneous, nomove, repetition, plylimit)", key,
                                         near.empty() ? "" : fmt::format("; did you mean '{}'?", near), names));
        }
    }
    return rules;
}

std::string to_string(const RuleSet& rules) {
    return fmt::format("simultaneous={},nomove={},repetition={},plylimit={}",
                       rules.simultaneous == SimultaneousConnection::Draw ? "draw" : "mover",
                       rules.no_move == NoMoveRule::Pass   ? "pass"
                       : rules.no_move == NoMoveRule::Lose ? "lose"
                                                           : "draw",
                       rules.repetition_draw ? "on" : "off", rules.ply_limit);
}

std::string_view to_string(Outcome o) {
    switch (o) {
        case Outcome::Ongoing: return "ongoing";
        case Outcome::BlackWins: return "black wins";
        case Outcome::WhiteWins: return "white wins";
        case Outcome::Draw: return "draw";
    }
    return "?";
}

std::string_view to_string(Termination t) {
    switch (t) {
        case Termination::None: return "none";
        case Termination::Connection: return "connection";
        case Termination::SimultaneousConnection: return "simultaneous connection";
        case Termination::NoMove: return "no legal move";
        case Termination::Repetition: return "threefold repetition";
        case Termination::PlyLimit: return "ply limit";
    }
    return "?";
}

std::string describe(const GameResult& r) {
    if (!r.over()) return "game in progress";
    return fmt::format("{} by {}", to_string(r.outcome), to_string(r.termination));
}

}  // namespace loa
