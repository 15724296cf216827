// What `loa-match merge` reads from a result file: the settings and every game record.
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "fuzz_input.hpp"
#include "matches/state.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const nlohmann::json j = nlohmann::json::parse(fuzz::text(data, size), nullptr, false);
    if (j.is_discarded() || !j.is_object()) return 0;
    try {
        if (j.contains("settings")) (void)matches::settings_from_json(j["settings"]);
        if (j.contains("games") && j["games"].is_array())
            for (const auto& g : j["games"]) (void)matches::game_from_json(g);
    } catch (const common::InputError&) {
    } catch (const nlohmann::json::exception&) {
    }
    return 0;
}
