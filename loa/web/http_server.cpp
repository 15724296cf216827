#include "loa/web/http_server.hpp"

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
#include <chrono>
#include <cstring>

#include <fmt/format.h>

namespace http {
namespace {

using Clock = std::chrono::steady_clock;

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

const char* reason(int status) {
    switch (status) {
        case 100: return "Continue";
        case 200: return "OK";
        case 400: return "Bad Request";
        case 403: return "Forbidden";
        case 404: return "Not Found";
        case 405: return "Method Not Allowed";
        case 408: return "Request Timeout";
        case 411: return "Length Required";
        case 413: return "Payload Too Large";
        case 431: return "Request Header Fields Too Large";
        case 500: return "Internal Server Error";
        case 503: return "Service Unavailable";
        case 505: return "HTTP Version Not Supported";
        default: return "Unknown";
    }
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

int milliseconds_until(Clock::time_point when) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(when - Clock::now()).count();
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

// A client's connection and the request being read from it.
struct Server::Connection {
    int fd = -1;
    std::string in;  // received and not yet consumed (a pipelined next request included)
    Clock::time_point deadline;
    bool started = false;      // a byte of the current request has arrived
    bool head_parsed = false;
    bool closed = false;       // by the client (or a failed write)
    std::size_t head_end = 0;  // bytes of the head in `in`
    std::size_t body_length = 0;
    bool keep_alive = true;
    Request request;
    int refusal = 0;  // a status to answer the request with, without handling it
    std::string refusal_message;

    ~Connection() {
        if (fd >= 0) ::close(fd);
    }
    void refuse(int status, std::string message) {
        refusal = status;
        refusal_message = std::move(message);
        keep_alive = false;
    }
    // Ready for the next request on the same connection (a pipelined one may be buffered).
    void next_request() {
        request = Request{};
        started = !in.empty();
        head_parsed = false;
        head_end = body_length = 0;
        refusal = 0;
        refusal_message.clear();
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
    wake_reader();
    work_ready_.notify_all();
}

void Server::wake_reader() {
    if (wake_pipe_[1] >= 0) {
        const char byte = 1;
        [[maybe_unused]] const ssize_t n = ::write(wake_pipe_[1], &byte, 1);  // full pipe: already woken
    }
}

void Server::serve() {
    if (stopping_ || listen_fd_ < 0) return;
    std::vector<std::thread> workers;
    for (int i = 0; i < std::max(1, limits_.workers); ++i) workers.emplace_back([this] { work(); });
    read_loop();
    stop();
    for (std::thread& t : workers) t.join();
    const std::lock_guard guard(mutex_);
    ready_.clear();
    returned_.clear();
}

// ---- the reader: every connection waiting for a request, at once --------------------------------

void Server::accept_connections(std::vector<std::unique_ptr<Connection>>& open) {
    for (;;) {
        const int fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) return;  // EAGAIN: none left (or an error of that one client)
        std::size_t busy;
        {
            const std::lock_guard guard(mutex_);
            busy = busy_connections_;
        }
        if (open.size() + busy >= limits_.max_connections) {
            ::close(fd);  // at capacity: the client may try again
            continue;
        }
        const int yes = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &yes, sizeof yes);
        auto c = std::make_unique<Connection>();
        c->fd = fd;
        c->deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limits_.request_seconds));
        open.push_back(std::move(c));
    }
}

void Server::read_loop() {
    std::vector<std::unique_ptr<Connection>> open;
    std::vector<pollfd> polled;
    while (!stopping_) {
        std::vector<std::unique_ptr<Connection>> back;
        {
            const std::lock_guard guard(mutex_);
            back.swap(returned_);
        }
        // A connection given back may hold a whole request already: no waiting then.
        bool buffered = false;
        for (auto& c : back) {
            // A kept-alive connection: its next request must begin within the idle time (and
            // may already be buffered, pipelined behind the last one).
            c->deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(
                                             c->started ? limits_.request_seconds : limits_.idle_seconds));
            buffered = buffered || !c->in.empty();
            open.push_back(std::move(c));
        }
        polled.assign({{wake_pipe_[0], POLLIN, 0}, {listen_fd_, POLLIN, 0}});
        Clock::time_point next_deadline = Clock::now() + std::chrono::milliseconds(500);
        for (const auto& c : open) {
            polled.push_back({c->fd, POLLIN, 0});
            next_deadline = std::min(next_deadline, c->deadline);
        }
        if (::poll(polled.data(), polled.size(), buffered ? 0 : milliseconds_until(next_deadline)) < 0 && errno != EINTR) break;
        if (polled[0].revents) {
            char drain[64];
            while (::read(wake_pipe_[0], drain, sizeof drain) > 0) {
            }
        }
        std::vector<std::unique_ptr<Connection>> still;
        const auto now = Clock::now();
        for (std::size_t i = 0; i < open.size(); ++i) {
            auto& c = open[i];
            const short events = polled[i + 2].revents;
            const bool complete = (events || !c->in.empty()) && read_request(*c);
            if (c->closed && !complete) continue;  // the client went away: closed with it
            if (complete) {
                {
                    const std::lock_guard guard(mutex_);
                    if (ready_.size() >= limits_.max_waiting) c->refuse(503, "busy: too many requests wait for the server");
                    ++busy_connections_;
                    ready_.push_back(std::move(c));
                }
                work_ready_.notify_one();
                continue;
            }
            if (now >= c->deadline) continue;  // too slow, or idle too long: closed
            still.push_back(std::move(c));
        }
        open.swap(still);
        if (polled[1].revents) accept_connections(open);
    }
}

