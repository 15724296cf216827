// Helpers the web board's tests share (web_api_test.cpp, http_server_test.cpp and
// web_records_test.cpp): a server on a free port for a test's life, its JSON answers, and raw
// sockets for clients that misbehave.
#pragma once

#include <gtest/gtest.h>
#include <httplib.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "matches/web/server.hpp"

namespace matches::web::fixtures {

using nlohmann::json;

inline matches::web::ServerSettings on_a_free_port(matches::web::ServerSettings s) {
    s.port = 0;
    return s;
}

// A server on a free port of 127.0.0.1, serving on its own thread for the test's life.
class RunningServer {
public:
    explicit RunningServer(const matches::web::ServerSettings& settings) : server_(on_a_free_port(settings)) {
        port_ = server_.bind();
        thread_ = std::thread([this] { server_.serve(); });
    }
    ~RunningServer() {
        server_.stop();
        thread_.join();
    }
    httplib::Client client() const {
        httplib::Client c("127.0.0.1", port_);
        c.set_read_timeout(30, 0);
        return c;
    }
    int port() const { return port_; }

private:
    matches::web::Server server_;
    int port_ = 0;
    std::thread thread_;
};

// A fresh directory for the running test, named by its suite's `prefix` and the test (CTest
// runs a suite's tests at the same time); removed when the test ends.
class TestDirectory {
public:
    explicit TestDirectory(const std::string& prefix)
        : path_(std::filesystem::path(testing::TempDir()) /
                (prefix + "-" + testing::UnitTest::GetInstance()->current_test_info()->name())) {
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~TestDirectory() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TestDirectory(const TestDirectory&) = delete;
    TestDirectory& operator=(const TestDirectory&) = delete;
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

inline json body_of(const httplib::Result& r) {
    EXPECT_TRUE(r) << "no response";
    if (!r) return {};
    return json::parse(r->body);
}

// A raw TCP connection to the server, for clients that misbehave.
class RawClient {
public:
    explicit RawClient(int port) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(static_cast<std::uint16_t>(port));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        timeval tv{0, 100'000};
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    }
    ~RawClient() { ::close(fd_); }
    bool connected() const { return connected_; }
    int fd() const { return fd_; }
    bool send(std::string_view text) { return ::send(fd_, text.data(), text.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(text.size()); }
    // What the server sends until `enough` holds of it, the server closes, or `seconds` pass
    // (rather than one recv after a sleep, which a loaded or sanitised run can outwait).
    template <class Enough>
    std::string read_until(Enough enough, int seconds = 5) {
        std::string answer;
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
        while (!enough(answer) && std::chrono::steady_clock::now() < deadline) {
            char buffer[65536];
            const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
            if (n > 0) answer.append(buffer, static_cast<std::size_t>(n));
            else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) break;
        }
        return answer;
    }
    // What the server sends until `text` appears in it (or as read_until stops).
    std::string read_until_text(std::string_view text, int seconds = 5) {
        return read_until([text](const std::string& a) { return a.find(text) != std::string::npos; }, seconds);
    }
    // True once the server has closed the connection (what it sent before is read and dropped).
    bool closed_by_server() {
        char buffer[4096];
        for (;;) {
            const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
            if (n == 0) return true;
            if (n < 0) return errno != EAGAIN && errno != EWOULDBLOCK;
        }
    }

private:
    int fd_ = -1;
    bool connected_ = false;
};

// A client socket connected to the server with a receive buffer of `bytes` (set before the
// connection, so that the window the server sees is small); -1 when it cannot connect.
inline int connect_with_receive_window(int port, int bytes) {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &bytes, sizeof bytes);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) return fd;
    ::close(fd);
    return -1;
}

// Events of a server-sent-event stream: (name, data) in order.
inline std::vector<std::pair<std::string, json>> parse_events(const std::string& stream) {
    std::vector<std::pair<std::string, json>> out;
    std::size_t at = 0;
    for (std::size_t end; (end = stream.find("\n\n", at)) != std::string::npos; at = end + 2) {
        const std::string block = stream.substr(at, end - at);
        std::string name, data;
        std::size_t line_start = 0;
        while (line_start < block.size()) {
            std::size_t line_end = block.find('\n', line_start);
            if (line_end == std::string::npos) line_end = block.size();
            const std::string line = block.substr(line_start, line_end - line_start);
            if (line.rfind("event: ", 0) == 0) name = line.substr(7);
            if (line.rfind("data: ", 0) == 0) data = line.substr(6);
            line_start = line_end + 1;
        }
        if (!name.empty()) out.emplace_back(name, json::parse(data));
    }
    return out;
}

}  // namespace matches::web::fixtures
