#include "matches/web/http_server.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace http {
namespace {

std::string lowercase(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

// A header name is an RFC 9110 token: no space before the colon, no control characters.
bool is_token(std::string_view s) {
    if (s.empty()) return false;
    for (const char c : s)
        if (!std::isalnum(static_cast<unsigned char>(c)) && std::string_view("!#$%&'*+-.^_`|~").find(c) == std::string_view::npos)
            return false;
    return true;
}

const char* reason(int status) {
    switch (status) {
        case 200: return "OK";
        case 400: return "Bad Request";
        case 403: return "Forbidden";
        case 404: return "Not Found";
        case 405: return "Method Not Allowed";
        case 411: return "Length Required";
        case 408: return "Request Timeout";
        case 413: return "Payload Too Large";
        case 414: return "URI Too Long";
        case 431: return "Request Header Fields Too Large";
        case 500: return "Internal Server Error";
        case 503: return "Service Unavailable";
        case 505: return "HTTP Version Not Supported";
        default: return "Unknown";
    }
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

std::chrono::steady_clock::duration seconds(double s) {
    return std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(s));
}

// Rounded up: a deadline less than a millisecond away must not make poll return at once, again and again.
int milliseconds_until(std::chrono::steady_clock::time_point when) {
    const auto ms = std::chrono::ceil<std::chrono::milliseconds>(when - std::chrono::steady_clock::now()).count();
    return static_cast<int>(std::clamp<long long>(ms, 0, 500));
}

}  // namespace

std::optional<std::string> url_decode(std::string_view text, bool plus_is_space) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '+' && plus_is_space) {
            out += ' ';
        } else if (c == '%') {
            if (i + 2 >= text.size() || !std::isxdigit(static_cast<unsigned char>(text[i + 1])) ||
                !std::isxdigit(static_cast<unsigned char>(text[i + 2])))
                return std::nullopt;
            out += static_cast<char>(std::stoi(std::string(text.substr(i + 1, 2)), nullptr, 16));
            i += 2;
        } else {
            out += c;
        }
    }
    return out;
}

std::string Request::header(std::string_view name) const {
    const auto it = headers.find(lowercase(name));
    return it == headers.end() ? std::string() : it->second;
}

namespace {

// Frees what a request holds. Assigning an empty request would not: a string assigned a short
// one keeps its capacity, and a kept-alive connection held its last 8 MB body so, unseen by the
// count of bytes held.
void free_request(Request& r) {
    Request gone = std::move(r);  // takes the buffers, freed on return
    r = Request{};
}

// Replaces a handler's response by an error's, keeping its Response::keep: what the handler
// claimed is held until the error is written, after the request is freed.
void reset_keeping(Response& res) {
    std::shared_ptr<void> keep = std::move(res.keep);
    res = Response{};
    res.keep = std::move(keep);
}

}  // namespace

// Bytes one pass of the I/O thread reads from or writes to one connection, at most: a fast
// client does not hold the thread for the others.
constexpr std::size_t BytesPerPass = 256 * 1024;
// How long a connection being closed still reads (and drops) what its client sends: closing a
// socket with unread input makes the kernel reset it, and the response may be lost.
constexpr double LingerSeconds = 2;
// A request target longer than this is refused (414).
constexpr std::size_t MaxTargetBytes = 4096;

