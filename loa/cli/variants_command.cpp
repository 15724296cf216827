#include <fmt/format.h>

#include "common/search/config.hpp"
#include "loa/cli/commands.hpp"

namespace loa::cli {

void add_variants_command(CLI::App& app) {
    auto spec = std::make_shared<std::string>();
    CLI::App* cmd = app.add_subcommand("variants", "List the search-variant keys, or expand one variant string");
    cmd->add_option("spec", *spec, "A variant string to expand into every switch");
    cmd->callback([spec] {
        if (!spec->empty()) {
            fmt::print("{}\n", search::to_string(search::parse_search_config(*spec)));
            return;
        }
        fmt::print("Variant strings: comma-separated key=value; a bare item names the preset.\n\n");
        for (const auto& [key, help] : search::config_keys()) fmt::print("  {:<20} {}\n", key, help);
    });
}

}  // namespace loa::cli
