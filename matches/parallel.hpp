// Independent jobs spread over threads (tree-size searches, margin probes).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace matches {

// Runs job(i) for every i in [0, count) on `threads` threads. Each thread first builds its own
// job with make_job() (so that it owns its searchers and tables). The first exception stops
// the other threads after their current job and is rethrown here.
template <class MakeJob>
void parallel_for(std::size_t count, int threads, MakeJob make_job) {
    std::atomic<std::size_t> next{0};
    std::mutex lock;
    std::exception_ptr failure;
    auto worker = [&] {
        try {
            auto job = make_job();
            for (std::size_t i; (i = next.fetch_add(1)) < count;) job(i);
        } catch (...) {
            const std::lock_guard guard(lock);
            if (!failure) failure = std::current_exception();
            next = count;
        }
    };
    std::vector<std::thread> pool;
    for (int t = 0; t < std::max(1, threads); ++t) pool.emplace_back(worker);
    for (auto& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace matches
