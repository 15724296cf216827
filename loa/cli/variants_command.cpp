#include <fmt/format.h>

#include "common/variant/config.hpp"
#include "common/variant/keys.hpp"
#include "loa/cli/commands.hpp"

namespace loa::cli {

void add_variants_command(CLI::App& app) {
    auto spec = std::make_shared<std::string>();
    CLI::App* cmd = app.add_subcommand("variants", "List the search-variant keys, or expand one variant string");
    cmd->add_option("spec", *spec, "A variant string to expand into every switch");
    cmd->callback([spec] {
        if (!spec->empty()) {
            fmt::print("{}\n", variant::to_string(variant::parse_variant(*spec)));
            return;
        }
        fmt::print("Variant strings: comma-separated key=value; a bare item names the preset, which sets the\n"
                   "switches first whatever its place; the other keys override it. Columns: the values a key\n"
                   "takes, and its value in the presets ab (plain alpha-beta), full (the engine's default) and\n"
                   "mcts (Monte Carlo tree search: algorithm=mcts); '-' where the key is not the searcher's.\n\n");
        const variant::VariantConfig presets[] = {variant::preset_variant("ab"), variant::preset_variant("full"), variant::preset_variant("mcts")};
        auto value = [](const variant::VariantKey& key, const variant::VariantConfig& c) {
            return variant::key_applies(key, c) ? key.get(c) : std::string("-");
        };
        fmt::print("  {:<20} {:<32} {:<9} {:<9} {:<9} {}\n", "key", "values", "ab", "full", "mcts", "what it does");
        for (const variant::VariantKey& key : variant::variant_keys())
            fmt::print("  {:<20} {:<32} {:<9} {:<9} {:<9} {}\n", key.name, key.values, value(key, presets[0]), value(key, presets[1]),
                       value(key, presets[2]), key.help);
    });
}

}  // namespace loa::cli
