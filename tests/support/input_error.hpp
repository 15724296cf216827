// Helpers the SPSA tests share (spsa_test.cpp, spsa_run_test.cpp).
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
