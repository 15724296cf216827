#include "matches/web/server.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <functional>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/files.hpp"
#include "common/variant/config.hpp"
#include "common/text.hpp"
#include "loa/error.hpp"
#include "matches/web/analysis_stream.hpp"
#include "matches/web/assets.hpp"
#include "matches/web/game_api.hpp"
#include "matches/web/http_server.hpp"
#include "matches/web/memory_budget.hpp"
#include "matches/web/operator_games.hpp"
#include "matches/web/query.hpp"
#include "matches/web/records_dir.hpp"
#include "matches/web/search_stream.hpp"

namespace matches::web {
using namespace ::loa;  // the board speaks the game's types throughout
namespace {

void send_json(http::Response& res, const nlohmann::json& body, int status = 200) {
    res.status = status;
    res.set_content(json_text(body), "application/json");
}

void send_error(http::Response& res, int status, const std::string& message) {
    send_json(res, {{"error", message}}, status);
}

// The server's memory budget has no room for a request now: 503.
struct Busy : std::runtime_error {
    using std::runtime_error::runtime_error;
};

constexpr double MB = 1024.0 * 1024.0;

// What a request takes at its peak while it parses a body or a file of `bytes` and answers it,
// within RequestLimits (the worst shapes measured, docs/web.md, Safety; a margin on top):
// PGN text is read whole before its games are counted (15.2 bytes a byte for one game of 8 MB,
// 14 for 8 MB of empty records), then replayed and answered a game at a time.
double records_claim_mb(std::uintmax_t bytes) { return 1 + 16 * static_cast<double>(bytes) / MB; }
// A game's JSON: at most 250,064 values are read into a tree (counted first); 24.5 bytes a
// byte for 250,000 plies as a string, 44 MB at most.
double game_claim_mb(std::uintmax_t bytes) { return 1 + std::min(25 * static_cast<double>(bytes) / MB, 64.0); }
// A match's state file (7.5 bytes a byte) or result JSON (3.5), a tree-size result.
double match_claim_mb(std::uintmax_t bytes) { return 1 + 10 * static_cast<double>(bytes) / MB; }

std::uintmax_t file_bytes(const std::filesystem::path& path) {
    std::error_code error;  // (gone since it was resolved: the read says so)
    const std::uintmax_t bytes = std::filesystem::file_size(path, error);
    return error ? 0 : bytes;
}

// "name:port" of a Host header or an origin's authority, the port 80 when none is given.
std::pair<std::string, std::string> host_and_port(std::string_view authority) {
    const auto colon = authority.rfind(':');
    const bool has_port = colon != std::string_view::npos && authority.find(']', colon) == std::string_view::npos;
    std::string host(has_port ? authority.substr(0, colon) : authority);
    for (char& c : host) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return {host, has_port ? std::string(authority.substr(colon + 1)) : "80"};
}

// A path as a route pattern that matches it alone.
std::string regex_escaped(const std::string& path) {
    std::string out;
    for (const char c : path) {
        if (std::string_view(".^$|()[]{}*+?\\").find(c) != std::string_view::npos) out += '\\';
        out += c;
    }
    return out;
}

// The presets the page offers; any other variant string works through the API too.
const char* const PagePresets[] = {"full", "pvs+tt+rhh", "pvs+tt+hh", "pvs+tt", "pvs", "ab"};

}  // namespace

struct Server::Impl {
    ServerSettings settings;
    std::optional<RecordsDir> records;
    std::optional<OperatorGames> operator_games;  // in the records directory
    PonderSearches ponders;
    MemoryBudget budget;  // of the searches' tables and of the requests that parse (before the pool, which claims from it)
    SessionPool pool;
    http::Server http;
    int port = 0;

    static http::Limits limits_of(const ServerSettings& s) {
        http::Limits l;
        // Enough workers for the searches streaming, as many requests waiting for a session
        // (search_stream.hpp), and the pages' other requests.
        l.workers = 2 * s.max_searches + 8;
        l.max_body_bytes = s.max_body_bytes;
        l.request_seconds = s.request_seconds;
        return l;
    }

