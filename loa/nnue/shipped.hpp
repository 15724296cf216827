// The network shipped in data/nets/ and compiled into the program (`eval=nnue`).
#pragma once

#include <memory>
#include <string_view>

#include "loa/nnue/network.hpp"

namespace loa::nnue {

// Parsed once, on first use; read-only afterwards, shared by every evaluator.
std::shared_ptr<const Network> shipped_network();
std::string_view shipped_network_name();  // its file name in data/nets/

}  // namespace loa::nnue
