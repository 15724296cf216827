#include "matches/datagen.hpp"

#include <algorithm>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/file_lock.hpp"
#include "common/files.hpp"
#include "common/search/score.hpp"
#include "loa/searchers.hpp"
#include "common/splitmix64.hpp"
#include "common/text.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"
#include "matches/file_digest.hpp"
#include "matches/own_files.hpp"
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

// Whether quiescence search at `pos` finds a capture line of the side to move better than
// standing pat: its static evaluation is then not its value, and a net
// trained on it would learn the capture's value as the position's. A searcher of its own, never
// used for a main search, so that its tables (history orders quiescence) stay empty and the
// answer depends on the position alone; at a full window the line is non-empty exactly when the
// value exceeds the stand-pat.
bool quiescence_changes_score(search::Searcher<loa::SearchGame>& quiet, const loa::Position& pos) {
    return !quiet.quiescence_line(pos).first.empty();
}

search::SearchConfig quiescence_config(search::SearchConfig config) {
    config.tt = false;  // quiescence probes neither table: no memory for them
    config.eval_cache = false;
    config.threads = 1;
    return config;
}

// `quiet`: the tactical filter's searcher (nullptr: tactical positions are kept).
PlayedGame play_game_for_data(Player& player, search::Searcher<loa::SearchGame>* quiet, const DatagenSettings& s, int index) {
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
        // A proof from ProvenWinScore on (the solver's win without a distance), as the trainer reads it.
        const bool decisive = std::abs(choice.score) >= search::ProvenWinScore || std::abs(choice.score) > s.max_abs_score;
        if (game.moves().size() < first_kept) {
            ++c.skipped_early;
        } else if (choice.move.is_capture() && !s.keep_captures) {
            ++c.skipped_capture;
        } else if (decisive && !s.keep_decisive) {
            ++c.skipped_decisive;
        } else if (quiet && quiescence_changes_score(*quiet, game.position())) {
            ++c.skipped_tactical;
        } else {
            if (decisive) ++c.kept_decisive;
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
    total.skipped_tactical += g.skipped_tactical;
    total.kept_decisive += g.kept_decisive;
}

// What a data file holds: its complete games, the length of the text they take (what follows,
// a game cut short, is cut off before playing on), and their results and position lines.
struct FileGames {
    int games = 0;
    std::uintmax_t length = 0;
    // > 0: where a whole line after the last complete game begins that no game writes (a note
    // of the user's): such a tail is not a game cut short, and is never cut.
    std::uintmax_t foreign_after = 0;
    int black_wins = 0, white_wins = 0, draws = 0;
    std::uint64_t positions = 0;
};

// Whether `line` is a position line of a game ("position | score | move | result").
bool is_position_line(const std::string& line) {
    try {
        (void)parse_training_line(line);
        return true;
    } catch (const InputError&) {
        return false;
    }
}

// The complete games of an existing file made with `header` whose first game is number
// first_game + 1. Throws when the file is not such a file.
FileGames complete_games(const std::string& path, const std::string& header, int first_game) {
    common::FileReader reader(path, common::MaxRecordFile, "datagen");
    std::istream& in = reader.stream();
    std::string line;
    const bool read_header = static_cast<bool>(std::getline(in, line));
    if (read_header && line == header && in.eof())  // the header without its newline: a file cut while it began
        throw InputError(fmt::format("datagen: '{}' holds only a torn header: remove it to start again", path));
    if (read_header && line != header && line.starts_with("# loa-match datagen 1:"))
        throw InputError(fmt::format("datagen: '{}' is a data file of datagen's first version (before the tactical filter): this "
                                     "version does not resume it; choose another --out",
                                     path));
    if (!read_header || line != header)
        throw InputError(fmt::format("datagen: '{}' is not a data file of these settings (its first line is '{}'; "
                                     "these settings write '{}'): choose another --out, or the same settings to resume it",
                                     path, line.substr(0, 200), header));
    FileGames f;
    f.length = line.size() + 1;
    std::uintmax_t at = f.length;
    std::uint64_t positions = 0;  // of the games complete so far and the one going on
    while (std::getline(in, line)) {
        at += line.size() + 1;
        if (in.eof()) break;  // a last line without its newline: cut short
        if (line.starts_with("# end ")) {
            const auto space = line.find(' ', 6);
            const auto number = common::parse_int(line.substr(6, space - 6));
            if (!number || *number != first_game + f.games + 1)
                throw InputError(fmt::format("datagen: '{}': game {} ends out of order ('{}')", path, first_game + f.games + 1, line));
            const std::string black = space == std::string::npos ? std::string() : line.substr(space + 1);
            if (black == "1") ++f.black_wins;
            else if (black == "0") ++f.white_wins;
            else if (black == "0.5") ++f.draws;
            else throw InputError(fmt::format("datagen: '{}': game {} ends without a result ('{}')", path, *number, line));
            ++f.games;
            f.length = at;
            f.positions = positions;
        } else if (!line.starts_with("#")) {
            ++positions;
            if (!is_position_line(line)) f.foreign_after = at - line.size() - 1;
        } else if (!line.starts_with("# game ")) {
            f.foreign_after = at - line.size() - 1;
        }
        if (f.foreign_after && f.foreign_after < f.length) f.foreign_after = 0;  // (a game's line: none)
    }
    reader.check();
    return f;
}

}  // namespace

