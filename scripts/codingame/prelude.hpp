// The CodinGame bot's first lines (scripts/codingame/generate.py puts them before the engine's
// sources). The arena compiles without -O: the optimisation and the x86-64-v2 instructions the
// engine's builds assume are asked for here, before any code. "inline" matters: under a command
// line's -O0, O3 alone inlined nothing, and the bot searched 2.7 times fewer nodes a second. Wider instruction sets (AVX2,
// AVX-512) stay inside the network kernels' own target regions, chosen at run time, so the
// scalar path remains where the CPU lacks them.
#pragma GCC optimize("O3,inline,unroll-loops,omit-frame-pointer")
#pragma GCC target("sse4.2,popcnt")

// What the engine's C++20 needs that the arena's -std=gnu++17 lacks: the generator points
// std::span, std::popcount, ... and fmt::format (the arena has no {fmt}) and Boost's
// static_vector (nor Boost) at these.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <new>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace cg17 {

template <class T>
class span {
public:
    using value_type = std::remove_cv_t<T>;
    constexpr span() = default;
    constexpr span(T* data, std::size_t size) : data_(data), size_(size) {}
    template <std::size_t N>
    constexpr span(T (&array)[N]) : data_(array), size_(N) {}
    template <class C, class = decltype(std::data(std::declval<C&>()))>
    constexpr span(C& c) : data_(std::data(c)), size_(std::size(c)) {}
    template <class C, class = decltype(std::data(std::declval<const C&>()))>
    constexpr span(const C& c) : data_(std::data(c)), size_(std::size(c)) {}
    constexpr T* data() const { return data_; }
    constexpr std::size_t size() const { return size_; }
    constexpr bool empty() const { return size_ == 0; }
    constexpr T* begin() const { return data_; }
    constexpr T* end() const { return data_ + size_; }
    constexpr T& operator[](std::size_t i) const { return data_[i]; }
    constexpr T& front() const { return data_[0]; }
    constexpr T& back() const { return data_[size_ - 1]; }
    constexpr span first(std::size_t n) const { return {data_, n}; }
    constexpr span last(std::size_t n) const { return {data_ + size_ - n, n}; }
    constexpr span subspan(std::size_t offset, std::size_t n = std::size_t(-1)) const {
        return {data_ + offset, n == std::size_t(-1) ? size_ - offset : n};
    }

private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

constexpr int popcount(std::uint64_t x) { return __builtin_popcountll(x); }
constexpr int countr_zero(std::uint64_t x) { return x ? __builtin_ctzll(x) : 64; }
constexpr int countl_zero(std::uint64_t x) { return x ? __builtin_clzll(x) : 64; }
template <class To, class From>
To bit_cast(const From& from) {
    static_assert(sizeof(To) == sizeof(From));
    To to;
    std::memcpy(&to, &from, sizeof(To));
    return to;
}
enum class endian { little = __ORDER_LITTLE_ENDIAN__, big = __ORDER_BIG_ENDIAN__, native = __BYTE_ORDER__ };

template <class R, class V>
auto ranges_find(R&& r, const V& v) { return std::find(std::begin(r), std::end(r), v); }
template <class R, class P>
bool ranges_all_of(R&& r, P p) { return std::all_of(std::begin(r), std::end(r), p); }

// Boost's static_vector, as much of it as the engine uses (trivially copyable elements): the
// slots past size() stay unwritten, as Boost's do (a move list is made at every node). The
// capacity is not checked: the engine's bound (MaxMoves) is the most moves a position can have,
// and the check cost the bot 6% of its nodes a second (3.19 M against 3.41 M, depth 11).
template <class T, std::size_t N>
class static_vector {
    static_assert(std::is_trivially_copyable_v<T>);

public:
    using value_type = T;
    using iterator = T*;
    using const_iterator = const T*;
    static_vector() {}
    static_vector(std::initializer_list<T> items) {
        for (const T& t : items) push_back(t);
    }
    void push_back(const T& t) { items_[size_++] = t; }
    template <class... A>
    T& emplace_back(A&&... a) {
        push_back(T(std::forward<A>(a)...));
        return back();
    }
    void pop_back() { --size_; }
    void clear() { size_ = 0; }
    void resize(std::size_t n) { size_ = n; }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    static constexpr std::size_t capacity() { return N; }
    T* data() { return items_; }
    const T* data() const { return items_; }
    T* begin() { return items_; }
    T* end() { return items_ + size_; }
    const T* begin() const { return items_; }
    const T* end() const { return items_ + size_; }
    T& operator[](std::size_t i) { return items_[i]; }
    const T& operator[](std::size_t i) const { return items_[i]; }
    T& front() { return items_[0]; }
    T& back() { return items_[size_ - 1]; }
    const T& front() const { return items_[0]; }
    const T& back() const { return items_[size_ - 1]; }
    T* erase(T* at) {
        std::copy(at + 1, end(), at);
        --size_;
        return at;
    }

private:
    union {
        T items_[N];  // not constructed: written before read
    };
    std::size_t size_ = 0;
};

}  // namespace cg17

// {fmt}'s format, as the engine's messages use it: each {} takes the next argument, written as
// a stream writes it; a spec with a precision ("{:.1f}") writes fixed-point with it, any other
// spec is ignored.
namespace fmt {
inline void format_into(std::ostringstream& out, std::string_view text) { out << text; }
template <class T, class... A>
void format_into(std::ostringstream& out, std::string_view text, const T& first, const A&... rest) {
    const std::size_t open = text.find('{'), close = text.find('}', open);
    if (open == std::string_view::npos || close == std::string_view::npos) return void(out << text);
    out << text.substr(0, open);
    const std::string_view spec = text.substr(open + 1, close - open - 1);
    std::ostringstream item;
    if (const std::size_t dot = spec.find('.'); dot != std::string_view::npos) {
        item.setf(std::ios::fixed, std::ios::floatfield);
        item.precision(std::stoi(std::string(spec.substr(dot + 1))));
    }
    item << first;
    out << item.str();
    format_into(out, text.substr(close + 1), rest...);
}
template <class... A>
std::string format(std::string_view text, const A&... args) {
    std::ostringstream out;
    format_into(out, text, args...);
    return out.str();
}
}  // namespace fmt