bool Server::read_request(Connection& c) {
    char buffer[16384];
    for (;;) {
        const ssize_t n = ::recv(c.fd, buffer, sizeof buffer, 0);
        if (n > 0) {
            c.in.append(buffer, static_cast<std::size_t>(n));
            if (!c.started) {  // the request's own deadline runs from its first byte
                c.started = true;
                c.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(limits_.request_seconds));
            }
            // Never more than one request's worth buffered: the rest waits in the socket.
            if (c.in.size() > limits_.max_head_bytes + limits_.max_body_bytes) break;
            continue;
        }
        if (n == 0) c.closed = true;
        else if (errno == EINTR) continue;
        else if (errno != EAGAIN && errno != EWOULDBLOCK) c.closed = true;
        break;
    }
    if (!c.head_parsed) {
        auto end = c.in.find("\r\n\r\n");
        std::size_t separator = 4;
        if (end == std::string::npos) {
            end = c.in.find("\n\n");
            separator = 2;
        }
        if (end == std::string::npos) {
            if (c.in.size() > limits_.max_head_bytes) {
                c.refuse(431, fmt::format("the request head is over {} bytes", limits_.max_head_bytes));
                return true;
            }
            return false;
        }
        if (end > limits_.max_head_bytes) {
            c.refuse(431, fmt::format("the request head is over {} bytes", limits_.max_head_bytes));
            return true;
        }
        c.head_parsed = true;
        c.head_end = end + separator;
        const std::string_view head(c.in.data(), end);
        // Request line: METHOD SP target SP HTTP/1.x
        const auto line_end = head.find('\n');
        const std::string_view line = trim(head.substr(0, line_end));
        const auto space1 = line.find(' '), space2 = line.rfind(' ');
        if (space1 == std::string_view::npos || space2 == space1) {
            c.refuse(400, "malformed request line");
            return true;
        }
        c.request.method = std::string(line.substr(0, space1));
        std::string_view target = line.substr(space1 + 1, space2 - space1 - 1);
        const std::string_view version = line.substr(space2 + 1);
        if (version != "HTTP/1.1" && version != "HTTP/1.0") {
            c.refuse(505, "HTTP/1.0 or HTTP/1.1 only");
            return true;
        }
        if (const auto scheme = target.find("://"); scheme != std::string_view::npos && target.front() != '/') {
            const auto path = target.find('/', scheme + 3);
            target = path == std::string_view::npos ? std::string_view("/") : target.substr(path);
        }
        const auto question = target.find('?');
        const auto path = url_decode(target.substr(0, question), false);
        if (!path || path->empty() || path->front() != '/') {
            c.refuse(400, "malformed request target");
            return true;
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
                    return true;
                }
                c.request.params[*key] = *value;
            }
        }
        // Headers: "Name: value" lines.
        std::string_view rest = line_end == std::string_view::npos ? std::string_view() : head.substr(line_end + 1);
        while (!rest.empty()) {
            const auto nl = rest.find('\n');
            const std::string_view header = rest.substr(0, nl);
            rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
            if (trim(header).empty()) continue;
            const auto colon = header.find(':');
            if (colon == std::string_view::npos || colon == 0 || header.front() == ' ' || header.front() == '\t') {
                c.refuse(400, "malformed header line");
                return true;
            }
            std::string name = lowercase(header.substr(0, colon));
            const std::string value(trim(header.substr(colon + 1)));
            auto [it, inserted] = c.request.headers.emplace(name, value);
            if (!inserted) {
                if (name == "host" || name == "content-length") {
                    c.refuse(400, fmt::format("a repeated {} header", name));
                    return true;
                }
                it->second += ", " + value;
            }
        }
        const std::string connection = lowercase(c.request.header("connection"));
        c.keep_alive = version == "HTTP/1.1" && connection.find("close") == std::string::npos;
        if (!c.request.header("transfer-encoding").empty()) {
            c.refuse(411, "a request body must come with its Content-Length");
            return true;
        }
        if (const std::string length = c.request.header("content-length"); !length.empty()) {
            if (length.size() > 18 || length.find_first_not_of("0123456789") != std::string::npos) {
                c.refuse(400, "malformed Content-Length");
                return true;
            }
            c.body_length = std::stoull(length);
            if (c.body_length > limits_.max_body_bytes) {
                c.refuse(413, fmt::format("the request body is over {} bytes", limits_.max_body_bytes));
                return true;
            }
        }
        if (lowercase(c.request.header("expect")) == "100-continue" && c.body_length > 0 && c.in.size() == c.head_end) {
            const std::string go_on = "HTTP/1.1 100 Continue\r\n\r\n";
            [[maybe_unused]] const ssize_t n = ::send(c.fd, go_on.data(), go_on.size(), MSG_NOSIGNAL);  // a small first write
        }
    }
    if (c.in.size() - c.head_end < c.body_length) return false;
    c.request.body = c.in.substr(c.head_end, c.body_length);
    c.in.erase(0, c.head_end + c.body_length);
    return true;
}

