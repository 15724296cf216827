#include "matches/web/game_api.hpp"

#include <fmt/format.h>

#include "common/text.hpp"
#include "loa/connectivity.hpp"
#include "loa/error.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "matches/records.hpp"

namespace matches::web {
using namespace ::loa;  // the board speaks the game's types throughout
namespace {

std::string optional_string(const nlohmann::json& request, const char* key, std::string fallback) {
    if (!request.contains(key) || request.at(key).is_null()) return fallback;
    if (!request.at(key).is_string()) throw InputError(fmt::format("'{}' must be a string", key));
    return request.at(key).get<std::string>();
}

std::string_view result_text(Outcome o) {
    switch (o) {
        case Outcome::BlackWins: return "0-1";  // PGN's convention, as in the runner's records
        case Outcome::WhiteWins: return "1-0";
        case Outcome::Draw: return "1/2-1/2";
        case Outcome::Ongoing: return "*";
    }
    return "*";
}

// Counts the values of a JSON text, and stops at the first past the limit: a body is counted
// before it is read into a tree (a tree of 8 MB of "[{},{},...]" took 270 MB).
struct ValueCounter : nlohmann::json_sax<nlohmann::json> {
    explicit ValueCounter(std::size_t max_values) : limit(max_values) {}
    std::size_t limit;
    std::size_t values = 0;

