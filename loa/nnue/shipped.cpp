#include "loa/nnue/shipped.hpp"

#include <string>

#include "loa/nnue/shipped_data.hpp"

namespace loa::nnue {

std::string_view shipped_network_name() { return ShippedNetName; }

std::shared_ptr<const Network> shipped_network() {
    // A function-local constant: built once (thread-safe), never changed.
    static const std::shared_ptr<const Network> net = std::make_shared<const Network>(parse_network(
        std::string_view(reinterpret_cast<const char*>(ShippedNetBytes), ShippedNetSize), "the shipped network " + std::string(ShippedNetName)));
    return net;
}

}  // namespace loa::nnue
