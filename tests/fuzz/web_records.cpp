// A records file opened in the web board (POST /api/records): read, every game replayed, or
// refused with an InputError.
#include "common/error.hpp"
#include "fuzz_input.hpp"
#include "matches/web/records_dir.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    try {
        (void)matches::web::RecordsDir::records_text_json("fuzz", fuzz::text(data, size));
    } catch (const common::InputError&) {
    }
    return 0;
}