// A client's connection: the request being read, or the response being written, or (closing)
// the client's last bytes being dropped.
struct Server::Connection {
    int fd = -1;
    // The response's Response::keep, released once it is written; declared before the buffers,
    // so that a connection destroyed frees them first.
    std::shared_ptr<void> keep;
    std::atomic<std::size_t>* buffered = nullptr;  // the server's count of the bytes connections hold
    std::size_t charged = 0;                        // this connection's part of it
    std::string in;  // received and not yet consumed (a pipelined next request included)
    Clock::time_point deadline;
    bool check_input = false;  // read even without a poll event (input may be buffered already)
    bool lingering = false;    // answered and shut for writing: the client's input is dropped until it closes
    bool started = false;  // a byte of the current request has arrived
    bool head_parsed = false;
    bool eof = false;     // the client has finished sending
    bool broken = false;  // a read or a write failed: done with
    std::size_t head_end = 0;  // bytes of the head in `in`
    std::size_t body_length = 0;
    bool keep_alive = true;
    bool http10 = false;
    Request request;
    int refusal = 0;  // a status to answer the request with, without handling it
    std::string refusal_message;
    std::string out;  // a response to write
    std::size_t sent = 0;
    Clock::time_point progress;  // when the client last took a byte of `out` (or it was queued)
    bool close_after = false;

    ~Connection() {
        if (fd >= 0) ::close(fd);
        if (buffered) *buffered -= charged;
    }
    // Brings the server's count up to date with what this connection holds now.
    void recharge() {
        const std::size_t now = in.size() + request.body.size() + out.size();
        if (buffered) {
            if (now > charged) *buffered += now - charged;
            else *buffered -= charged - now;
        }
        charged = now;
    }
    void refuse(int status, std::string message) {
        refusal = status;
        refusal_message = std::move(message);
    }
    bool writing() const { return sent < out.size(); }
    // Ready for the next request on the same connection (a pipelined one may be buffered).
    void next_request() {
        free_request(request);
        in.shrink_to_fit();  // (a pipelined request read behind a large one)
        started = !in.empty();
        head_parsed = false;
        head_end = body_length = 0;
        refusal = 0;
        refusal_message.clear();
        out.clear();
        out.shrink_to_fit();
        sent = 0;
        check_input = true;  // a pipelined request may be waiting, in `in` or in the socket
        recharge();
        keep.reset();
    }
};

Server::Server(Limits limits) : limits_(limits) {}

Server::~Server() {
    stop();
    if (listen_fd_ >= 0) ::close(listen_fd_);
    for (const int fd : wake_pipe_)
        if (fd >= 0) ::close(fd);
}

void Server::get(const std::string& pattern, Handler handler) { routes_.push_back({"GET", std::regex(pattern), std::move(handler)}); }
void Server::post(const std::string& pattern, Handler handler) { routes_.push_back({"POST", std::regex(pattern), std::move(handler)}); }

int Server::bind(const std::string& host, int port, std::string& error) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
    addrinfo* found = nullptr;
    if (const int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found); rc != 0) {
        error = ::gai_strerror(rc);
        return -1;
    }
    for (addrinfo* a = found; a && listen_fd_ < 0; a = a->ai_next) {
        const int fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        if (fd < 0) continue;
        const int yes = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
        if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 128) == 0) {
            listen_fd_ = fd;
        } else {
            error = std::strerror(errno);
            ::close(fd);
        }
    }
    ::freeaddrinfo(found);
    if (listen_fd_ < 0) return -1;
    set_nonblocking(listen_fd_);
    if (::pipe2(wake_pipe_, O_NONBLOCK | O_CLOEXEC) != 0) {
        error = std::strerror(errno);
        return -1;
    }
    sockaddr_storage bound{};
    socklen_t length = sizeof bound;
    ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&bound), &length);
    return ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                              : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
}

void Server::stop() {
    stopping_ = true;
    wake_io();
    work_ready_.notify_all();
}

void Server::wake_io() {
    if (wake_pipe_[1] >= 0) {
        const char byte = 1;
        [[maybe_unused]] const ssize_t n = ::write(wake_pipe_[1], &byte, 1);  // a full pipe: already woken
    }
}

void Server::serve() {
    if (stopping_ || listen_fd_ < 0) return;
    std::vector<std::thread> workers;
    for (int i = 0; i < std::max(1, limits_.workers); ++i) workers.emplace_back([this] { work(); });
    std::exception_ptr failure;
    try {
        io_loop();
    } catch (...) {  // (out of memory): the workers are stopped and joined before it goes on
        failure = std::current_exception();
    }
    stop();
    for (std::thread& t : workers) t.join();
    {
        const std::lock_guard guard(mutex_);
        ready_.clear();
        returned_.clear();
    }
    if (failure) std::rethrow_exception(failure);
}

