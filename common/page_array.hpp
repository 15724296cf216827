// An array in pages mapped from the system (mmap) and given back to it when freed (munmap):
// the memory of the large tables (transposition table, evaluation cache).
//
// Why not operator new: glibc serves a large block by mmap at first, but once such a block is
// freed it raises its mmap threshold (up to 32 MB), so the next tables come from the heap arena
// of the thread that builds them, and freed memory there stays in the process. A web server
// whose sessions free their tables after each search stayed at 232 MB while idle after 16
// searches. Mapped pages go back to the system at once, whatever thread built or freed them.
//
// A table of 2 MB or more starts on a 2 MB boundary and asks for transparent huge pages
// (madvise MADV_HUGEPAGE; where the kernel's setting is `madvise`, as on this project's
// machines, only memory that asks gets them). A probe of the 16 MB table lands
// on a random page: with 4 KB pages nearly every probe and prefetch missed the TLB and waited
// for a page walk, which the profile of `loa bench` showed as the largest stall in the search.
// The advice is a hint: where the kernel has no huge pages the table is the same, in small ones.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>
#include <utility>

namespace common {

// `size` value-initialized T's, page-aligned (so any cache-line alignment holds). Move-only.
template <class T>
class PageArray {
    static_assert(std::is_trivially_destructible_v<T>, "the pages are unmapped without running destructors");

public:
    PageArray() = default;
    // Throws std::bad_alloc when the system gives no memory.
    explicit PageArray(std::size_t size) {
        if (size == 0) return;
        data_ = static_cast<T*>(map(size * sizeof(T)));
        size_ = size;
        for (std::size_t i = 0; i < size; ++i) new (data_ + i) T();
    }
    ~PageArray() { unmap(); }
    PageArray(PageArray&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
    PageArray& operator=(PageArray&& other) noexcept {
        if (this != &other) {
            unmap();
            data_ = std::exchange(other.data_, nullptr);
            size_ = std::exchange(other.size_, 0);
        }
        return *this;
    }
    PageArray(const PageArray&) = delete;
    PageArray& operator=(const PageArray&) = delete;

    T& operator[](std::size_t i) { return data_[i]; }
    const T& operator[](std::size_t i) const { return data_[i]; }
    T* begin() { return data_; }
    T* end() { return data_ + size_; }
    std::size_t size() const { return size_; }

private:
    static constexpr std::size_t HugePage = std::size_t{2} << 20;

    static void* map_pages(std::size_t bytes) {
        void* pages = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (pages == MAP_FAILED) throw std::bad_alloc();
        return pages;
    }

    // `bytes` of zeroed pages; from 2 MB on, on a 2 MB boundary (one huge page more is mapped and
    // the parts before the boundary and after the table are given back) and advised huge.
    static void* map(std::size_t bytes) {
        if (bytes < HugePage) return map_pages(bytes);
        // munmap needs page-aligned addresses: the system's page size, 4 KB on x86-64, 16 or 64 KB
        // on some ARM kernels.
        const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
        const std::size_t length = (bytes + page - 1) / page * page;
        auto* raw = static_cast<char*>(map_pages(length + HugePage));
        const auto address = reinterpret_cast<std::uintptr_t>(raw);
        const std::size_t head = (HugePage - address % HugePage) % HugePage;
        char* start = raw + head;
        if (head) ::munmap(raw, head);
        ::munmap(start + length, HugePage - head);  // never empty: head < HugePage
        ::madvise(start, length, MADV_HUGEPAGE);  // a hint: ignored where the kernel has none
        return start;
    }

    void unmap() {
        if (data_) ::munmap(data_, size_ * sizeof(T));
        data_ = nullptr;
        size_ = 0;
    }

    T* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace common
