#include "matches/file_digest.hpp"

#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "common/files.hpp"
#include "common/fnv1a.hpp"
#include "loa/nnue/shipped.hpp"

namespace matches {

std::string file_fingerprint(const std::string& name) {
    if (name == "nnue")
        return fmt::format("nnue {} (fnv1a {:016x})", loa::nnue::shipped_network_name(), loa::nnue::shipped_network()->checksum);
    if (!(name.ends_with(".json") || name.ends_with(".nnue")) || !std::filesystem::is_regular_file(name)) return name;
    const std::string content = common::read_file(name, common::MaxRecordFile, "fingerprint");
    return fmt::format("{} (fnv1a {:016x})", std::filesystem::path(name).filename().string(), common::fnv1a(content));
}

}  // namespace matches