// ---- the I/O thread: every connection's reading and plain writing, at once ------------------------

bool Server::accept_connections(std::vector<std::unique_ptr<Connection>>& open) {
    for (;;) {
        const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            // None left (EAGAIN); or no descriptor or memory to take one with, which leaves the
            // listening socket readable: the caller pauses rather than spins.
            return errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM;
        }
        std::size_t elsewhere;  // with a worker, waiting for one, or on its way back
        {
            const std::lock_guard guard(mutex_);
            elsewhere = with_workers_ + returned_.size();
        }
        if (open.size() + elsewhere >= limits_.max_connections) {
            ::close(fd);  // at capacity: the client may try again
            continue;
        }
        const int yes = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
        auto c = std::make_unique<Connection>();
        c->fd = fd;
        c->buffered = &buffered_;
        c->deadline = Clock::now() + seconds(limits_.idle_seconds);
        open.push_back(std::move(c));
    }
}

void Server::linger(Connection& c) {
    ::shutdown(c.fd, SHUT_WR);
    c.lingering = true;
    free_request(c.request);
    c.in.clear();
    c.in.shrink_to_fit();
    c.out.clear();
    c.out.shrink_to_fit();
    c.sent = 0;
    c.recharge();
    c.keep.reset();
    c.deadline = Clock::now() + seconds(LingerSeconds);
}

void Server::wait_for_request(Connection& c) {
    c.next_request();
    c.deadline = Clock::now() + seconds(c.started ? limits_.request_seconds : limits_.idle_seconds);
}