    explicit Impl(const ServerSettings& s)
        : settings(s), budget(s.max_memory_mb), pool(s.max_searches, s.variant, s.eval, budget), http(limits_of(s)) {
        if (settings.max_threads <= 0) settings.max_threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        for (std::string& name : settings.allowed_hosts)  // compared with the lower-cased Host
            for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (!s.records_dir.empty()) {
            records.emplace(s.records_dir);
            operator_games.emplace(s.records_dir);
        }
        http.set_exception_handler([](http::Response& res, std::exception_ptr failure) {
            try {
                std::rethrow_exception(failure);
            } catch (const NotFound& e) {
                send_error(res, 404, e.what());
            } catch (const TooLarge& e) {
                send_error(res, 413, e.what());
            } catch (const Conflict& e) {
                send_error(res, 409, e.what());
            } catch (const InputError& e) {
                send_error(res, 400, e.what());
            } catch (const Busy& e) {
                send_error(res, 503, e.what());
            } catch (const std::exception& e) {
                send_error(res, 500, fmt::format("internal error: {}", e.what()));
            } catch (...) {
                send_error(res, 500, "internal error");
            }
        });
        http.set_error_handler([](http::Response& res, int status, const std::string& message) { send_error(res, status, message); });
        http.set_guard([this](const http::Request& req, http::Response& res) {
            const std::string refused = foreign_request(req);
            if (refused.empty()) return false;
            send_error(res, 403, refused);
            return true;
        });
        routes();
    }

    // Why a request does not come from this server's own pages ("" when it does): it names
    // another host or port (a page of another site that made its name point here, or a page of
    // another server on this machine), or it was sent by a page of another origin, which may
    // not drive searches nor read files.
    std::string foreign_request(const http::Request& req) const {
        if (req.header("Host").empty()) return "the request names no host (a Host header is required)";
        const auto [host, host_port] = host_and_port(req.header("Host"));
        if (!allowed_authority(host, host_port))
            return fmt::format("the request names host '{}', not this server (port {}): start it with --allow-host {} to "
                               "serve it under that name",
                               common::excerpt(req.header("Host"), 100), port,
                               common::excerpt(host_port == std::to_string(port) ? host : host + ":" + host_port, 100));
        // Pages may be opened from anywhere (a link on another site); the API only from the
        // board's own pages.
        if (!req.path.starts_with("/api/")) return "";
        const std::string origin = req.header("Origin");
        if (!origin.empty()) {
            const std::string_view scheme = "http://";
            const auto [origin_host, origin_port] =
                host_and_port(std::string_view(origin).substr(origin.starts_with(scheme) ? scheme.size() : 0));
            if (!origin.starts_with(scheme) || !allowed_authority(origin_host, origin_port))
                return fmt::format("a page of another origin ('{}') may not use this server", common::excerpt(origin, 100));
        }
        const std::string site = req.header("Sec-Fetch-Site");
        if (site == "cross-site" || site == "same-site") return "a page of another site may not use this server";
        return "";
    }

    // The name and the port count: the server's port with a name it answers to, or a
    // "name:port" given with --allow-host (a forwarded port: ssh -L 9999:localhost:8080).
    bool allowed_authority(const std::string& host, const std::string& host_port) const {
        if (host_port == std::to_string(port) && allowed_name(host)) return true;
        return allowed(host + ":" + host_port);
    }

    bool allowed_name(const std::string& host) const {
        if (host == "localhost" || host == "127.0.0.1" || host == "[::1]") return true;
        if (host == settings.host || "[" + settings.host + "]" == host) return true;
        return allowed(host);
    }

    bool allowed(const std::string& name) const {
        return std::find(settings.allowed_hosts.begin(), settings.allowed_hosts.end(), name) != settings.allowed_hosts.end();
    }

    RequestLimits limits() const { return {settings.max_request_games, settings.max_request_plies}; }

    // `mb` of the budget for a request that reads `bytes` of a body or a file (`what`) and
    // answers it, for the response to keep until it is written (the heap is trimmed then).
    // TooLarge when one request may not claim so much; Busy when the searches and requests
    // running leave no room within 2 s.
    std::shared_ptr<MemoryBudget::Claim> claim_reading(double mb, std::uintmax_t bytes, const std::string& what) {
        if (mb > settings.max_request_mb)
            throw TooLarge(fmt::format("{} is {:.1f} MB: reading it would claim {:.0f} MB; a request may claim {} MB "
                                       "(--max-request-mb)",
                                       what, static_cast<double>(bytes) / MB, mb, settings.max_request_mb));
        auto claim = budget.claim(mb, std::chrono::seconds(2));
        if (!claim)
            throw Busy(fmt::format("busy: reading {} needs {:.0f} MB, and the searches and requests running claim {:.0f} of "
                                   "the server's {} MB (--max-memory-mb); try again",
                                   what, mb, budget.claimed_mb(), settings.max_memory_mb));
        return std::make_shared<MemoryBudget::Claim>(std::move(*claim));
    }

