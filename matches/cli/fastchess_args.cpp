#include "matches/cli/fastchess_args.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/text.hpp"

namespace matches::cli {
namespace {

using common::InputError;

// What an option of theirs without an equivalent here is refused with.
const std::map<std::string, std::string, std::less<>> Refused = {
    {"draw", "loa-match has no draw adjudication; --rules plylimit=N ends a game as a draw after N plies"},
    {"config", "loa-match has no configuration file: the command line says it all, and the same command resumes"},
    {"log", "the engines' exchanges are not logged; run an engine through a script that tees them "
            "(tests/support/fake_engines/logging_wrapper.sh)"},
    {"use-affinity", "loa-match does not pin engines to cores"},
    {"autosaveinterval", "the state file keeps every finished game (the same command resumes)"},
    {"noswap", "games always come in colour-swapped pairs from one opening"},
    {"reverse", "games always come in colour-swapped pairs from one opening"},
    {"variant", "LOA has no chess variants; its rule sets are --rules (olympiad, codingame, ...)"},
    {"wait", "engines are started once and kept; there is nothing to wait between games"},
    {"quick", "give the engines and limits: -engine cmd=A name=A -engine cmd=B name=B -each tc=5+0.05"},
    {"crc32", "the result JSON and the state file carry the match; there is no checksum option"},
    {"testEnv", "there is no test environment option"},
    {"show-latency", "the time each move took is in the --json result (black_move_ms, white_move_ms)"},
    {"debug", "there is no debug output; -q prints less"},
    {"version", "loa-match --help"},
    {"sample", "loa-match positions --pgn FILE samples positions from game records"},
    {"epdout", "the --pgn records hold every game"},
    {"tb", "LOA has no endgame tablebases"},
    {"tbpieces", "LOA has no endgame tablebases"},
    {"tbadjudicate", "LOA has no endgame tablebases"},
    {"tbignore50", "LOA has no endgame tablebases"},
    {"bookmode", "openings are files of positions or move lists (--openings)"},
    {"resultformat", "the summary and the --json result are the output formats"},
    {"pgnin", "--openings FILE"},
    {"site", "the records' Site is '?'; --event names the match"},
    {"scoreinterval", "progress is printed after every game; --report-every N (-ratinginterval N) prints the summary"},
    {"outcomeinterval", "--report-every N (-ratinginterval N) prints the summary, outcomes included"},
    {"report", "--report-every N (-ratinginterval N)"},
    {"randomseed", "openings are ordered by a seed: --seed N (-srand N)"},
    {"seeds", "seeding is for knockout tournaments; loa-match plays round robins and gauntlets"},
    {"force-concurrency", "-concurrency N (--concurrency N) is used as given"},
    {"livepgnout", "the games in play are in the state file's .live file (the web board's Watch tab)"},
};

// What engine_keys makes of tc=inf: no clock (dropped once the engine's keys are merged).
constexpr std::string_view NoClock = "tc=inf";

// One option as given: its name (without the dash) and the words that follow it.
struct Given {
    std::string name;
    std::vector<std::string> words;
};

// "key=value" words of an option as pairs; a word without '=' is refused.
std::vector<std::pair<std::string, std::string>> key_values(const Given& g) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string& w : g.words) {
        const auto eq = w.find('=');
        if (eq == std::string::npos || eq == 0)
            throw InputError(fmt::format("-{}: expected key=value words, not '{}'", g.name, w));
        out.emplace_back(w.substr(0, eq), w.substr(eq + 1));
    }
    return out;
}

std::string one_word(const Given& g) {
    if (g.words.size() != 1) throw InputError(fmt::format("-{}: expected one value", g.name));
    return g.words.front();
}

int positive_int(const Given& g) {
    const auto n = common::parse_int(one_word(g));
    if (!n || *n < 1) throw InputError(fmt::format("-{}: expected a positive whole number, not '{}'", g.name, g.words.front()));
    return *n;
}

// A value that goes into one of our comma-separated engine or SPRT strings.
std::string no_comma(const std::string& option, const std::string& key, const std::string& value) {
    if (value.find(',') != std::string::npos)
        throw InputError(fmt::format("-{} {}={}: a value with a comma cannot be passed on (loa-match separates keys with "
                                     "commas); run the engine through a script instead",
                                     option, key, value));
    return value;
}

