// Scratch files for the tests that write files: one folder per test process under the system's
// temporary directory, removed when the process ends (tests once left a folder behind a run).
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

namespace loa::testing {

namespace scratch_detail {
struct ScratchRoot {
    std::filesystem::path path = std::filesystem::temp_directory_path() / ("loa-tests-" + std::to_string(getpid()));
    ~ScratchRoot() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};
}  // namespace scratch_detail

// The process's scratch folder (made on first use).
inline const std::filesystem::path& scratch_root() {
    static const scratch_detail::ScratchRoot root;
    std::filesystem::create_directories(root.path);
    return root.path;
}

// A path in a folder of `suite`'s own, with nothing there yet.
inline std::filesystem::path scratch_file(std::string_view suite, std::string_view name) {
    const std::filesystem::path dir = scratch_root() / suite;
    std::filesystem::create_directories(dir);
    const std::filesystem::path path = dir / name;
    std::filesystem::remove_all(path);
    return path;
}

// An empty folder of that name.
inline std::filesystem::path scratch_dir(std::string_view suite, std::string_view name) {
    const std::filesystem::path dir = scratch_file(suite, name);
    std::filesystem::create_directories(dir);
    return dir;
}

// A whole file, or "" when it cannot be read.
inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace loa::testing
