#pragma once

#include <stdexcept>
#include <string>

namespace common {

// Thrown for any malformed or illegal input (position or move text, option strings).
// The message names what is wrong so that front ends can show it as is.
class InputError : public std::runtime_error {
public:
    explicit InputError(const std::string& what) : std::runtime_error(what) {}
};

}  // namespace common