// An engine's key=value words (of -engine or -each) in loa-match's engine string.
std::vector<std::string> engine_keys(const Given& g) {
    std::vector<std::string> out;
    for (const auto& [key, value] : key_values(g)) {
        const std::string v = no_comma(g.name, key, value);
        if (key == "proto") {
            if (v != "uci" && v != "gtp")
                throw InputError(fmt::format("-{} proto={}: loa-match speaks uci and gtp (proto=uci|gtp)", g.name, v));
            out.push_back("proto=" + v);
        } else if (key == "tc") {
            if (v.find('/') != std::string::npos)
                throw InputError(fmt::format("-{} tc={}: moves-per-period time controls are not supported; give BASE+INC "
                                             "in seconds (tc=5+0.05)",
                                             g.name, v));
            // tc=inf: no clock; the engine's limit is depth=, nodes= or st= (checked once -each
            // and -engine are merged).
            out.push_back(v == "inf" || v == "infinite" ? std::string(NoClock) : "tc=" + v);
        } else if (key == "timemargin") {
            throw InputError(fmt::format("-{} timemargin={}: the margin is one for every engine: --time-margin {}", g.name, v, v));
        } else if (key == "dir") {
            throw InputError(fmt::format("-{} dir={}: give cmd= an absolute path, or a script that changes directory first",
                                         g.name, v));
        } else if (key == "restart") {
            if (v != "off")
                throw InputError(fmt::format("-{} restart={}: engines are kept between games (and restarted after a crash); "
                                             "leave out restart=",
                                             g.name, v));
        } else if (key == "arg") {
            // cutechess's arg= (one argument each, repeatable) as our space-separated args=.
            if (v.find(' ') != std::string::npos)
                throw InputError(fmt::format("-{} arg={}: an argument with a space cannot be passed on (args= splits at "
                                             "spaces); run the engine through a script instead",
                                             g.name, v));
            const auto args = std::find_if(out.begin(), out.end(), [](const std::string& k) { return k.starts_with("args="); });
            if (args == out.end()) out.push_back("args=" + v);
            else *args += " " + v;
        } else {
            // name, cmd, args, st, nodes, depth, option.NAME: the same here; and loa-match's own
            // keys (preset, history, eval, ...), which its engine parser checks.
            out.push_back(key + "=" + v);
        }
    }
    return out;
}

// What the options of theirs given so far make of the command line: loa-match's options, and
// what is only written out once every option is read (the engines, with -each's keys over
// their own; the number of games, from -rounds, -games and -repeat together).
struct Translation {
    std::vector<std::string> out;  // loa-match's command line
    std::vector<std::vector<std::string>> engines;
    std::vector<std::string> each;
    int games_per_round = 1, rounds = 0;
    bool repeat = false;
};

void each(const Given& g, Translation& t) {
    const std::vector<std::string> keys = engine_keys(g);
    t.each.insert(t.each.end(), keys.begin(), keys.end());
}

void repeat(const Given& g, Translation& t) {
    if (!g.words.empty() && g.words != std::vector<std::string>{"2"})
        throw InputError("-repeat: each opening is played twice, colours swapped (-repeat or -repeat 2)");
    t.repeat = true;
}

void openings(const Given& g, Translation& t) {
    if (g.words.empty()) throw InputError("-openings: give the file (-openings file=book.txt)");
    for (const auto& [key, value] : key_values(g)) {
        if (key == "file") {
            t.out.insert(t.out.end(), {"--openings", value});
        } else if (key == "format") {
            if (value != "epd" && value != "pgn")
                throw InputError(fmt::format("-openings format={}: a file of positions or move lists a line, or game "
                                             "records (format=epd or format=pgn)",
                                             value));
        } else if (key == "order") {
            if (value != "random" && value != "sequential")
                throw InputError(fmt::format("-openings order={}: random or sequential", value));
            t.out.insert(t.out.end(), {"--openings-order", value});
        } else if (key == "start") {
            if (value != "1")
                throw InputError(fmt::format("-openings start={}: the openings are played from the first; cut the "
                                             "file instead",
                                             value));
        } else if (key == "policy") {
            if (value != "default" && value != "round")
                throw InputError(fmt::format("-openings policy={}: each game pair plays one opening (policy=round)", value));
        } else if (key == "plies") {
            throw InputError(fmt::format("-openings plies={}: the whole opening of each line is played; cut the "
                                         "lines to the plies you want",
                                         value));
        } else {
            throw InputError(fmt::format("-openings: unknown key '{}' (file, format, order, start, policy)", key));
        }
    }
}

void sprt(const Given& g, Translation& t) {
    if (g.words.empty()) throw InputError("-sprt: give the bounds (-sprt elo0=0 elo1=10)");
    std::vector<std::string> parts;
    for (const auto& [key, value] : key_values(g)) {
        if (key != "elo0" && key != "elo1" && key != "alpha" && key != "beta" && key != "model")
            throw InputError(fmt::format("-sprt: unknown key '{}' (elo0, elo1, alpha, beta, model)", key));
        if (key == "model" && value != "normalized" && value != "logistic")
            throw InputError(fmt::format("-sprt model={}: normalized or logistic", value));
        parts.push_back(key + "=" + no_comma("sprt", key, value));
    }
    std::string text;
    for (const std::string& p : parts) text += (text.empty() ? "" : ",") + p;
    t.out.insert(t.out.end(), {"--sprt", text});
}