void Server::io_loop() {
    std::vector<std::unique_ptr<Connection>> open;
    std::vector<pollfd> polled;
    Clock::time_point accept_again = Clock::now();
    while (!stopping_) {
        bool ready_at_once = false;  // a connection back from a worker may hold a whole request
        {
            std::vector<std::unique_ptr<Connection>> back;
            {
                const std::lock_guard guard(mutex_);
                back.swap(returned_);
            }
            for (auto& c : back) {
                if (c->broken) continue;  // done with: closed
                if (c->writing()) {
                    // A plain response, written here: a slow reader holds no worker.
                    c->deadline = Clock::now() + seconds(limits_.write_seconds + static_cast<double>(c->out.size()) / (1 << 20));
                } else if (c->close_after) {
                    linger(*c);  // a streamed response that ended with the connection
                } else {
                    wait_for_request(*c);
                    ready_at_once = true;
                }
                open.push_back(std::move(c));
            }
        }
        drop_stalled_writers(open);  // before any request is read: the room they held is free for it
        const auto now = Clock::now();
        const bool accepting = now >= accept_again;
        polled.assign({{wake_pipe_[0], POLLIN, 0}, {accepting ? listen_fd_ : -1, POLLIN, 0}});
        Clock::time_point next_deadline = now + std::chrono::milliseconds(accepting ? 500 : 100);
        for (const auto& c : open) {
            polled.push_back({c->fd, static_cast<short>(c->writing() ? POLLOUT : POLLIN), 0});
            next_deadline = std::min(next_deadline, c->deadline);
            ready_at_once = ready_at_once || c->check_input;
        }
        if (::poll(polled.data(), polled.size(), ready_at_once ? 0 : milliseconds_until(next_deadline)) < 0 && errno != EINTR) break;
        if (polled[0].revents) {
            char drain[64];
            while (::read(wake_pipe_[0], drain, sizeof drain) > 0) {
            }
        }
        std::vector<std::unique_ptr<Connection>> still;
        for (std::size_t i = 0; i < open.size(); ++i) {
            auto& c = open[i];
            const short events = polled[i + 2].revents;
            if (c->lingering) {
                if (events && !drop_input(*c)) continue;  // the client has closed too: closed
                if (Clock::now() < c->deadline) still.push_back(std::move(c));
                continue;
            }
            if (c->writing()) {
                if (events && !write_pending(*c)) continue;  // gone: closed
                if (c->writing()) {
                    if (Clock::now() < c->deadline) still.push_back(std::move(c));
                    continue;  // else too slow a reader: dropped
                }
                if (c->close_after) {
                    linger(*c);
                    still.push_back(std::move(c));
                    continue;
                }
                wait_for_request(*c);  // written: the connection waits for its next request
            }
            if (!(events & (POLLIN | POLLHUP | POLLERR)) && !c->check_input) {
                if (Clock::now() < c->deadline) still.push_back(std::move(c));
                else if (c->started) {  // too slow a request: told so; an idle connection is just closed
                    refuse(*c, 408, fmt::format("the request did not arrive whole within {} s", limits_.request_seconds));
                    still.push_back(std::move(c));
                }
                continue;
            }
            c->check_input = false;
            const bool complete = read_request(*c);
            if (c->refusal) {
                refuse(*c, c->refusal, c->refusal_message);
                still.push_back(std::move(c));
                continue;
            }
            if (complete) {
                {
                    const std::lock_guard guard(mutex_);
                    if (ready_.size() < limits_.max_waiting) {
                        ++with_workers_;
                        ready_.push_back(std::move(c));
                    }
                }
                if (!c) {
                    work_ready_.notify_one();
                    continue;
                }
                refuse(*c, 503, "busy: too many requests wait for the server; try again");
                still.push_back(std::move(c));
                continue;
            }
            if (c->broken || c->eof) continue;  // gone, or done sending without a whole request: closed
            if (Clock::now() >= c->deadline) {
                if (c->started) {
                    refuse(*c, 408, fmt::format("the request did not arrive whole within {} s", limits_.request_seconds));
                    still.push_back(std::move(c));
                }
                continue;
            }
            still.push_back(std::move(c));
        }
        open.swap(still);
        if (accepting && polled[1].revents && accept_connections(open))
            accept_again = Clock::now() + std::chrono::milliseconds(100);
    }
}

bool Server::drop_input(Connection& c) {
    char buffer[16384];
    for (std::size_t dropped = 0; dropped < BytesPerPass;) {
        const ssize_t n = ::recv(c.fd, buffer, sizeof buffer, 0);
        if (n > 0) dropped += static_cast<std::size_t>(n);
        else if (n < 0 && errno == EINTR) continue;
        else return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);  // 0: the client closed; else gone
    }
    return true;
}

