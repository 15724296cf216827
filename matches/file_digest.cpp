#include "matches/file_digest.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "common/fnv1a.hpp"

namespace matches {

std::string file_fingerprint(const std::string& name) {
    if (name.empty() || !std::filesystem::is_regular_file(name)) return name;
    std::ifstream in(name, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    return fmt::format("{} (fnv1a {:016x})", std::filesystem::path(name).filename().string(), common::fnv1a(content.str()));
}

}  // namespace matches
