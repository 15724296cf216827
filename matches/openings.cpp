#include "matches/openings.hpp"

#include <cmath>
#include <cerrno>
#include <random>
#include <set>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/files.hpp"
#include "common/fnv1a.hpp"
#include "loa/searchers.hpp"
#include "common/text.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "loa/symmetry.hpp"
#include "matches/records.hpp"

namespace matches {

loa::Game start_game(const Opening& opening, const loa::RuleSet& rules) {
    loa::Game game(opening.start, rules);
    for (const loa::Move m : opening.moves) game.play(m);
    return game;
}

namespace {

// Openings from game records (PGN, such as --pgn writes): each game's start position and its
// moves up to its "{end of opening}" comment, or all of them (a book of opening lines).
std::vector<Opening> openings_of_records(std::istream& in, const std::string& path, const loa::RuleSet& rules) {
    std::vector<Opening> out;
    std::vector<ParsedRecord> records;
    try {
        records = read_records(in);
    } catch (const common::InputError& e) {
        throw common::InputError(fmt::format("openings: {}: {}", path, e.what()));
    }
    for (std::size_t i = 0; i < records.size(); ++i) {
        const ParsedRecord& r = records[i];
        Opening o;
        o.label = fmt::format("{}:game {}", path, i + 1);
        try {
            o.start = loa::parse_position(r.start_text());
            loa::Game game(o.start, rules);
            const std::size_t plies = r.opening_plies >= 0 ? static_cast<std::size_t>(r.opening_plies) : r.moves.size();
            for (std::size_t k = 0; k < plies && k < r.moves.size(); ++k) o.moves.push_back(game.play(r.moves[k]));
            if (start_game(o, rules).over())
                throw common::InputError("the game is already over (mark where its opening ends with {end of opening})");
        } catch (const common::InputError& e) {
            throw common::InputError(fmt::format("openings: {} game {}: {}", path, i + 1, e.what()));
        }
        // The runner's records hold each opening twice (a pair: both colours): once is enough.
        if (!out.empty() && out.back().start == o.start && out.back().moves == o.moves) continue;
        out.push_back(std::move(o));
    }
    return out;
}

}  // namespace

std::vector<Opening> load_openings(const std::string& path, const loa::Position& start, const loa::RuleSet& rules) {
    // A regular file only, within its cap: a FIFO or /dev/zero named as the openings is refused
    // at once (it once hung the run, or grew to gigabytes).
    std::istringstream in(common::read_file(path, common::MaxListFile, "openings"));
    std::vector<Opening> out;
    std::string line;
    // A PGN file starts with a tag: read it as game records.
    while (in >> std::ws && in.peek() == '#') std::getline(in, line);
    if (in.peek() == '[') {
        out = openings_of_records(in, path, rules);
        if (out.empty()) throw common::InputError(fmt::format("openings: '{}' holds no opening", path));
        return out;
    }
    in.clear();
    in.seekg(0);
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string_view text = common::trim(line);
        if (text.empty() || text.front() == '#') continue;
        Opening o;
        o.label = fmt::format("{}:{}", path, number);
        try {
            if (text.find('/') != std::string_view::npos) {
                o.start = loa::parse_position(text);
            } else {
                o.start = start;
                loa::Game game(start, rules);
                for (const std::string_view m : loa::split_move_list(text)) o.moves.push_back(game.play(m));
            }
            if (start_game(o, rules).over()) throw common::InputError("the game is already over");
        } catch (const common::InputError& e) {
            throw common::InputError(fmt::format("openings: {} line {}: {}", path, number, e.what()));
        }
        out.push_back(std::move(o));
    }
    if (out.empty()) throw common::InputError(fmt::format("openings: '{}' holds no opening", path));
    return out;
}

std::vector<Opening> generate_openings(const OpeningGenerator& g, const loa::Position& start, const loa::RuleSet& rules) {
    std::vector<Opening> out;
    std::mt19937_64 rng(g.seed);
    // Full width at the frontier: the judge reports the value it keeps a position by, and a
    // margin's pruning would bend that value to save time the judge does not need to save.
    search::Searcher<loa::SearchGame> judge(loa::SearchGame(rules), variant::parse_variant("full,tt=1,futility=off,ext_futility=off,razoring=off"));
    std::set<loa::Key> seen;  // distinct openings only
    const int max_plies = std::max(g.plies, g.max_plies);
    auto identity = [&](const loa::Position& p) {
        loa::Key key = p.key();
        if (g.distinct_under_symmetry)
            for (int k = 1; k < 4; ++k) key = std::min(key, loa::transform(p, k).key());
        return key;
    };
    int attempt = 0;
    for (; static_cast<int>(out.size()) < g.count; ++attempt) {
        if (attempt > 100 * g.count + 1000)
            throw common::InputError(fmt::format("openings: found only {} balanced openings of {} plies (score limit {})",
                                                 out.size(), g.plies, g.max_abs_score));
        const int plies = max_plies == g.plies ? g.plies : std::uniform_int_distribution<int>(g.plies, max_plies)(rng);
        Opening o;
        o.start = start;
        loa::Game game(start, rules);
        while (game.ply() < plies && !game.over()) {
            const loa::MoveList moves = loa::legal_moves(game.position());
            const loa::Move m = moves[std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng)];
            game.play(m);
            o.moves.push_back(m);
        }
        if (game.over() || seen.contains(identity(game.position()))) continue;
        judge.new_game();
        search::SearchLimits limits;
        limits.depth = g.balance_depth;
        const auto r = judge.search(game.position(), limits, loa::search_history(game));
        if (std::abs(r.score) > g.max_abs_score) continue;
        seen.insert(identity(game.position()));
        o.label = fmt::format("random {} plies #{} (score {})", plies, out.size() + 1, r.score);
        out.push_back(std::move(o));
        if (g.on_progress) g.on_progress(static_cast<int>(out.size()), attempt + 1);
    }
    return out;
}

std::string openings_file_text(const std::vector<Opening>& openings, const std::vector<std::string>& header) {
    std::string out;
    for (const std::string& line : header) out += "# " + line + "\n";
    for (const Opening& o : openings) {
        for (std::size_t i = 0; i < o.moves.size(); ++i) {
            if (i) out += ' ';
            out += loa::move_to_text(o.moves[i]);
        }
        out += '\n';
    }
    return out;
}

std::string openings_digest(const std::vector<Opening>& openings) {
    // FNV-1a over each opening's start position and moves, in the order they are played: the
    // same on every machine and build (std::hash is neither).
    std::uint64_t h = common::Fnv1aStart;
    auto mix = [&h](std::string_view text) {
        h = common::fnv1a("\xff", common::fnv1a(text, h));  // then a separator no text contains
    };
    for (const Opening& o : openings) {
        mix(loa::position_to_text(o.start));
        for (const loa::Move m : o.moves) mix(loa::move_to_text(m));
    }
    return fmt::format("{} openings, fnv1a {:016x}", openings.size(), h);
}

}  // namespace matches
