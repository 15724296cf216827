#pragma once

#include "common/error.hpp"

namespace loa {
using common::InputError;
}  // namespace loa