void pgnout(const Given& g, Translation& t) {
    // fastchess: file=NAME and key=value settings; cutechess-cli: the file name, then
    // the words "min" and "fi".
    if (g.words.empty()) throw InputError("-pgnout: give the file (-pgnout file=games.pgn)");
    bool named = false;
    for (const std::string& w : g.words) {
        const auto eq = w.find('=');
        const std::string key = eq == std::string::npos ? "" : w.substr(0, eq), value = w.substr(eq + 1);
        if ((eq == std::string::npos && !named) || key == "file") {
            if (named) throw InputError("-pgnout: one file");
            t.out.insert(t.out.end(), {"--pgn", eq == std::string::npos ? w : value});
            named = true;
        } else if (w == "min" || w == "fi") {
            // The records are short already, and hold finished games only.
        } else if (key == "append") {
            if (value != "true")
                throw InputError("-pgnout append=false: loa-match always appends to a PGN (what it held stays); "
                                 "name a new file");
        } else if (key == "min") {
            throw InputError("-pgnout min=true: the records are always the short form (tags, moves, result)");
        } else {
            throw InputError(fmt::format("-pgnout {}: the records hold tags, moves and the result; node counts and "
                                         "times per move are in the --json result",
                                         w));
        }
    }
}

void output(const Given& g, Translation& t) {
    for (const auto& [key, value] : key_values(g)) {
        if (key != "format" || (value != "fastchess" && value != "cutechess"))
            throw InputError(fmt::format("-output {}={}: the formats are format=cutechess and format=fastchess (and "
                                         "--json for tools)",
                                         key, value));
        t.out.insert(t.out.end(), {"--output-format", value});
    }
}

void tournament(const Given& g, Translation& t) {
    const std::string kind = one_word(g);
    if (kind == "gauntlet") t.out.push_back("--gauntlet");
    else if (kind != "roundrobin" && kind != "round-robin")
        throw InputError(fmt::format("-tournament {}: gauntlet or roundrobin", kind));
}

void resign(const Given& g, Translation& t) {
    std::string score, moves;
    for (const auto& [key, value] : key_values(g)) {
        if (key == "score") score = value;
        else if (key == "movecount") moves = value;
        else if (key == "twosided") {
            if (value != "true") throw InputError("-resign twosided=false: both engines must agree (twosided=true)");
        } else {
            throw InputError(fmt::format("-resign: unknown key '{}' (movecount, score, twosided)", key));
        }
    }
    if (score.empty() || moves.empty()) throw InputError("-resign: give movecount=N and score=CP");
    t.out.insert(t.out.end(), {"--resign", fmt::format("score={},moves={}", score, moves)});
}

using Translator = void (*)(const Given&, Translation&);

// The option names of theirs that are translated (the rest of `Refused` aside), each with its
// translation. An unknown option's "did you mean" reads the names in this order (the first of
// two equally near ones is offered), then Refused's.
const std::vector<std::pair<std::string_view, Translator>> Translated = {
    {"engine", [](const Given& g, Translation& t) { t.engines.push_back(engine_keys(g)); }},
    {"each", each},
    // Games per encounter, as cutechess-cli counts them.
    {"games", [](const Given& g, Translation& t) { t.games_per_round = positive_int(g); }},
    {"rounds", [](const Given& g, Translation& t) { t.rounds = positive_int(g); }},
    {"repeat", repeat},
    {"concurrency", [](const Given& g, Translation& t) { t.out.insert(t.out.end(), {"-j", std::to_string(positive_int(g))}); }},
    {"openings", openings},
    {"sprt", sprt},
    {"pgnout", pgnout},
    // Always so here: a crashed engine loses its game, is started again, and the match goes on.
    {"recover", [](const Given&, Translation&) {}},
    {"event", [](const Given& g, Translation& t) { t.out.insert(t.out.end(), {"--event", one_word(g)}); }},
    {"ratinginterval",
     [](const Given& g, Translation& t) {
         if (one_word(g) != "0") t.out.insert(t.out.end(), {"--report-every", std::to_string(positive_int(g))});  // 0: none
     }},
    {"output", output},
    {"srand", [](const Given& g, Translation& t) { t.out.insert(t.out.end(), {"--seed", one_word(g)}); }},
    {"tournament", tournament},
    {"resign", resign},
    {"maxmoves",
     [](const Given& g, Translation& t) {
         t.out.insert(t.out.end(), {"--rules", fmt::format("olympiad,plylimit={}", 2 * positive_int(g))});
     }},
    {"help", [](const Given&, Translation& t) { t.out.push_back("--help"); }},
};

