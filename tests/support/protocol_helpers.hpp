// Helpers the protocol front ends' tests share (codingame_test.cpp, gtp_test.cpp, uci_test.cpp).
#pragma once

#include <string>

namespace loa::testing {

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace loa::testing
