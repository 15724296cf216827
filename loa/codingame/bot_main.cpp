// The CodinGame bot's program (bot.hpp).
#include <iostream>

#include "loa/codingame/bot.hpp"

int main() {
    std::ios::sync_with_stdio(false);
    return loa::codingame::run_bot(std::cin, std::cout, std::cerr);
}