    // For a file of the records directory, whose claim `claim_mb` gives by its size.
    std::shared_ptr<MemoryBudget::Claim> claim_file(const std::filesystem::path& path, double (*claim_mb)(std::uintmax_t)) {
        const std::uintmax_t bytes = file_bytes(path);
        return claim_reading(claim_mb(bytes), bytes, fmt::format("'{}'", path.filename().string()));
    }

    void routes() {
        for (const Asset& a : assets()) {
            std::string path = "/";  // (not "/" + name: g++ 12 warns falsely on that, PR 105329)
            if (a.name != "index.html") path += a.name;
            http.get(regex_escaped(path), [a](const http::Request&, http::Response& res) {
                res.set_content(std::string(a.content), std::string(a.mime));
            });
            // Browsers ask for /favicon.ico whatever the page links: the same icon answers.
            if (a.name == "favicon.svg")
                http.get(regex_escaped("/favicon.ico"), [a](const http::Request&, http::Response& res) {
                    res.set_content(std::string(a.content), std::string(a.mime));
                });
        }
        http.get("/api/config", [this](const http::Request&, http::Response& res) {
            nlohmann::json presets = nlohmann::json::array();
            for (const char* p : PagePresets) presets.push_back(p);
            nlohmann::json rules = nlohmann::json::array();
            for (const NamedRuleSet& r : named_rule_sets()) rules.push_back({{"name", r.name}, {"description", r.description}, {"text", to_string(r.rules)}});
            send_json(res, {{"presets", presets},
                            {"variant", settings.variant},
                            {"rules", rules},
                            {"max_searches", settings.max_searches},
                            {"max_request_mb", settings.max_request_mb},
                            {"max_memory_mb", settings.max_memory_mb},
                            {"max_threads", settings.max_threads},
                            {"records", records.has_value()}});
        });
        // Every route that parses a body or a file claims its memory first.
        http.post("/api/game", [this](const http::Request& req, http::Response& res) {
            res.keep = claim_reading(game_claim_mb(req.body.size()), req.body.size(), "the request");
            send_json(res, game_json(game_from_request(parse_body(req), default_rules(), limits())));
        });
        http.post("/api/pgn", [this](const http::Request& req, http::Response& res) {
            res.keep = claim_reading(game_claim_mb(req.body.size()), req.body.size(), "the request");
            send_json(res, {{"pgn", game_pgn(parse_body(req), default_rules(), limits())}});
        });
        http.get("/api/search", [this](const http::Request& req, http::Response& res) { search(req, res); });
        http.get("/api/analysis", [this](const http::Request& req, http::Response& res) { analysis(req, res); });
        // The operator's games (operator_games.hpp): listed, made, read, saved after every move.
        // The operator's games (operator_games.hpp): listed, made, read, saved after every move.
        // A save holds the body's tree, its checked copy and the saved file's: each claimed.
        http.get("/api/operator", [this](const http::Request&, http::Response& res) {
            const std::uintmax_t bytes = games().largest_file_bytes();
            res.keep = claim_reading(game_claim_mb(bytes), bytes, "the operator's games");
            send_json(res, games().list());
        });
        http.post("/api/operator", [this](const http::Request& req, http::Response& res) {
            res.keep = claim_reading(2 * game_claim_mb(req.body.size()), req.body.size(), "the request");
            send_json(res, games().create(parse_body(req), default_rules(), limits()));
        });
        http.get(R"(/api/operator/([^/]+))", [this](const http::Request& req, http::Response& res) {
            const std::uintmax_t bytes = games().file_bytes(req.matches[1]);
            res.keep = claim_reading(game_claim_mb(bytes), bytes, "the operator's game");
            send_json(res, games().load(req.matches[1]));
        });
        http.post(R"(/api/operator/([^/]+))", [this](const http::Request& req, http::Response& res) {
            const std::uintmax_t bytes = games().file_bytes(req.matches[1]);
            res.keep = claim_reading(2 * game_claim_mb(req.body.size()) + game_claim_mb(bytes), req.body.size() + bytes, "the request");
            send_json(res, games().save(req.matches[1], parse_body(req), default_rules(), limits()));
        });
        // {"id"}: the pondering search with that id goes on as the timed search of its move.
        http.post("/api/ponderhit", [this](const http::Request& req, http::Response& res) {
            if (req.body.size() > 256) throw TooLarge("a ponderhit is {\"id\": N}: at most 256 bytes");
            const nlohmann::json body = parse_body(req);
            if (!body.is_object() || !body.contains("id") || !body["id"].is_number_unsigned())
                throw InputError("a ponderhit names its search: {\"id\": N}, N from the search's \"ponder\" event");
            if (!ponders.hit(body["id"].get<std::uint64_t>())) throw NotFound("no search is pondering with that id (it has ended)");
            send_json(res, {{"hit", true}});
        });
        http.get("/api/files", [this](const http::Request&, http::Response& res) { send_json(res, dir().list()); });
        http.get(R"(/api/records/([^/]+))", [this](const http::Request& req, http::Response& res) {
            const std::filesystem::path path = file(req.matches[1]);
            res.keep = claim_file(path, records_claim_mb);
            res.set_content(RecordsDir::records_json(path, limits()), "application/json");
        });
        // A records file the user opened in the page (not one of the directory's).
        http.post("/api/records", [this](const http::Request& req, http::Response& res) {
            res.keep = claim_reading(records_claim_mb(req.body.size()), req.body.size(), "the uploaded file");
            res.set_content(RecordsDir::records_text_json("uploaded file", req.body, limits()), "application/json");
        });
        http.get(R"(/api/match/([^/]+))", [this](const http::Request& req, http::Response& res) {
            const std::filesystem::path path = file(req.matches[1]);
            res.keep = claim_file(path, match_claim_mb);
            send_json(res, RecordsDir::match_json(path));
        });
        http.get(R"(/api/match/([^/]+)/game/([0-9]{1,9}))", [this](const http::Request& req, http::Response& res) {
            const std::filesystem::path path = file(req.matches[1]);
            res.keep = claim_file(path, match_claim_mb);
            send_json(res, RecordsDir::match_game_json(path, std::stoi(req.matches[2])));
        });
        http.get(R"(/api/treesize/([^/]+))", [this](const http::Request& req, http::Response& res) {
            const std::filesystem::path path = file(req.matches[1]);
            res.keep = claim_file(path, match_claim_mb);
            const nlohmann::json j =
                nlohmann::json::parse(common::read_file(path.string(), common::MaxRecordFile, path.filename().string()), nullptr, false);
            if (j.is_discarded() || !j.is_object() || !j.contains("depths"))
                throw InputError(fmt::format("'{}' is not a tree-size result", path.filename().string()));
            send_json(res, j);
        });
    }