bool Server::read_request(Connection& c) {
    // Never more than the request needs (its head up to the bound, then its body), nor more
    // than the server may still hold for all connections together, nor more than a pass's share.
    const std::size_t need = c.head_parsed ? c.head_end + c.body_length : limits_.max_head_bytes + 1;
    char buffer[16384];
    std::size_t this_pass = 0;
    while (c.in.size() < need && !c.eof && !c.broken && this_pass < BytesPerPass) {
        const std::size_t held = buffered_;
        const std::size_t room = held < limits_.max_buffered_bytes ? limits_.max_buffered_bytes - held : 0;
        if (room == 0) {
            c.refuse(503, "busy: the server holds too many requests in reading; try again");
            return true;
        }
        const ssize_t n = ::recv(c.fd, buffer, std::min({sizeof buffer, need - c.in.size(), room}), 0);
        if (n > 0) {
            this_pass += static_cast<std::size_t>(n);
            if (!c.started) {  // the request's own deadline runs from its first byte
                c.started = true;
                c.deadline = Clock::now() + seconds(limits_.request_seconds);
            }
            c.in.append(buffer, static_cast<std::size_t>(n));
            c.recharge();
        } else if (n == 0) {
            c.eof = true;
        } else if (errno == EINTR) {
            continue;
        } else {
            c.broken = errno != EAGAIN && errno != EWOULDBLOCK;
            break;
        }
    }
    if (this_pass >= BytesPerPass) c.check_input = true;  // more may be waiting: the next pass reads on
    if (!c.head_parsed) {
        // Empty lines before a request line are passed over (RFC 9112, 2.2).
        const auto first = c.in.find_first_not_of("\r\n");
        c.in.erase(0, first == std::string::npos ? c.in.size() : first);
        // The head ends at the first empty line, whichever line ends (CRLF or bare LF) it has.
        std::size_t end = std::string::npos, separator = 0;
        for (const std::string_view blank : {"\r\n\r\n", "\n\r\n", "\n\n"})
            if (const auto at = c.in.find(blank); at != std::string::npos && (end == std::string::npos || at + blank.size() < end + separator)) {
                end = at;
                separator = blank.size();
            }
        if (end == std::string::npos || end > limits_.max_head_bytes) {
            if (c.in.size() > limits_.max_head_bytes || end != std::string::npos)
                c.refuse(431, fmt::format("the request head is over {} bytes", limits_.max_head_bytes));
            return c.refusal != 0;
        }
        if (!parse_head(c, end, separator)) return true;
        if (c.in.size() < c.head_end + c.body_length) {
            if (c.check_input) return false;  // this pass's share is read: the body on the next
            return read_request(c);            // its body may be waiting
        }
    }
    if (c.in.size() < c.head_end + c.body_length) return false;
    if (c.in.size() == c.head_end + c.body_length) {  // no pipelined request behind: the buffer becomes the body
        c.request.body = std::move(c.in);
        c.request.body.erase(0, c.head_end);
        c.in.clear();
    } else {
        c.request.body = c.in.substr(c.head_end, c.body_length);
        c.in.erase(0, c.head_end + c.body_length);
        c.check_input = false;  // the pipelined request waits for this one's answer
    }
    c.recharge();
    return true;
}