Translator translator(std::string_view name) {
    const auto found = std::find_if(Translated.begin(), Translated.end(), [&](const auto& entry) { return entry.first == name; });
    return found == Translated.end() ? nullptr : found->second;
}

bool is_theirs(const std::string& word) {
    if (word.size() < 3 || word[0] != '-' || word[1] == '-') return false;
    const std::string name = word.substr(1);
    return translator(name) || Refused.contains(name);
}

// Splits the command line (program name first) into their options, with the words that follow
// each, and ours, which go to `ours` as they are.
std::vector<Given> their_options(const std::vector<std::string>& args, std::vector<std::string>& ours) {
    std::vector<Given> given;
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& word = args[i];
        // Ours, passed on: "-j4", "-g100" (a short option with its number), "-12" (a negative
        // value), a quoted value with spaces (--slurm-args "-p short").
        const bool our_short = word.size() >= 3 && (word[1] == 'j' || word[1] == 'g') && common::parse_int(word.substr(2));
        const bool value = word.find(' ') != std::string::npos || common::parse_double(word).has_value();
        if (word.size() >= 3 && word[0] == '-' && word[1] != '-' && !our_short && !value) {
            const std::string name = word.substr(1);
            if (!is_theirs(word)) {
                std::vector<std::string> known;
                for (const auto& [translated, how] : Translated) known.emplace_back(translated);
                for (const auto& [refused, why] : Refused) known.push_back(refused);
                const std::string near = common::nearest_word(name, known);
                throw InputError(fmt::format("unknown option '{}'{} (loa-match's own options have two dashes: --help lists them)",
                                             word, near.empty() ? "" : fmt::format("; did you mean '-{}'?", near)));
            }
            Given g{name, {}};
            while (i + 1 < args.size() && !args[i + 1].starts_with('-')) g.words.push_back(args[++i]);
            given.push_back(std::move(g));
        } else {
            ours.push_back(word);
        }
    }
    return given;
}

// The engines, each with -each's keys over its own (as in both tools), as --engine options.
void write_engines(Translation& t) {
    for (std::vector<std::string>& keys : t.engines) {
        auto key_of = [](const std::string& kv) { return kv.substr(0, kv.find('=')); };
        for (const std::string& kv : t.each) {
            std::erase_if(keys, [&](const std::string& own) { return key_of(own) == key_of(kv); });
            keys.push_back(kv);
        }
        if (std::erase(keys, std::string(NoClock)) > 0 &&
            std::none_of(keys.begin(), keys.end(), [&](const std::string& k) {
                const std::string key = key_of(k);
                return key == "depth" || key == "nodes" || key == "st" || key == "tc";
            }))
            throw InputError("tc=inf: give the engine a limit (depth=, nodes= or st=), or a clock (tc=BASE+INC)");
        std::string text;
        for (const std::string& k : keys) text += (text.empty() ? "" : ",") + k;
        t.out.insert(t.out.end(), {"--engine", text});
    }
    if (!t.each.empty() && t.engines.empty()) throw InputError("-each: give the engines with -engine");
}

// -rounds, -games and -repeat as --games, the games of each pairing.
void write_games(Translation& t) {
    const auto ours = [&](const char* option) { return std::count(t.out.begin(), t.out.end(), option); };
    if (ours("--rules") > 1) throw InputError("-maxmoves and --rules: give the ply limit in --rules (plylimit=2N)");
    if (t.rounds > 0 || t.repeat || t.games_per_round > 1) {
        if (ours("--games") > 0) throw InputError("-rounds/-games/-repeat and --games: give one or the other");
        // In 64 bits: -rounds 65536 -games 65537 is 4.3e9 games, which an int would wrap.
        const long long per_round = t.repeat ? std::max(2, t.games_per_round) : t.games_per_round;
        const long long games = std::max(1LL, static_cast<long long>(t.rounds)) * per_round;
        if (games > MaxGamesPerPairing)
            throw InputError(fmt::format("-rounds {} -games {}: {} games per pairing; at most {} (--games)", std::max(1, t.rounds),
                                         per_round, games, MaxGamesPerPairing));
        t.out.insert(t.out.end(), {"--games", std::to_string(games)});
    }
}

}  // namespace

bool uses_fastchess_options(const std::vector<std::string>& args) {
    return std::any_of(args.begin() + (args.empty() ? 0 : 1), args.end(), is_theirs);
}

std::vector<std::string> translate_fastchess_options(const std::vector<std::string>& args) {
    Translation t;
    if (!args.empty()) t.out.push_back(args.front());
    for (const Given& g : their_options(args, t.out)) {
        if (const auto refused = Refused.find(g.name); refused != Refused.end())
            throw InputError(fmt::format("-{} has no equivalent in loa-match: {}", g.name, refused->second));
        translator(g.name)(g, t);
    }
    write_engines(t);
    write_games(t);
    return t.out;
}

}  // namespace matches::cli
