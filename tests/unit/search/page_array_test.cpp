// common::PageArray, the mapped memory of the large tables: zeroed, a large one on a 2 MB
// boundary (for transparent huge pages), and every page given back when it is freed.
#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <fstream>
#include <string>
#include <utility>

#include "common/page_array.hpp"

namespace {

constexpr std::size_t HugePage = std::size_t{2} << 20;

// The process's mapped address space (VmSize in /proc/self/status), in kB.
long mapped_kb() {
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmSize:", 0) == 0) return std::stol(line.substr(7));
    ADD_FAILURE() << "no VmSize in /proc/self/status";
    return 0;
}

std::size_t system_page() { return static_cast<std::size_t>(::sysconf(_SC_PAGESIZE)); }

// How many of the pages of [start, start + bytes) are mapped (mincore fails with ENOMEM on
// an unmapped one). The checks that use it and mapped_kb() assume that no other thread maps or
// unmaps memory meanwhile: these tests start none.
std::size_t mapped_pages(const void* start, std::size_t bytes) {
    const std::size_t page = system_page();
    std::size_t mapped = 0;
    for (std::size_t offset = 0; offset < bytes; offset += page) {
        unsigned char resident = 0;
        errno = 0;
        const int result = ::mincore(const_cast<char*>(static_cast<const char*>(start)) + offset, 1, &resident);
        EXPECT_TRUE(result == 0 || errno == ENOMEM) << "mincore: errno " << errno;
        mapped += result == 0;
    }
    return mapped;
}

struct Slot {
    std::uint64_t key;
    std::uint32_t value;
};

TEST(PageArray, ASmallArrayIsZeroedAndWritable) {
    common::PageArray<Slot> slots(1000);
    ASSERT_EQ(slots.size(), 1000u);
    for (const Slot& s : slots) EXPECT_TRUE(s.key == 0 && s.value == 0);
    slots[999] = {7, 8};
    EXPECT_EQ(slots[999].key, 7u);
}

TEST(PageArray, ALargeArrayStartsOnAHugePageBoundaryAndIsZeroed) {
    // 3 MB and a bit: not a multiple of the small page either.
    const std::size_t size = (3 * HugePage + 100) / sizeof(Slot);
    common::PageArray<Slot> slots(size);
    ASSERT_EQ(slots.size(), size);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(slots.begin()) % HugePage, 0u);
    for (const Slot& s : slots) ASSERT_TRUE(s.key == 0 && s.value == 0);
    slots[0] = {1, 2};
    slots[size - 1] = {3, 4};
    EXPECT_EQ(slots[0].value + slots[size - 1].value, 6u);
    const std::size_t page = system_page();
    EXPECT_EQ(mapped_pages(slots.begin(), size * sizeof(Slot)), (size * sizeof(Slot) + page - 1) / page);
}

TEST(PageArray, FreedTablesGiveEveryPageBack) {
    const std::size_t size = (3 * HugePage + 100) / sizeof(Slot);
    const Slot* first = nullptr;
    {
        common::PageArray<Slot> slots(size);
        first = slots.begin();
        common::PageArray<Slot> moved(std::move(slots));  // the pages go with the move
        EXPECT_EQ(slots.size(), 0u);
        EXPECT_EQ(moved.begin(), first);
    }
    EXPECT_EQ(mapped_pages(first, size * sizeof(Slot)), 0u);
    // The huge page mapped beyond the table to align it is given back at once: 40 tables made
    // and freed leave the address space as it was (40 x 2 MB would show).
    const long before = mapped_kb();
    for (int i = 0; i < 40; ++i) {
        common::PageArray<Slot> slots(size);
        slots[size / 2].value = 1;
    }
    EXPECT_LT(mapped_kb() - before, 2048);
}

}  // namespace
