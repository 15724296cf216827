// The web board's page files (matches/web/page/), built into the binary so that `loa serve` works
// from any directory, offline, with nothing installed beside it. The table is generated at
// build time by cmake/embed_assets.cmake.
#pragma once

#include <span>
#include <string_view>

namespace matches::web {

struct Asset {
    std::string_view name;  // "index.html", "app.js", ...
    std::string_view mime;
    std::string_view content;
};

std::span<const Asset> assets();

}  // namespace matches::web
