// `loa analyze-game GAME.pgn`: the engine over every position of each game of a PGN file, the
// games written back annotated (loa/game_analysis.hpp, docs/commands.md#loa-analyze-game).
#include <unistd.h>

#include <cstdio>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "common/cli_checks.hpp"
#include "common/files.hpp"
#include "common/variant/config.hpp"
#include "loa/cli/commands.hpp"
#include "loa/error.hpp"
#include "loa/game_analysis.hpp"
#include "loa/pgn.hpp"
#include "loa/position_text.hpp"
#include "loa/search_game.hpp"

namespace loa::cli {
namespace {

// What replaces an --out file: only a record this command wrote (its Annotator tag).
constexpr std::string_view AnnotatorPrefix = "loa analyze-game";

// A record's game under its own rules: its [Rules] tag (the web board's records say the rules they
// were played by), else --rules, else the Computer Olympiad's.
Game replayed(const ParsedRecord& record, const std::string& rules_option, std::size_t number) {
    try {
        const auto tag = record.tags.find("Rules");
        const RuleSet rules = tag != record.tags.end()  ? parse_rules(tag->second)
                              : !rules_option.empty() ? parse_rules(rules_option)
                                                      : RuleSet{};
        Game game(Position::from_text(record.start_text()), rules);
        for (const std::string& move : record.moves) game.play(move);
        return game;
    } catch (const InputError& e) {
        throw InputError(fmt::format("game {}: {}", number, e.what()));
    }
}

}  // namespace

void add_analyze_game_command(CLI::App& app) {
    struct Options {
        std::string file;
        std::string out;
        std::size_t game = 0;
        std::string variant = "full";
        std::string eval = std::string(DefaultEval);
        std::string rules;
        int depth = 0;
        double movetime = 0;
        std::uint64_t nodes = 0;
        bool quiet = false;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand(
        "analyze-game",
        "Analyse every move of the games of a PGN file at a fixed budget a position, and write them back annotated: the "
        "score after each move ([%eval]), and inaccuracies, mistakes and blunders ($6, $2, $4) with the engine's move");
    cmd->add_option("file", o->file, "PGN file (loa-match's records, the web board's, any LOA PGN)")->required();
    cmd->add_option("-o,--out", o->out,
                    "Write the annotated games here (default: standard output); an existing file is replaced, whole, "
                    "only if this command wrote it");
    cmd->add_option("-g,--game", o->game, "Only the game with this number (1 = the file's first)")->check(CLI::PositiveNumber);
    cmd->add_option("-t,--movetime", o->movetime, "Search time a position in milliseconds (default 100, or 1.5s, 250ms)")
        ->transform(common::milliseconds());
    cmd->add_option("-n,--nodes", o->nodes, "Node budget a position (the same annotations every run)")->check(common::positive_number());
    cmd->add_option("-d,--depth", o->depth, "Depth a position (the same annotations every run)")->check(CLI::Range(1, 100));
    cmd->add_option("-v,--variant", o->variant, "Search variant (see 'loa variants')")->capture_default_str();
    cmd->add_option("--eval", o->eval, "Evaluation: nnue (the shipped network), hce (the hand-written one), a .nnue or weights file")
        ->capture_default_str();
    cmd->add_option("-r,--rules", o->rules, "Rules of the games whose record has no [Rules] tag (default olympiad)");
    cmd->add_flag("-q,--quiet", o->quiet, "No progress lines on standard error");
    cmd->callback([o] {
        common::FileReader reader(o->file, common::MaxRecordFile, "game record");
        std::vector<ParsedRecord> records;
        try {
            records = read_records(reader.stream(), Variations::Skip);
        } catch (const InputError& e) {
            throw InputError(fmt::format("{}: {}", o->file, e.what()));
        }
        reader.check();  // its messages name the file
        if (records.empty()) throw InputError(fmt::format("{}: no game in the file", o->file));
        if (o->game > records.size())
            throw InputError(fmt::format("{}: no game {} (the file holds {})", o->file, o->game, records.size()));
        const std::size_t first = o->game ? o->game - 1 : 0, last = o->game ? o->game : records.size();
        // Every game replayed before any is analysed: a bad one fails at once, naming itself.
        std::vector<Game> games;
        for (std::size_t g = first; g < last; ++g) games.push_back(replayed(records[g], o->rules, g + 1));

        AnalysisSettings settings;
        settings.variant = o->variant;
        settings.eval = o->eval;
        settings.limits.depth = o->depth;
        settings.limits.nodes = o->nodes;
        settings.limits.hard_time_ms = o->movetime;
        if (!o->depth && !o->nodes && o->movetime <= 0) settings.limits.hard_time_ms = 100;
        (void)variant::alpha_beta(variant::parse_variant(o->variant));  // MCTS: refused here, with why
        const std::string budget = o->depth ? fmt::format("depth {}", o->depth)
                                   : o->nodes ? fmt::format("{} nodes", o->nodes)
                                              : fmt::format("{} ms", settings.limits.hard_time_ms);
        const std::string annotator = fmt::format("{} ({}, {} a position, eval {}, win chances sigmoid({} x score))",
                                                  AnnotatorPrefix, o->variant, budget, o->eval, settings.k);

        // Written game by game: to standard output, or to a temporary beside --out that
        // replaces it (only a file this command wrote) once every game is done.
        const common::Ownership ours{"a record written by loa analyze-game", [](std::string_view head) {
                                         return head.find(fmt::format("[Annotator \"{}", AnnotatorPrefix)) != std::string_view::npos;
                                     }};
        std::optional<common::FileWriter> file;
        if (!o->out.empty()) {
            common::check_replaceable(o->out, ours);
            file.emplace(o->out);
        }
        const bool terminal = !o->quiet && ::isatty(STDERR_FILENO);  // a position counter on a terminal, a line a game in a log
        for (std::size_t g = first; g < last; ++g) {
            const Game& game = games[g - first];
            const GameAnalysis analysis = analyse_game(game, settings, [&](std::size_t done, std::size_t total) {
                if (terminal) fmt::print(stderr, "\rgame {} of {}: position {} of {}", g + 1, records.size(), done, total);
            });
            int marks[4] = {0, 0, 0, 0};
            for (const PlyAnalysis& ply : analysis.plies) ++marks[static_cast<int>(ply.judgement)];
            if (!o->quiet)
                fmt::print(stderr, "{}game {} of {}: {} plies in {:.1f} s, {} nodes; {} inaccuracies, {} mistakes, {} blunders\n",
                           terminal ? "\r" : "", g + 1, records.size(), game.moves().size(), analysis.seconds, analysis.nodes,
                           marks[1], marks[2], marks[3]);
            std::ostringstream annotated;
            write_annotated_record(annotated, records[g], game, analysis, annotator);
            if (file) {
                file->write(annotated.str());
            } else {
                fmt::print("{}", annotated.str());
                std::fflush(stdout);
            }
        }
        if (file) {
            file->commit(ours);
            if (!o->quiet) fmt::print(stderr, "wrote {}\n", o->out);
        }
    });
}

}  // namespace loa::cli
