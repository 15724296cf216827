#include "matches/datagen.hpp"

#include <algorithm>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/splitmix64.hpp"
#include "common/search/score.hpp"
#include "common/text.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "matches/checked_file.hpp"
#include "matches/file_digest.hpp"
#include "matches/file_lock.hpp"
#include "matches/parallel.hpp"
#include "matches/player.hpp"

namespace matches {
namespace {

using common::InputError;

using common::splitmix64;

const char* result_text(double r) { return r == 1 ? "1" : r == 0 ? "0" : "0.5"; }

struct PlayedGame {
    std::string text;  // "# game N" ... "# end N <result>", each line ending in '\n'
    DatagenCounts counts;  // of this game alone
};

// The opening, then the random plies: drawn again (from the same stream) when they end the game.
loa::Game game_after_random_plies(const DatagenSettings& s, int index, std::mt19937_64& rng) {
    const Opening& opening = s.openings[static_cast<std::size_t>(index) % s.openings.size()];
    for (int attempt = 0; attempt < 1000; ++attempt) {
        loa::Game game = start_game(opening, s.rules);
        for (int i = 0; i < s.random_plies && !game.over(); ++i) {
            loa::MoveList moves;
            loa::generate_moves(game.position(), moves);
            game.play(moves[static_cast<std::size_t>(rng() % moves.size())]);
        }
        if (!game.over()) return game;
    }
    throw InputError(fmt::format("datagen: opening {} ('{}') ends within {} random plies every time", index % s.openings.size() + 1,
                                 opening.label, s.random_plies));
}

PlayedGame play_game_for_data(Player& player, const DatagenSettings& s, int index) {
    std::mt19937_64 rng(splitmix64(s.seed ^ splitmix64(static_cast<std::uint64_t>(index) + 1)));
    loa::Game game = game_after_random_plies(s, index, rng);
    const std::size_t first_kept = game.moves().size() + static_cast<std::size_t>(s.skip_plies);
    player.new_game();
    struct Kept {
        std::string line;  // without the result
        loa::Colour side;
    };
    std::vector<Kept> kept;
    PlayedGame out;
    DatagenCounts& c = out.counts;
    while (!game.over() && game.moves().size() < static_cast<std::size_t>(s.max_plies)) {
        const MoveChoice choice = player.choose(game, ClockState{});
        if (!choice.failure.empty()) throw InputError(fmt::format("datagen: game {}: {}", index + 1, choice.failure));
        ++c.positions;
        const bool decisive = std::abs(choice.score) >= search::WinThreshold || std::abs(choice.score) > s.max_abs_score;
        if (game.moves().size() < first_kept) {
            ++c.skipped_early;
        } else if (choice.move.is_capture() && !s.keep_captures) {
            ++c.skipped_capture;
        } else if (decisive) {
            ++c.skipped_decisive;
        } else {
            kept.push_back({fmt::format("{} | {} | {}", game.position().to_text(), choice.score, loa::move_to_text(choice.move)),
                            game.position().side_to_move()});
        }
        game.play(choice.move);
    }
    loa::Outcome outcome = game.result().outcome;
    if (!game.over()) {  // the ply cap: a draw
        outcome = loa::Outcome::Draw;
        ++c.adjudicated;
    }
    ++c.games;
    if (outcome == loa::Outcome::BlackWins) ++c.black_wins;
    if (outcome == loa::Outcome::WhiteWins) ++c.white_wins;
    if (outcome == loa::Outcome::Draw) ++c.draws;
    auto result_for = [&](loa::Colour side) {
        if (outcome == loa::Outcome::Draw) return 0.5;
        return (outcome == loa::Outcome::BlackWins) == (side == loa::Colour::Black) ? 1.0 : 0.0;
    };
    out.text = fmt::format("# game {}\n", index + 1);
    for (const Kept& k : kept) out.text += fmt::format("{} | {}\n", k.line, result_text(result_for(k.side)));
    out.text += fmt::format("# end {} {}\n", index + 1, result_text(result_for(loa::Colour::Black)));
    c.written = kept.size();
    return out;
}

void add(DatagenCounts& total, const DatagenCounts& g) {
    total.games += g.games;
    total.black_wins += g.black_wins;
    total.white_wins += g.white_wins;
    total.draws += g.draws;
    total.adjudicated += g.adjudicated;
    total.positions += g.positions;
    total.written += g.written;
    total.skipped_early += g.skipped_early;
    total.skipped_capture += g.skipped_capture;
    total.skipped_decisive += g.skipped_decisive;
}

// The complete games of an existing file made with `header`, and the length of the text they
// take (what follows, a game cut short, is cut off before playing on). Throws when the file is
// not such a file.
std::pair<int, std::uintmax_t> complete_games(const std::string& path, const std::string& header) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError(fmt::format("datagen: cannot read '{}'", path));
    std::string line;
    const bool read_header = static_cast<bool>(std::getline(in, line));
    if (read_header && line == header && in.eof())  // the header without its newline: a file cut while it began
        throw InputError(fmt::format("datagen: '{}' holds only a torn header: remove it to start again", path));
    if (!read_header || line != header)
        throw InputError(fmt::format("datagen: '{}' is not a data file of these settings (its first line is '{}'; "
                                     "these settings write '{}'): choose another --out, or the same settings to resume it",
                                     path, line.substr(0, 200), header));
    std::uintmax_t end = line.size() + 1;
    std::uintmax_t at = end;
    int games = 0;
    while (std::getline(in, line)) {
        at += line.size() + 1;
        if (in.eof()) break;  // a last line without its newline: cut short
        if (line.starts_with("# end ")) {
            const auto number = common::parse_int(line.substr(6, line.find(' ', 6) - 6));
            if (!number || *number != games + 1)
                throw InputError(fmt::format("datagen: '{}': game {} ends out of order ('{}')", path, games + 1, line));
            ++games;
            end = at;
        }
    }
    return {games, end};
}

}  // namespace