    bool value() { return ++values <= limit; }
    bool null() override { return value(); }
    bool boolean(bool) override { return value(); }
    bool number_integer(number_integer_t) override { return value(); }
    bool number_unsigned(number_unsigned_t) override { return value(); }
    bool number_float(number_float_t, const string_t&) override { return value(); }
    bool string(string_t&) override { return value(); }
    bool binary(binary_t&) override { return value(); }
    bool start_object(std::size_t) override { return value(); }
    bool key(string_t&) override { return true; }
    bool end_object() override { return true; }
    bool start_array(std::size_t) override { return value(); }
    bool end_array() override { return true; }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

void check_plies(std::size_t plies, const RequestLimits& limits) {
    if (plies > limits.plies)
        throw TooLarge(fmt::format("the game has {} plies; a request may hold at most {}", plies, limits.plies));
}

// The moves of a request as views into it (a list, or a string in any move notation): a long
// game is not copied before its length is checked.
std::vector<std::string_view> request_moves(const nlohmann::json& request, const RequestLimits& limits) {
    std::vector<std::string_view> moves;
    if (!request.contains("moves") || request.at("moves").is_null()) return moves;
    const nlohmann::json& given = request.at("moves");
    if (given.is_array()) {
        check_plies(given.size(), limits);
        for (const auto& m : given) {
            if (!m.is_string()) throw InputError("'moves' must hold strings");
            moves.push_back(m.get_ref<const std::string&>());
        }
    } else {
        if (!given.is_string()) throw InputError("'moves' must be a string");
        moves = split_move_list(given.get_ref<const std::string&>());
        check_plies(moves.size(), limits);
    }
    return moves;
}

}  // namespace

nlohmann::json parse_request_json(std::string_view text, const RequestLimits& limits) {
    // The moves, one value each, and the few other fields a request has (and their containers).
    ValueCounter counter(limits.plies + 64);
    if (!nlohmann::json::sax_parse(text, &counter)) {
        if (counter.values > counter.limit)
            throw TooLarge(fmt::format("the request holds more than {} JSON values; a request may hold at most {} plies",
                                       counter.limit, limits.plies));
        throw InputError("the request body is not JSON");
    }
    nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded()) throw InputError("the request body is not JSON");
    return j;
}

Game game_from_request(const nlohmann::json& request, const RuleSet& rules, const RequestLimits& limits) {
    if (!request.is_object()) throw InputError("the request must be a JSON object");
    const std::string start = optional_string(request, "start", "startpos");
    const std::string rule_text = optional_string(request, "rules", "");
    Game game(position_from_argument(start), rule_text.empty() ? rules : parse_rules(rule_text));
    const std::vector<std::string_view> moves = request_moves(request, limits);
    for (std::size_t i = 0; i < moves.size(); ++i) {
        try {
            game.play(moves[i]);
        } catch (const InputError& e) {
            throw InputError(fmt::format("move {} ('{}'): {}", i + 1, moves[i], e.what()));
        }
    }
    return game;
}

nlohmann::json game_json(const Game& game) {
    const Position& pos = game.position();
    nlohmann::json j;
    j["position"] = position_to_text(pos);
    j["start"] = position_to_text(game.start_position());
    j["side_to_move"] = pos.side_to_move() == Colour::Black ? "b" : "w";
    nlohmann::json pieces = nlohmann::json::object();
    for (Square s = 0; s < 64; ++s) {
        if (pos.pieces(Colour::Black) & square_bb(s)) pieces[square_name(s)] = "b";
        if (pos.pieces(Colour::White) & square_bb(s)) pieces[square_name(s)] = "w";
    }
    j["pieces"] = std::move(pieces);
    j["moves"] = nlohmann::json::array();
    for (const Move m : game.moves()) j["moves"].push_back(move_to_text(m));
    j["last_move"] = nullptr;
    if (!game.moves().empty() && !game.moves().back().is_pass())
        j["last_move"] = {{"from", square_name(game.moves().back().from())}, {"to", square_name(game.moves().back().to())}};
    j["legal"] = nlohmann::json::array();
    if (!game.over()) {
        MoveList moves;
        generate_moves(pos, moves);
        for (const Move m : moves) {
            if (m.is_pass()) {
                j["legal"].push_back({{"from", nullptr}, {"to", nullptr}, {"text", "pass"}, {"capture", false}});
                continue;
            }
            j["legal"].push_back({{"from", square_name(m.from())},
                                  {"to", square_name(m.to())},
                                  {"text", move_to_text(m)},
                                  {"capture", m.is_capture()}});
        }
    }
    const GameResult& r = game.result();
    j["over"] = r.over();
    j["result"] = result_text(r.outcome);
    j["winner"] = nullptr;
    if (r.outcome == Outcome::BlackWins) j["winner"] = "b";
    if (r.outcome == Outcome::WhiteWins) j["winner"] = "w";
    j["termination"] = to_string(r.termination);
    j["description"] = describe(r);
    j["connected"] = nlohmann::json::array();
    for (const Colour c : {Colour::Black, Colour::White})
        if (is_connected(pos.pieces(c))) j["connected"].push_back(c == Colour::Black ? "b" : "w");
    j["rules"] = to_string(game.rules());
    return j;
}

OffBoardEnding off_board_ending(const nlohmann::json& object, const std::string& where) {
    OffBoardEnding ending;
    for (auto [key, side] : {std::pair{"time_forfeit", &ending.time_forfeit}, std::pair{"resigned", &ending.resigned}}) {
        *side = optional_string(object, key, "");
        if (!side->empty() && *side != "b" && *side != "w")
            throw InputError(fmt::format("'{}{}' must be \"b\" or \"w\", not '{}'", where, key, common::excerpt(*side, 40)));
    }
    const auto agreed = object.find("draw_agreed");
    if (agreed != object.end() && !agreed->is_null() && !agreed->is_boolean())
        throw InputError(fmt::format("'{}draw_agreed' must be true or false", where));
    ending.draw_agreed = agreed != object.end() && agreed->is_boolean() && agreed->get<bool>();
    if (static_cast<int>(!ending.time_forfeit.empty()) + static_cast<int>(!ending.resigned.empty()) + static_cast<int>(ending.draw_agreed) > 1)
        throw InputError("a game ends once: 'time_forfeit', 'resigned' and 'draw_agreed' exclude each other");
    return ending;
}

std::vector<double> clock_times(const nlohmann::json& object, const char* key, std::size_t moves) {
    const auto clocks = object.find(key);
    if (clocks == object.end() || clocks->is_null()) return {};
    if (!clocks->is_array() || clocks->size() != moves)
        throw InputError(fmt::format("'{}' must be a list of {} times (ms), one a move", key, moves));
    std::vector<double> out;
    for (const nlohmann::json& t : *clocks) {
        if (!t.is_number() || !(t.get<double>() >= 0) || t.get<double>() > 1e11)
            throw InputError(fmt::format("'{}': each time must be a number of milliseconds, 0 or more", key));
        out.push_back(t.get<double>());
    }
    return out;
}

std::string game_pgn(const nlohmann::json& request, const RuleSet& rules, const RequestLimits& limits) {
    const Game game = game_from_request(request, rules, limits);
    matches::GameRecord record;
    record.start = game.start_position();
    record.moves.assign(game.moves().begin(), game.moves().end());
    record.black = optional_string(request, "black", "?");
    record.white = optional_string(request, "white", "?");
    record.date = optional_string(request, "date", "");
    const std::string clock = optional_string(request, "time_control", "");
    if (!clock.empty()) record.black_limit = record.white_limit = "tc=" + clock;
    // Two clocks (the operator's mode sets each side's): BlackLimit and WhiteLimit tags.
    for (auto [key, limit] : {std::pair{"black_time_control", &record.black_limit}, std::pair{"white_time_control", &record.white_limit}}) {
        const std::string side_clock = optional_string(request, key, "");
        if (!side_clock.empty() && !clock.empty()) throw InputError(fmt::format("'time_control' and '{}' exclude each other", key));
        if (!side_clock.empty()) *limit = "tc=" + side_clock;
    }
    record.clock_after_ms = clock_times(request, "clocks", record.moves.size());
    record.opening = "none";
    record.outcome = game.result().outcome;
    record.termination = game.over() ? describe(game.result()) : "unterminated";
    const OffBoardEnding ending = off_board_ending(request);
    const std::string& forfeit = ending.time_forfeit;
    const std::string& resigned = ending.resigned;
    if (!forfeit.empty() && !game.over()) {  // a result by the rules came first
        record.outcome = forfeit == "b" ? Outcome::WhiteWins : Outcome::BlackWins;
        record.termination = forfeit == "b" ? "black loses on time" : "white loses on time";
        record.rules_ending = false;
    }
    // A resignation or an agreed draw (the board's Resign and Offer draw) ends a game the rules
    // had not ended; it is PGN's "normal" termination, its words in the comment.
    if (!game.over() && !resigned.empty()) {
        record.outcome = resigned == "b" ? Outcome::WhiteWins : Outcome::BlackWins;
        record.termination = resigned == "b" ? "black resigns" : "white resigns";
        record.rules_ending = false;
    } else if (!game.over() && ending.draw_agreed) {
        record.outcome = Outcome::Draw;
        record.termination = "draw agreed";
        record.rules_ending = false;
    }
    record.opening_plies = -1;  // no "{end of opening}": every move was played on the board
    if (to_string(game.rules()) != to_string(RuleSet{})) record.rules = to_string(game.rules());
    return matches::records_text({record}, optional_string(request, "event", "web board game"));
}

std::string json_text(const nlohmann::json& j) { return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

}  // namespace matches::web