// Parses the head in c.in[0, end); false when the request is refused (c.refusal says why).
bool Server::parse_head(Connection& c, std::size_t end, std::size_t separator) {
    c.head_parsed = true;
    c.head_end = end + separator;
    const std::string_view head(c.in.data(), end);
    // Request line: METHOD SP target SP HTTP/1.x
    const auto line_end = head.find('\n');
    const std::string_view line = trim(head.substr(0, line_end));
    const auto space1 = line.find(' '), space2 = line.rfind(' ');
    if (space1 == std::string_view::npos || space2 == space1 || line.find(' ', space1 + 1) != space2 ||
        !is_token(line.substr(0, space1))) {
        c.refuse(400, "malformed request line");
        return false;
    }
    c.request.method = std::string(line.substr(0, space1));
    std::string_view target = line.substr(space1 + 1, space2 - space1 - 1);
    const std::string_view version = line.substr(space2 + 1);
    // HTTP/1.x: a later minor version is answered as 1.1 (RFC 9110, 6.2).
    if (version.size() != 8 || !version.starts_with("HTTP/1.") || !std::isdigit(static_cast<unsigned char>(version[7]))) {
        c.refuse(505, "HTTP/1.0 or HTTP/1.1 only");
        return false;
    }
    c.http10 = version == "HTTP/1.0";
    if (target.size() > MaxTargetBytes) {  // (the routes' regular expressions recurse once a character)
        c.refuse(414, fmt::format("the request target is over {} bytes", MaxTargetBytes));
        return false;
    }
    if (const auto scheme = target.find("://"); scheme != std::string_view::npos && !target.starts_with("/")) {
        const auto path = target.find('/', scheme + 3);
        target = path == std::string_view::npos ? std::string_view("/") : target.substr(path);
    }
    const auto question = target.find('?');
    const auto path = url_decode(target.substr(0, question), false);
    if (!path || path->empty() || path->front() != '/') {
        c.refuse(400, "malformed request target");
        return false;
    }
    c.request.path = *path;
    if (question != std::string_view::npos) {
        std::string_view query = target.substr(question + 1);
        while (!query.empty()) {
            const auto amp = query.find('&');
            const std::string_view item = query.substr(0, amp);
            query = amp == std::string_view::npos ? std::string_view() : query.substr(amp + 1);
            if (item.empty()) continue;
            const auto eq = item.find('=');
            const auto key = url_decode(item.substr(0, eq), true);
            const auto value = url_decode(eq == std::string_view::npos ? std::string_view() : item.substr(eq + 1), true);
            if (!key || !value) {
                c.refuse(400, "malformed query string");
                return false;
            }
            c.request.params[*key] = *value;
        }
    }
    // Headers: "Name: value" lines; a name is a token (a space before the colon is refused, so
    // that no header is read two ways).
    std::string_view rest = line_end == std::string_view::npos ? std::string_view() : head.substr(line_end + 1);
    while (!rest.empty()) {
        const auto nl = rest.find('\n');
        const std::string_view header = rest.substr(0, nl);
        rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
        const auto colon = header.find(':');
        if (colon == std::string_view::npos || !is_token(header.substr(0, colon))) {
            c.refuse(400, "malformed header line");
            return false;
        }
        std::string name = lowercase(header.substr(0, colon));
        const std::string value(trim(header.substr(colon + 1)));
        if (std::any_of(value.begin(), value.end(), [](char ch) { return (static_cast<unsigned char>(ch) < 0x20 && ch != '\t') || ch == 0x7f; })) {
            c.refuse(400, fmt::format("a control character in the {} header", name));
            return false;
        }
        auto [it, inserted] = c.request.headers.emplace(name, value);
        if (!inserted) {
            if (name == "host" || name == "content-length" || name == "transfer-encoding") {
                c.refuse(400, fmt::format("a repeated {} header", name));
                return false;
            }
            it->second += ", " + value;
        }
    }
    if (!c.http10 && !c.request.headers.contains("host")) {  // RFC 9112, 3.2
        c.refuse(400, "the request names no host (HTTP/1.1 requires a Host header)");
        return false;
    }
    // Connection: a comma-separated list of tokens.
    bool close = false, keep_alive = false;
    const std::string connection = c.request.header("connection");  // (a view of it must not outlive it)
    for (std::string_view list = connection; !list.empty();) {
        const auto comma = list.find(',');
        const std::string option = lowercase(trim(list.substr(0, comma)));
        list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        close = close || option == "close";
        keep_alive = keep_alive || option == "keep-alive";
    }
    c.keep_alive = !close && (!c.http10 || keep_alive);
    if (c.request.headers.contains("transfer-encoding")) {
        c.refuse(411, "a request body must come with its Content-Length, not a Transfer-Encoding");
        return false;
    }
    if (const auto length = c.request.headers.find("content-length"); length != c.request.headers.end()) {
        const std::string& text = length->second;
        if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos) {
            c.refuse(400, "malformed Content-Length");
            return false;
        }
        c.body_length = std::stoull(text);
        if (c.body_length > limits_.max_body_bytes) {
            c.refuse(413, fmt::format("the request body is over {} bytes", limits_.max_body_bytes));
            return false;
        }
    }
    // (An HTTP/1.0 client's Expect is ignored, RFC 9110, 10.1.1.) Sent at once, while nothing
    // else is: a client whose socket cannot take these bytes is dropped rather than answered
    // with half of them.
    if (!c.http10 && lowercase(c.request.header("expect")) == "100-continue" && c.body_length > 0 && c.in.size() == c.head_end) {
        const std::string_view go_on = "HTTP/1.1 100 Continue\r\n\r\n";
        c.broken = ::send(c.fd, go_on.data(), go_on.size(), MSG_NOSIGNAL) != static_cast<ssize_t>(go_on.size());
    }
    return true;
}

