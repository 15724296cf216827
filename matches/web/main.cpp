// `loa-web`: the web board's server, which `loa serve` runs (the board plays and analyses with
// the engine and replays the runner's records and live matches: it sits above both, so the
// engine's own binary does not link it).
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <pthread.h>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <fmt/format.h>

#include "common/cli_main.hpp"
#include "loa/nnue/kernels.hpp"
#include "loa/search_game.hpp"
#include "matches/web/server.hpp"

namespace {

// Blocks of a MB or more are mapped from the system, and so given back to it when freed (the
// server's memory budget, memory_budget.hpp, trims what smaller ones leave). glibc would raise
// this threshold after the first large block freed (up to 32 MB): the request bodies and answers
// that followed came from its arenas and stayed there once freed.
void give_large_blocks_back() {
#if defined(__GLIBC__)
    ::mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
}

}  // namespace

int main(int argc, char** argv) {
    give_large_blocks_back();
    CLI::App app{"Web board: play, analyse, replay records and watch matches in a browser (the program loa-web, which "
                 "`loa serve` runs)",
                 "loa serve"};
    auto s = std::make_shared<matches::web::ServerSettings>();
    app.add_option("--host", s->host, "Address to listen on (anything but 127.0.0.1 opens the board to the network)")
        ->capture_default_str();
    app.add_option("--port", s->port, "Port (0: any free port, printed at start)")->capture_default_str();
    app.add_option("--records", s->records_dir, "Directory of loa-match outputs (PGN, JSON, state files) to browse");
    app.add_option("--variant", s->variant, "Default engine search variant")->capture_default_str();
    s->eval = std::string(loa::DefaultEval);
    app.add_option("--eval", s->eval, "The engine's evaluation: nnue (the shipped network), hce (the hand-written one), a .nnue or weights file")
        ->capture_default_str();
    app.add_option("--allow-host", s->allowed_hosts,
                   "Also answer requests that name this host, with the server's port, or NAME:PORT (a forwarded port); the "
                   "board refuses others: a page of another site must not use it");
    app.add_option("--max-searches", s->max_searches, "Engine searches running at once")->capture_default_str();
    app.add_option("--max-request-mb", s->max_request_mb,
                   "Memory one search's tables (hash + every thread's eval cache + solver), or one request reading a body "
                   "or a file, may claim, MB")
        ->capture_default_str();
    app.add_option("--max-memory-mb", s->max_memory_mb, "Memory the searches and requests running together may claim, MB")
        ->capture_default_str();
    app.add_option("--max-threads", s->max_threads, "Search threads one request may use (0: this machine's cores)")
        ->capture_default_str();
    auto max_seconds = std::make_shared<double>(300);
    app.add_option("--max-search-seconds", *max_seconds, "An analysis stops after this many seconds")
        ->check(CLI::Range(1.0, 86400.0))
        ->capture_default_str();
    app.callback([s, max_seconds] {
        s->max_search_ms = *max_seconds * 1000;
        // SIGINT/SIGTERM are taken by a thread of their own (a signal handler may not stop a
        // server): blocked here, before any server thread exists, so that all inherit the mask.
        sigset_t signals;
        sigemptyset(&signals);
        sigaddset(&signals, SIGINT);
        sigaddset(&signals, SIGTERM);
        pthread_sigmask(SIG_BLOCK, &signals, nullptr);
        matches::web::Server server(*s);
        const int port = server.bind();
        if (s->host != "127.0.0.1" && s->host != "localhost" && s->host != "::1")
            fmt::print(stderr, "warning: listening on {}: anyone who can reach this machine can use the board and its engine\n",
                       s->host);
        fmt::print("loa serve: listening on http://{}:{}/ (Ctrl-C stops)\n", s->host, port);
        std::fflush(stdout);
        std::atomic<bool> served{false};
        std::thread stopper([&] {
            int received = 0;
            sigwait(&signals, &received);
            if (served) return;  // woken below: the server has already stopped
            fmt::print("loa serve: stopping (again to stop at once)\n");
            std::fflush(stdout);
            std::thread second([&] {  // a second Ctrl-C does not wait for the searches to end
                int again = 0;
                sigwait(&signals, &again);
                if (!served) std::_Exit(130);
            });
            second.detach();
            server.stop();
        });
        server.serve();
        served = true;
        // Stopped by a signal or not, wake the stopper so that it returns.
        pthread_kill(stopper.native_handle(), SIGTERM);
        stopper.join();
        fmt::print("loa serve: stopped\n");
    });
    return common::run_cli("loa serve", app, [&] {
        (void)loa::nnue::active_kernels();  // a bad LOA_NNUE_KERNEL is refused here, not mid-search
        app.parse(argc, argv);
        return 0;
    });
}
