// The message of a refused input, for the tests that check what the user is told.
#pragma once

#include <functional>
#include <string>

#include "common/error.hpp"

namespace loa::testing {

// The message of the InputError that f throws, or "(no error)".
inline std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const common::InputError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace loa::testing
