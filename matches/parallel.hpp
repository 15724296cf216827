// Threads of the runner, started in one place: independent jobs spread over threads (tree-size
// searches, margin probes, training data, SPSA games) and the match scheduler's workers.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"

namespace matches {

// Runs body(t) on `count` threads and joins them. A thread the system cannot start (a limit on
// threads, processes or address space: `-j 1024` under `ulimit -v`) is not the end of the
// program (an unjoined std::thread's destructor calls std::terminate): `stop()` tells the
// threads already running to finish, they are joined, and common::InputError says what failed.
template <class Body, class Stop>
void run_threads(int count, Body body, Stop stop) {
    std::vector<std::jthread> pool;  // joined on every path out
    try {
        pool.reserve(static_cast<std::size_t>(std::max(0, count)));
        for (int t = 0; t < count; ++t) pool.emplace_back([&body, t] { body(t); });
    } catch (const std::system_error& e) {
        const std::size_t started = pool.size();
        stop();
        pool.clear();  // joins
        throw common::InputError(fmt::format("cannot start thread {} of {}: {}; ask for fewer at once (-j)", started + 1, count,
                                             e.code().message()));
    } catch (const std::bad_alloc&) {
        stop();
        pool.clear();
        throw common::InputError(fmt::format("cannot start {} threads: out of memory; ask for fewer at once (-j)", count));
    }
}

// Runs job(i) for every i in [0, count) on `threads` threads. Each thread first builds its own
// job with make_job() (so that it owns its searchers and tables). The first exception stops
// the other threads after their current job and is rethrown here.
template <class MakeJob>
void parallel_for(std::size_t count, int threads, MakeJob make_job) {
    std::atomic<std::size_t> next{0};
    std::mutex lock;
    std::exception_ptr failure;
    auto worker = [&](int) {
        try {
            auto job = make_job();
            for (std::size_t i; (i = next.fetch_add(1)) < count;) job(i);
        } catch (...) {
            const std::lock_guard guard(lock);
            if (!failure) failure = std::current_exception();
            next = count;
        }
    };
    run_threads(std::max(1, threads), worker, [&] { next = count; });
    if (failure) std::rethrow_exception(failure);
}

}  // namespace matches
