#include "matches/web/memory_budget.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace matches::web {
namespace {

// Claims smaller than this return without trimming the heap: a trim walks every arena's free
// memory, which a page's small requests (a move claims a little over 1 MB) need not pay for.
constexpr std::uint64_t TrimFromBytes = 2 << 20;

// Gives the heap's free pages back to the system. glibc keeps what a request freed in the arena
// of the thread that allocated it (a worker's), and a server that parsed an 8 MB records file
// once stayed at 578 MB; malloc_trim frees the whole pages of every arena.
void give_back_to_system() {
#if defined(__GLIBC__)
    ::malloc_trim(0);
#endif
}

}  // namespace

MemoryBudget::Claim::~Claim() {
    if (budget_) budget_->give_back(bytes_);
}

std::optional<MemoryBudget::Claim> MemoryBudget::claim(double mb, std::chrono::milliseconds patience) {
    const std::uint64_t bytes = bytes_of(mb);
    std::unique_lock lock(mutex_);
    if (!returned_.wait_for(lock, patience, [&] { return claimed_ + bytes <= budget_; })) return std::nullopt;
    claimed_ += bytes;
    return std::optional<Claim>(std::in_place, *this, bytes);
}

double MemoryBudget::claimed_mb() {
    const std::lock_guard guard(mutex_);
    return mb_of(claimed_);
}

void MemoryBudget::give_back(std::uint64_t bytes) {
    if (bytes >= TrimFromBytes) give_back_to_system();  // before the budget says the memory is free
    {
        const std::lock_guard guard(mutex_);
        claimed_ -= bytes;
    }
    returned_.notify_all();
}

}  // namespace matches::web
