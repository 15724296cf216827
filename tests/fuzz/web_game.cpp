// The web board's game requests (POST /api/game, POST /api/pgn and the search's query): any
// JSON body is replayed or refused with an InputError, and an accepted game always draws and
// writes its record.
#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "fuzz_input.hpp"
#include "matches/web/game_api.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const nlohmann::json request = nlohmann::json::parse(fuzz::text(data, size), nullptr, false);
    if (request.is_discarded()) return 0;
    try {
        (void)matches::web::game_json(matches::web::game_from_request(request, {}));
    } catch (const common::InputError&) {
    }
    try {
        (void)matches::web::game_pgn(request, {});
    } catch (const common::InputError&) {
    }
    return 0;
}