// ---- the workers: one complete request each --------------------------------------------------------

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
        handle(*c);
        {
            const std::lock_guard guard(mutex_);
            --busy_connections_;
        }
        if (c->keep_alive && !c->closed && !stopping_) give_back(std::move(c));
    }
}

void Server::give_back(std::unique_ptr<Connection> c) {
    c->next_request();
    {
        const std::lock_guard guard(mutex_);
        returned_.push_back(std::move(c));
    }
    wake_reader();
}

void Server::refuse(Connection& c, int status, const std::string& message) {
    Response res;
    res.status = status;
    if (error_handler_) error_handler_(res, status, message);
    else res.set_content(message, "text/plain");
    respond(c, res, false);
}

void Server::handle(Connection& c) {
    if (c.refusal) return refuse(c, c.refusal, c.refusal_message);
    Request& req = c.request;
    Response res;
    try {
        if (guard_ && guard_(req, res)) return respond(c, res, c.keep_alive);
        bool path_known = false;
        for (const Route& route : routes_) {
            std::smatch m;
            if (!std::regex_match(req.path, m, route.pattern)) continue;
            path_known = true;
            if (route.method != req.method) continue;
            req.matches.assign(m.begin(), m.end());
            route.handler(req, res);
            return respond(c, res, c.keep_alive);
        }
        c.keep_alive = c.keep_alive && req.body.size() == 0;
        return refuse(c, path_known ? 405 : 404, path_known ? "method not allowed" : "no such page");
    } catch (...) {
        Response failed;
        failed.status = 500;
        if (exception_handler_) exception_handler_(failed, std::current_exception());
        else failed.set_content("internal error", "text/plain");
        respond(c, failed, c.keep_alive);
    }
}

void Server::respond(Connection& c, Response& res, bool keep_alive) {
    c.keep_alive = keep_alive;
    std::string head = fmt::format("HTTP/1.1 {} {}\r\nContent-Type: {}\r\n", res.status, reason(res.status), res.content_type);
    for (const auto& [name, value] : res.headers) head += fmt::format("{}: {}\r\n", name, value);
    head += keep_alive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    if (!res.stream) {
        head += fmt::format("Content-Length: {}\r\n\r\n", res.body.size());
        if (!send_all(c, head + res.body)) c.closed = true;
        return;
    }
    head += "Transfer-Encoding: chunked\r\n\r\n";
    if (!send_all(c, head)) {
        c.closed = true;
        return;
    }
    bool open = true;
    const StreamWriter write = [&](std::string_view data) {
        if (!open || stopping_) return open = false;
        if (data.empty()) return true;
        pollfd p{c.fd, POLLRDHUP, 0};  // the client closed its side: gone
        if (::poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR))) return open = false;
        return open = send_all(c, fmt::format("{:x}\r\n{}\r\n", data.size(), data));
    };
    res.stream(write);
    if (!open || !send_all(c, "0\r\n\r\n")) c.closed = true;
}

bool Server::send_all(Connection& c, std::string_view data) {
    auto last_progress = Clock::now();
    const auto patience = std::chrono::duration<double>(limits_.write_seconds);
    while (!data.empty()) {
        const ssize_t n = ::send(c.fd, data.data(), data.size(), MSG_NOSIGNAL);
        if (n > 0) {
            data.remove_prefix(static_cast<std::size_t>(n));
            last_progress = Clock::now();
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) return false;
        // The client reads slowly: wait for room, a while at most.
        if (stopping_ || Clock::now() - last_progress > patience) return false;
        pollfd p{c.fd, POLLOUT, 0};
        ::poll(&p, 1, 100);
    }
    return true;
}

}  // namespace http
