// An array in pages mapped from the system (mmap) and given back to it when freed (munmap):
// the memory of the large tables (transposition table, evaluation cache).
//
// Why not operator new: glibc serves a large block by mmap at first, but once such a block is
// freed it raises its mmap threshold (up to 32 MB), so the next tables come from the heap arena
// of the thread that builds them, and freed memory there stays in the process. A web server
// whose sessions free their tables after each search stayed at 232 MB while idle after 16
// searches. Mapped pages go back to the system at once, whatever thread built or freed them.
#pragma once

#include <sys/mman.h>

#include <cstddef>
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
        void* pages = ::mmap(nullptr, size * sizeof(T), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (pages == MAP_FAILED) throw std::bad_alloc();
        data_ = static_cast<T*>(pages);
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
    void unmap() {
        if (data_) ::munmap(data_, size_ * sizeof(T));
        data_ = nullptr;
        size_ = 0;
    }

    T* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace common
