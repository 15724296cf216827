// The web server's one memory budget (`--max-memory-mb`). What a search's tables claim, and
// what a request that parses a body or a file may take while it reads and answers it (a records
// file, a long game), are claimed from it before the memory is taken, and returned when it is
// freed. Memory returned goes back to the system as well: the search tables are mapped pages
// (common/page_array.hpp), and when a claim returns, the heap is trimmed (glibc keeps freed
// memory in its arenas otherwise), so that an idle server holds a few MB whatever it did.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>

namespace matches::web {

class MemoryBudget {
public:
    explicit MemoryBudget(double budget_mb) : budget_(bytes_of(budget_mb)) {}
    MemoryBudget(const MemoryBudget&) = delete;
    MemoryBudget& operator=(const MemoryBudget&) = delete;

    // A part of the budget, held by one search or request; returned when destroyed (after what
    // it paid for is freed, as a local declared before that memory is).
    class Claim {
    public:
        Claim(MemoryBudget& budget, std::uint64_t bytes) : budget_(&budget), bytes_(bytes) {}
        Claim(Claim&& other) noexcept : budget_(other.budget_), bytes_(other.bytes_) { other.budget_ = nullptr; }
        Claim(const Claim&) = delete;
        Claim& operator=(const Claim&) = delete;
        Claim& operator=(Claim&&) = delete;
        ~Claim();
        double mb() const { return mb_of(bytes_); }

    private:
        MemoryBudget* budget_;
        std::uint64_t bytes_;
    };

    // `mb` of the budget, waiting up to `patience` for other claims to return enough; nullopt
    // when it is not free in time.
    std::optional<Claim> claim(double mb, std::chrono::milliseconds patience);
    double budget_mb() const { return mb_of(budget_); }
    double claimed_mb();

private:
    // Counted in bytes: sums of fractional MB would drift.
    static std::uint64_t bytes_of(double mb) { return static_cast<std::uint64_t>(mb * 1024 * 1024 + 0.5); }
    static double mb_of(std::uint64_t bytes) { return static_cast<double>(bytes) / (1024 * 1024); }
    void give_back(std::uint64_t bytes);

    std::mutex mutex_;
    std::condition_variable returned_;
    std::uint64_t budget_;
    std::uint64_t claimed_ = 0;
};

}  // namespace matches::web