std::string datagen_header(const DatagenSettings& s) {
    return fmt::format("# loa-match datagen 2: engine '{}' ({}), eval {}, rps {}, openings {} ({}), random-plies {}, seed {}, "
                       "skip-plies {}, captures {}, tactical {}, max-score {}, max-plies {}, rules {}",
                       s.engine.text, s.engine.limit_text(), file_fingerprint(s.engine.eval), file_fingerprint(s.engine.rps),
                       s.openings_name, openings_digest(s.openings), s.random_plies, s.seed, s.skip_plies,
                       s.keep_captures ? "kept" : "skipped", s.keep_tactical ? "kept" : "skipped", s.max_abs_score, s.max_plies,
                       loa::to_string(s.rules)) +
           // Named only when kept, so that the files made before the option keep their header.
           (s.keep_decisive ? ", decisive kept" : "") +
           (s.part ? fmt::format(", part: games {}-{}", s.first_game + 1, s.games) : std::string());
}

void check_datagen_settings(const DatagenSettings& s) {
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
    if (!s.keep_tactical && s.engine.config.algorithm != variant::Algorithm::AlphaBeta)
        throw InputError(fmt::format("datagen: engine '{}' is MCTS, and the tactical filter runs the alpha-beta quiescence "
                                     "search: give --keep-tactical",
                                     s.engine.text));
    if (s.keep_decisive && s.engine.config.algorithm != variant::Algorithm::AlphaBeta)
        throw InputError(fmt::format("datagen: engine '{}' is MCTS, whose scores reach 29871 without a proof: --keep-decisive "
                                     "needs an alpha-beta engine, where a score that far is one",
                                     s.engine.text));
    if (!s.keep_tactical && s.engine.config.qsearch == 0)
        throw InputError(fmt::format("datagen: engine '{}' has no quiescence search (qsearch=off), so the tactical filter would "
                                     "leave nothing out: give --keep-tactical",
                                     s.engine.text));
    if (s.openings.empty()) throw InputError("datagen: no openings");
    if (s.games < 1 || s.random_plies < 0 || s.skip_plies < 0 || s.threads < 1 || s.max_plies < 1)
        throw InputError("datagen: games, threads and max-plies must be positive, random-plies and skip-plies not negative");
    if (s.part ? s.first_game < 0 || s.first_game >= s.games : s.first_game != 0)
        throw InputError(fmt::format("datagen: a part holds games first+1 .. games, at least one (first {}, games {})", s.first_game,
                                     s.games));
}

