// What ends a search: depth, nodes, time, or an external stop flag.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace search {

struct SearchLimits {
    int depth = 0;                // 0: no depth limit (MaxPly)
    std::uint64_t nodes = 0;      // 0: none; checked on every node, so fixed-node searches are deterministic
    double soft_time_ms = 0;      // 0: none; no new iteration starts after this
    double hard_time_ms = 0;      // 0: none; the search stops as soon as it sees this
    const std::atomic<bool>* stop = nullptr;  // external stop (protocol threads)
};

class Stopwatch {
public:
    Stopwatch() : start_(std::chrono::steady_clock::now()) {}
    double elapsed_ms() const {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_).count();
    }

private:
    std::chrono::steady_clock::time_point start_;
};

}  // namespace search