    static RuleSet default_rules() { return {}; }

    nlohmann::json parse_body(const http::Request& req) const { return parse_request_json(req.body, limits()); }

    OperatorGames& games() {
        if (!operator_games) throw InputError("no records directory: start the server with --records DIR (the operator's games are saved there)");
        return *operator_games;
    }

    const RecordsDir& dir() const {
        if (!records) throw InputError("no records directory: start the server with --records DIR");
        return *records;
    }

    // 404 for anything that is not a plain file of the records directory.
    std::filesystem::path file(const std::string& name) const {
        const std::optional<std::filesystem::path> path = dir().resolve(name);
        if (!path) throw NotFound(fmt::format("no file '{}' in the records directory", name));
        return *path;
    }

    // A whole game's analysis: one of the searches the server allows (a session lent from the
    // pool, its tables' memory claimed), its worst-case time within --max-search-seconds.
    void analysis(const http::Request& req, http::Response& res) {
        AnalysisRequest request = analysis_request(req.params, default_rules(), limits());
        const std::size_t positions = analysis_positions(request.game);
        if (!request.depth && static_cast<double>(positions) * request.movetime_ms > settings.max_search_ms)
            throw InputError(fmt::format("{} positions at {} ms would take {:.0f} s; an analysis may take {:.0f} s (--max-search-seconds)",
                                         positions, request.movetime_ms, static_cast<double>(positions) * request.movetime_ms / 1000,
                                         settings.max_search_ms / 1000));
        auto shared_request = std::make_shared<AnalysisRequest>(std::move(request));
        stream_on_a_session(res, variant::table_memory_mb(variant::parse_variant(settings.variant)),
                            [this, shared_request](SessionPool::Lease&, const http::StreamWriter& write) {
                                stream_analysis(*shared_request, settings.variant, settings.eval, settings.max_search_ms, write);
                            });
    }