bool Server::write_pending(Connection& c) {
    for (std::size_t this_pass = 0; c.writing() && this_pass < BytesPerPass;) {
        const std::size_t size = std::min(c.out.size() - c.sent, BytesPerPass - this_pass);
        const ssize_t n = ::send(c.fd, c.out.data() + c.sent, size, MSG_NOSIGNAL);
        if (n > 0) {
            c.sent += static_cast<std::size_t>(n);
            this_pass += static_cast<std::size_t>(n);
            c.progress = Clock::now();
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return true;  // more when the client has read some
        } else {
            return false;  // gone
        }
    }
    if (!c.writing()) {
        c.out.clear();
        c.out.shrink_to_fit();
        c.sent = 0;
        c.recharge();
        c.keep.reset();
    }
    return true;
}

std::size_t Server::connection_share() const {
    const std::size_t request = limits_.max_head_bytes + limits_.max_body_bytes;
    const std::size_t share = limits_.max_connection_bytes ? limits_.max_connection_bytes : limits_.max_buffered_bytes / 4;
    return std::max(share, request);
}

void Server::drop_stalled_writers(std::vector<std::unique_ptr<Connection>>& open) {
    const std::size_t share = connection_share();
    auto room = [&] {
        const std::size_t held = buffered_;
        return held < limits_.max_buffered_bytes ? limits_.max_buffered_bytes - held : 0;
    };
    if (room() >= share) return;
    const auto stalled_since = Clock::now() - seconds(limits_.stalled_seconds);
    std::vector<Connection*> stalled;
    for (const auto& c : open)
        if (c->writing() && c->progress <= stalled_since) stalled.push_back(c.get());
    std::sort(stalled.begin(), stalled.end(), [](const Connection* a, const Connection* b) { return a->charged > b->charged; });
    for (Connection* c : stalled) {
        if (room() >= share) break;
        c->broken = true;  // closed below: its response is dropped
        // Reset, not shut: what the kernel still holds of the answer is freed at once (a
        // client that reads nothing would never take it), and the client learns it was dropped.
        const ::linger reset{1, 0};  // (the type, not Server::linger)
        ::setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
        c->out.clear();
        c->out.shrink_to_fit();
        c->sent = 0;
        c->recharge();
        c->keep.reset();
    }
    std::erase_if(open, [](const auto& c) { return c->broken; });
}

void Server::queue_response(Connection& c, Response& res, bool keep_alive) {
    if (res.body.size() > connection_share()) {  // one client's response may not fill the server's buffers
        const std::size_t size = res.body.size();
        reset_keeping(res);
        res.status = 500;
        const std::string message = fmt::format("the answer is {} bytes, more than one connection may hold ({} bytes)", size,
                                                connection_share());
        if (error_handler_) error_handler_(res, res.status, message);
        else res.set_content(message, "text/plain");
    }
    c.keep_alive = keep_alive;
    c.close_after = !keep_alive;
    c.out = fmt::format("HTTP/1.1 {} {}\r\nContent-Type: {}\r\n", res.status, reason(res.status), res.content_type);
    for (const auto& [name, value] : res.headers) c.out += fmt::format("{}: {}\r\n", name, value);
    c.out += fmt::format("Connection: {}\r\nContent-Length: {}\r\n\r\n", keep_alive ? "keep-alive" : "close", res.body.size());
    c.out += res.body;
    res.body = {};  // not held twice while the connection writes it
    c.sent = 0;
    c.progress = Clock::now();
    free_request(c.request);  // answered: its body is not held while the response is written
    c.recharge();
    c.keep = std::move(res.keep);
}

void Server::refuse(Connection& c, int status, const std::string& message) {
    c.in.clear();  // the connection closes after the answer: what the client sent more is dropped
    c.in.shrink_to_fit();
    c.deadline = Clock::now() + seconds(limits_.write_seconds);
    Response res;
    res.status = status;
    if (error_handler_) error_handler_(res, status, message);
    else res.set_content(message, "text/plain");
    queue_response(c, res, false);
}

