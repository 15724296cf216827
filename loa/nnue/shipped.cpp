#include "loa/nnue/shipped.hpp"

#include <cstddef>
#include <string>

namespace loa::nnue {

// In the source loa/CMakeLists.txt generates from the file.
extern const char ShippedNetName[];
extern const unsigned char ShippedNetBytes[];
extern const std::size_t ShippedNetSize;

std::string_view shipped_network_name() { return ShippedNetName; }

std::shared_ptr<const Network> shipped_network() {
    // A function-local constant: built once (thread-safe), never changed.
    static const std::shared_ptr<const Network> net = std::make_shared<const Network>(parse_network(
        std::string_view(reinterpret_cast<const char*>(ShippedNetBytes), ShippedNetSize), "the shipped network " + std::string(ShippedNetName)));
    return net;
}

}  // namespace loa::nnue