    // A stream that runs on a session lent from the pool, `claim_mb` of the memory budget claimed
    // for its tables; 503 "busy" when every session is searching or the budget is full. The lease
    // moves into the stream: the session returns to the pool when the stream ends.
    void stream_on_a_session(http::Response& res, double claim_mb,
                             std::function<void(SessionPool::Lease&, const http::StreamWriter&)> body) {
        // A session that an aborted search still holds for up to a second is worth waiting for.
        auto lease = pool.acquire(std::chrono::seconds(2), claim_mb);
        if (!lease) {
            send_error(res, 503, fmt::format("busy: {} searches may run at once (--max-searches), and the searches and requests "
                                             "running together claim at most {} MB (--max-memory-mb); {:.0f} MB are claimed now",
                                             pool.size(), settings.max_memory_mb, budget.claimed_mb()));
            return;
        }
        auto held = std::make_shared<SessionPool::Lease>(std::move(*lease));
        res.headers.emplace_back("Cache-Control", "no-cache");
        res.content_type = "text/event-stream";
        res.stream = [held, body = std::move(body)](const http::StreamWriter& write) {
            try {
                body(*held, write);
            } catch (const std::exception& e) {
                // The answer has begun: the failure goes down the stream.
                (void)write(sse_event("error", {{"error", e.what()}}));
            }
        };
    }

    void search(const http::Request& req, http::Response& res) {
        SearchRequest request = search_request(req.params, default_rules());
        const variant::VariantConfig config = variant::parse_variant(request.variant.empty() ? settings.variant : request.variant);
        // One request may not claim more than its share: every thread's evaluation cache counts.
        const double claim = variant::table_memory_mb(config);
        if (claim > settings.max_request_mb)
            throw InputError(fmt::format("this search would claim {}; a request may claim {} MB (--max-request-mb)",
                                         variant::table_memory_text(config), settings.max_request_mb));
        if (config.threads > settings.max_threads)
            throw InputError(fmt::format("threads={}: a request may use {} (--max-threads)", config.threads, settings.max_threads));
        auto shared_request = std::make_shared<SearchRequest>(std::move(request));
        stream_on_a_session(res, claim, [this, shared_request](SessionPool::Lease& lease, const http::StreamWriter& write) {
            stream_search(lease, *shared_request, settings.max_search_ms, write, &ponders);
        });
    }
};

Server::Server(const ServerSettings& settings) {
    if (settings.max_searches < 1 || settings.max_searches > 64) throw InputError("--max-searches must be 1..64");
    if (settings.max_request_mb < 1 || settings.max_memory_mb < settings.max_request_mb)
        throw InputError("--max-request-mb must be at least 1, and --max-memory-mb at least as much");
    if (settings.max_threads < 0 || settings.max_threads > 1024) throw InputError("--max-threads must be 0..1024");
    if (settings.port < 0 || settings.port > 65535) throw InputError("--port must be 0..65535");
    impl_ = std::make_unique<Impl>(settings);
}

Server::~Server() = default;

int Server::bind() {
    Impl& i = *impl_;
    std::string error;
    i.port = i.http.bind(i.settings.host, i.settings.port, error);
    if (i.port <= 0)
        throw InputError(i.settings.port == 0 ? fmt::format("cannot listen on {}: {}", i.settings.host, error)
                                              : fmt::format("cannot listen on {}:{} ({})", i.settings.host, i.settings.port, error));
    return i.port;
}

void Server::serve() { impl_->http.serve(); }

void Server::stop() { impl_->http.stop(); }

}  // namespace matches::web
