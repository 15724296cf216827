#include "loa/codingame/bot.hpp"

#include <iostream>
#include <memory>
#include <optional>

#include "common/search/presets.hpp"
#include "common/search/search.hpp"
#include "common/search/time_manager.hpp"
#include "loa/codingame/embedded_net.hpp"
#include "loa/codingame/net_game.hpp"
#include "loa/engine/codingame_protocol.hpp"
#include "loa/error.hpp"
#include "loa/ply_budget.hpp"

namespace loa::codingame {

search::SearchConfig bot_config() {
    search::SearchConfig config;
    search::apply_preset_token(config, "full");
    config.preset = "full";
    return config;
}

RuleSet codingame_rules() {
    for (const NamedRuleSet& set : named_rule_sets())
        if (set.name == "codingame") return set.rules;
    throw InputError("no codingame rule set");
}

int run_bot(std::istream& in, std::ostream& out, std::ostream& log) {
    const engine::CodinGameSettings settings;
    const search::SearchConfig config = bot_config();
    const RuleSet rules = codingame_rules();
    std::optional<search::Searcher<NetGame>> searcher;
    auto ready = [&](Colour) {
        auto net = std::make_shared<const nnue::Network>(nnue::parse_network(
            decode_net_text(EmbeddedNetText, EmbeddedNetBytes), "the embedded network"));
        searcher.emplace(NetGame(rules, std::move(net)), config);
    };
    auto think = [&](const engine::CodinGameTurn& turn) {
        search::ClockLimits clock;
        clock.move_time_ms = turn.move_time_ms;
        clock.expected_moves_left = expected_moves_left(rules, turn.plies_before);
        search::TimeManager time(clock, settings.overhead_ms, config.timeman, config.time_tuning);
        search::SearchLimits limits = time.limits();
        limits.game_plies_left = plies_until_limit(rules, turn.plies_before);
        return searcher->search(turn.position, limits).best_move;
    };
    return engine::play_codingame(in, out, log, settings, ready, think);
}

}  // namespace loa::codingame