std::string datagen_header(const DatagenSettings& s) {
    return fmt::format("# loa-match datagen 1: engine '{}' ({}), eval {}, rps {}, openings {} ({}), random-plies {}, seed {}, "
                       "skip-plies {}, captures {}, max-score {}, max-plies {}, rules {}",
                       s.engine.text, s.engine.limit_text(), file_fingerprint(s.engine.eval), file_fingerprint(s.engine.rps),
                       s.openings_name, openings_digest(s.openings), s.random_plies, s.seed, s.skip_plies,
                       s.keep_captures ? "kept" : "skipped", s.max_abs_score, s.max_plies, loa::to_string(s.rules));
}

DatagenCounts generate_training_data(const DatagenSettings& s, const std::string& path) {
    if (s.engine.external()) throw InputError("datagen: the engine must be in-process (no cmd=): its searches are the data");
    // Only a fixed budget on one thread gives the same data every run: a time limit depends on
    // the machine's load, and threads searching one table on their timing.
    if ((s.engine.depth <= 0 && s.engine.nodes == 0) || s.engine.move_time_ms > 0 || s.engine.time_control)
        throw InputError(fmt::format("datagen: engine '{}' needs a fixed budget, depth= or nodes=, and no time limit (st=, tc=): "
                                     "time makes the data depend on the machine's load",
                                     s.engine.text));
    if (s.engine.config.threads != 1)
        throw InputError(fmt::format("datagen: engine '{}' searches on {} threads, whose timing changes its moves: use -j for "
                                     "games at once",
                                     s.engine.text, s.engine.config.threads));
    if (s.openings.empty()) throw InputError("datagen: no openings");
    if (s.games < 1 || s.random_plies < 0 || s.skip_plies < 0 || s.threads < 1 || s.max_plies < 1)
        throw InputError("datagen: games, threads and max-plies must be positive, random-plies and skip-plies not negative");
    const std::string header = datagen_header(s);
    const FileLock claim(path);  // no other run appends to it (or cuts it) meanwhile
    DatagenCounts total;
    int first = 0;
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (std::filesystem::exists(status)) {
        if (!std::filesystem::is_regular_file(status))
            throw InputError(fmt::format("datagen: '{}' is not a regular file: the data goes to a file of its own", path));
        const auto [games, length] = complete_games(path, header);
        const auto size = std::filesystem::file_size(path);
        if (length > size) throw InputError(fmt::format("datagen: '{}' changed while it was read", path));
        if (size != length) std::filesystem::resize_file(path, length);  // a game cut short (this program's file: the header says so)
        first = games;
        total.resumed_games = games;
    } else {
        // Created exclusively: a file that appeared meanwhile is someone else's.
        errno = 0;
        std::FILE* created = std::fopen(path.c_str(), "wx");
        if (!created) throw InputError(fmt::format("datagen: cannot create '{}': {}", path, common::last_system_error()));
        std::fclose(created);
        append_to_file(path, header + '\n');
    }
    if (first >= s.games) return total;

    // Games finish out of order over the threads; each is written once every game before it is.
    std::mutex lock;
    std::map<int, PlayedGame> finished;
    int next_to_write = first;
    bool write_failed = false;  // after a failed write nothing more is written: no game may be missing in between
    const int threads = std::min(s.threads, s.games - first);  // each thread holds an engine and its tables
    parallel_for(static_cast<std::size_t>(s.games - first), threads, [&] {
        auto player = std::make_shared<InProcessPlayer>(s.engine, s.rules);
        return [&, player](std::size_t i) {
            const int index = first + static_cast<int>(i);
            PlayedGame game = play_game_for_data(*player, s, index);
            const std::lock_guard guard(lock);
            if (write_failed) return;
            finished.emplace(index, std::move(game));
            std::string text;
            int next = next_to_write;
            for (auto it = finished.find(next); it != finished.end(); it = finished.find(++next)) text += it->second.text;
            if (text.empty()) return;
            try {
                append_to_file(path, text);  // on failure the file is cut back to its games before
            } catch (...) {
                write_failed = true;
                throw;
            }
            // Counted once written.
            for (; next_to_write < next; ++next_to_write) {
                add(total, finished.at(next_to_write).counts);
                finished.erase(next_to_write);
            }
            if (s.on_progress) s.on_progress(next_to_write, total.written);
        };
    });
    return total;
}

TrainingPosition parse_training_line(const std::string& line) {
    std::vector<std::string> fields;
    for (const std::string_view field : common::split(line, '|')) fields.emplace_back(common::trim(field));
    if (fields.size() != 4) throw InputError(fmt::format("training data: {} fields, expected 4 ('{}')", fields.size(), line));
    TrainingPosition p;
    p.position = fields[0];
    (void)loa::parse_position(p.position);  // throws on a bad one
    const auto score = common::parse_int(fields[1]);
    if (!score) throw InputError(fmt::format("training data: bad score '{}'", fields[1]));
    p.score = *score;
    p.move = fields[2];
    if (fields[3] == "1") p.result = 1;
    else if (fields[3] == "0") p.result = 0;
    else if (fields[3] == "0.5") p.result = 0.5;
    else throw InputError(fmt::format("training data: bad result '{}' (1, 0.5 or 0)", fields[3]));
    return p;
}

}  // namespace matches