// ---- the workers: one complete request each ---------------------------------------------------------

void Server::work() {
    for (;;) {
        std::unique_ptr<Connection> c;
        {
            std::unique_lock lock(mutex_);
            work_ready_.wait(lock, [this] { return stopping_ || !ready_.empty(); });
            if (stopping_) return;
            c = std::move(ready_.front());
            ready_.pop_front();
        }
        try {
            handle(*c);
        } catch (...) {  // (out of memory while answering): the connection is dropped, the worker goes on
            c->broken = true;
        }
        give_back(std::move(c));
    }
}

void Server::give_back(std::unique_ptr<Connection> c) {
    {
        const std::lock_guard guard(mutex_);
        --with_workers_;
        returned_.push_back(std::move(c));
    }
    wake_io();
}

void Server::handle(Connection& c) {
    Request& req = c.request;
    Response res;
    try {
        bool answered = guard_ && guard_(req, res);
        bool path_known = false;
        for (const Route& route : routes_) {
            if (answered) break;
            std::smatch m;
            if (!std::regex_match(req.path, m, route.pattern)) continue;
            path_known = true;
            if (route.method != req.method) continue;
            req.matches.assign(m.begin(), m.end());
            route.handler(req, res);
            answered = true;
        }
        if (!answered) {
            res = Response{};
            res.status = path_known ? 405 : 404;
            if (error_handler_) error_handler_(res, res.status, path_known ? "method not allowed" : "no such page");
        }
    } catch (...) {
        reset_keeping(res);
        res.status = 500;
        if (exception_handler_) exception_handler_(res, std::current_exception());
        else res.set_content("internal error", "text/plain");
    }
    if (res.stream) stream(c, res);
    else queue_response(c, res, c.keep_alive);
}

// A streamed response, written by its worker: chunks (HTTP/1.0: the bytes, then the close).
void Server::stream(Connection& c, Response& res) {
    const bool chunked = !c.http10;
    std::string head = fmt::format("HTTP/1.1 {} {}\r\nContent-Type: {}\r\n", res.status, reason(res.status), res.content_type);
    for (const auto& [name, value] : res.headers) head += fmt::format("{}: {}\r\n", name, value);
    head += fmt::format("Connection: {}\r\n", c.keep_alive && chunked ? "keep-alive" : "close");
    head += chunked ? "Transfer-Encoding: chunked\r\n\r\n" : "\r\n";
    bool open = send_blocking(c, head);
    const StreamWriter write = [&](std::string_view data) {
        if (!open || stopping_) return open = false;
        if (data.empty()) return true;
        // (A client that has only shut its sending side still reads: a page that went away is
        // noticed when a write fails, within a heartbeat or two.)
        return open = send_blocking(c, chunked ? fmt::format("{:x}\r\n{}\r\n", data.size(), data) : std::string(data));
    };
    if (open) res.stream(write);
    if (open && chunked) open = send_blocking(c, "0\r\n\r\n");
    free_request(c.request);
    c.recharge();
    c.broken = !open;
    c.close_after = !c.keep_alive || !chunked;
}

bool Server::send_blocking(Connection& c, std::string_view data) {
    // The whole write within the bound, not each byte of it: a client that takes a byte now
    // and then must not hold the worker (and the search it streams) for ever.
    const auto deadline = Clock::now() + seconds(limits_.write_seconds);
    while (!data.empty()) {
        const ssize_t n = ::send(c.fd, data.data(), data.size(), MSG_NOSIGNAL);
        if (n > 0) {
            data.remove_prefix(static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return false;
        // The client reads slowly: wait for room, a while at most.
        if (stopping_ || Clock::now() > deadline) return false;
        pollfd p{c.fd, POLLOUT, 0};
        ::poll(&p, 1, 100);
    }
    return true;
}

}  // namespace http
