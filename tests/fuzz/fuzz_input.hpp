// Shared by the fuzz targets: the input as text, and as a file for readers that take a path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <unistd.h>

namespace fuzz {

inline std::string text(const std::uint8_t* data, std::size_t size) { return std::string(reinterpret_cast<const char*>(data), size); }

// A file of this process holding the input (rewritten on every call).
inline std::string as_file(const std::uint8_t* data, std::size_t size, const char* name) {
    const std::string path = "/tmp/loa-fuzz-" + std::to_string(getpid()) + "-" + name;
    std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    return path;
}

}  // namespace fuzz