DatagenCounts generate_training_data(const DatagenSettings& s, const std::string& path) {
    check_datagen_settings(s);
    const std::string header = datagen_header(s);
    const common::FileLock claim(path);  // no other run appends to it (or cuts it) meanwhile
    DatagenCounts total;
    int first = s.first_game;
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (std::filesystem::exists(status)) {
        if (!std::filesystem::is_regular_file(status))
            throw InputError(fmt::format("datagen: '{}' is not a regular file: the data goes to a file of its own", path));
        const FileGames held = complete_games(path, header, s.first_game);
        const int games = held.games;
        const std::uintmax_t length = held.length;
        const auto size = std::filesystem::file_size(path);
        if (length > size) throw InputError(fmt::format("datagen: '{}' changed while it was read", path));
        first = s.first_game + games;
        total.resumed_games = games;
        if (first >= s.games) return total;  // nothing to play: the file stays as it is, to the byte
        // What follows the last complete game is cut before playing on only when it is a game
        // cut short (this program's lines); text of the user's there is never cut.
        if (held.foreign_after > 0)
            throw InputError(fmt::format("datagen: '{}' holds lines after its last complete game (from byte {}) that no game "
                                         "writes: move them out of the file to go on",
                                         path, held.foreign_after));
        if (size != length) common::truncate_file(path, length);
    } else {
        // Created whole or not at all (a temporary linked into place): a full disk leaves no
        // empty file that the same command would refuse, and a file that appeared meanwhile is
        // someone else's.
        common::create_file(path, header + '\n');
    }
    if (first >= s.games) return total;

    // Games finish out of order over the threads; each is written once every game before it is.
    std::mutex lock;
    std::map<int, PlayedGame> finished;
    int next_to_write = first;
    bool write_failed = false;  // after a failed write nothing more is written: no game may be missing in between
    const int threads = std::min(s.threads, s.games - first);  // each thread holds an engine and its tables
    // The filter's evaluation, read once (a copy shares the network, with a stack of its own).
    std::optional<loa::SearchGame> filter_game;
    if (!s.keep_tactical) filter_game.emplace(loa::SearchGame::from_spec(s.rules, s.engine.eval, s.engine.rps));
    parallel_for(static_cast<std::size_t>(s.games - first), threads, [&] {
        auto player = std::make_shared<InProcessPlayer>(s.engine, s.rules);
        std::shared_ptr<search::Searcher<loa::SearchGame>> quiet;
        if (filter_game) quiet = std::make_shared<search::Searcher<loa::SearchGame>>(*filter_game, quiescence_config(s.engine.config));
        return [&, player, quiet](std::size_t i) {
            const int index = first + static_cast<int>(i);
            if (s.stop && s.stop->load()) {
                const std::lock_guard guard(lock);
                total.interrupted = true;
                return;
            }
            PlayedGame game = play_game_for_data(*player, quiet.get(), s, index);
            const std::lock_guard guard(lock);
            if (write_failed) return;
            finished.emplace(index, std::move(game));
            std::string text;
            int next = next_to_write;
            for (auto it = finished.find(next); it != finished.end(); it = finished.find(++next)) text += it->second.text;
            if (text.empty()) return;
            try {
                common::append_to_file(path, text);  // on failure the file is cut back to its games before
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

int datagen_games_in(const DatagenSettings& s, const std::string& path) {
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (!std::filesystem::exists(status)) return 0;
    if (!std::filesystem::is_regular_file(status))
        throw InputError(fmt::format("datagen: '{}' is not a regular file: the data goes to a file of its own", path));
    return complete_games(path, datagen_header(s), s.part ? s.first_game : 0).games;
}

namespace {


}  // namespace

JoinedParts join_datagen_parts(const DatagenSettings& whole, const std::vector<std::string>& parts, const std::string& out) {
    if (whole.part) throw InputError("datagen: parts are joined into a whole run's file");
    // Renaming over a link would replace the link, not the file it names.
    if (std::filesystem::is_symlink(out))
        throw InputError(fmt::format("datagen: '{}' is a symbolic link: give the file it names as --out", out));
    const std::string header = datagen_header(whole);
    int next = datagen_games_in(whole, out);  // (refuses what is not a regular data file of these settings)
    const bool out_exists = std::filesystem::exists(out);
    const std::uintmax_t kept = out_exists ? complete_games(out, header, 0).length : 0;  // the bytes of its complete games
    struct Piece {
        std::string path;
        std::uintmax_t from, to;  // the bytes of its games
    };
    std::vector<Piece> pieces;
    JoinedParts joined;
    const std::string part_prefix = header + ", part: games ";
    for (const std::string& path : parts) {
        const std::string head = common::file_head(path);
        const std::string first_line = head.substr(0, head.find('\n'));
        if (head.find('\n') == std::string::npos) throw InputError(fmt::format("datagen: cannot read the part '{}'", path));
        // "<header>, part: games A-B": A must follow the games before it.
        int last = 0;
        if (first_line.starts_with(part_prefix)) {
            const std::string range = first_line.substr(part_prefix.size());
            const auto dash = range.find('-');
            const auto a = common::parse_int(range.substr(0, dash));
            const auto b = dash == std::string::npos ? std::nullopt : common::parse_int(range.substr(dash + 1));
            if (a && b) last = *b;
            if (a && *a != next + 1)
                throw InputError(fmt::format("datagen: the part '{}' begins at game {}, where game {} was due", path, *a, next + 1));
        }
        DatagenSettings p = whole;
        p.part = true;
        p.first_game = next;
        p.games = last;
        if (last <= next || first_line != datagen_header(p))
            throw InputError(fmt::format("datagen: '{}' is not a part of these settings (its first line is '{}')", path,
                                         first_line.substr(0, 200)));
        const FileGames held = complete_games(path, first_line, next);
        if (held.games != last - next)
            throw InputError(fmt::format("datagen: the part '{}' holds {} of its {} games", path, held.games, last - next));
        pieces.push_back({path, first_line.size() + 1, held.length});
        joined.part_games += held.games;
        joined.black_wins += held.black_wins;
        joined.white_wins += held.white_wins;
        joined.draws += held.draws;
        joined.positions += held.positions;
        next = last;
    }
    if (next != whole.games)
        throw InputError(fmt::format("datagen: the parts end at game {}, the run at game {}", next, whole.games));

    // Written beside `out` under a name of its own (the caller holds the lock on `out`, so a
    // file there that begins with this run's header was left by a join that was killed), then
    // renamed over it; the directory synced before the parts may go.
    const std::string temporary = out + ".joining";
    if (std::filesystem::exists(std::filesystem::symlink_status(temporary))) {
        const std::string head = common::file_head(temporary);
        if (common::is_symbolic_link(temporary) || common::names_a_special_file(temporary) || head.substr(0, head.find('\n')) != header)
            throw InputError(fmt::format("datagen: '{}' is in the way of joining the parts (it is no file of this run's): move it", temporary));
        std::filesystem::remove(temporary);  // a killed join's
    }
    common::FileWriter joined_file(out, temporary);
    if (out_exists) {
        joined_file.copy_from(out, 0, kept);
        joined_file.keep_permissions_of(out);  // the file keeps its permissions
    } else {
        joined_file.write(header + '\n');
    }
    for (const Piece& piece : pieces) joined_file.copy_from(piece.path, piece.from, piece.to);
    // Renamed over `out` (a data file of these settings: checked above), the directory synced
    // before the parts may go.
    joined_file.commit({"a datagen file of these settings", [&](std::string_view h) { return h.starts_with(header + "\n"); }});
    joined.games = next;
    return joined;
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
