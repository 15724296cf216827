#include "loa/game_analysis.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/variant/config.hpp"
#include "common/variant/searcher.hpp"
#include "loa/notation.hpp"
#include "loa/search_game.hpp"
#include "loa/searchers.hpp"

namespace loa {

double expected_result(search::Score score, double k) {
    if (search::is_decisive(score)) return score > 0 ? 1.0 : 0.0;
    return 1.0 / (1.0 + std::exp(-k * score));
}

Judgement judge(double expected_drop) {
    // lichess's thresholds are on winning chances 2p - 1: twice the drop of p.
    const double chances = 2 * expected_drop;
    if (chances >= 0.3) return Judgement::Blunder;
    if (chances >= 0.2) return Judgement::Mistake;
    if (chances >= 0.1) return Judgement::Inaccuracy;
    return Judgement::None;
}

std::string_view judgement_name(Judgement j) {
    switch (j) {
        case Judgement::Inaccuracy: return "Inaccuracy";
        case Judgement::Mistake: return "Mistake";
        case Judgement::Blunder: return "Blunder";
        case Judgement::None: break;
    }
    return "";
}

std::string_view judgement_nag(Judgement j) {
    switch (j) {
        case Judgement::Inaccuracy: return "$6";
        case Judgement::Mistake: return "$2";
        case Judgement::Blunder: return "$4";
        case Judgement::None: break;
    }
    return "";
}

namespace {

// The mover's score once its move has ended the game.
search::Score final_score(const GameResult& result, Colour mover) {
    if (result.outcome == Outcome::Draw) return search::DrawScore;
    return result.outcome == win_for(mover) ? search::win_in(0) : search::loss_in(0);
}

}  // namespace

GameAnalysis analyse_game(const Game& game, const AnalysisSettings& settings,
                          const std::function<void(std::size_t, std::size_t)>& progress) {
    const auto started = std::chrono::steady_clock::now();
    const variant::VariantConfig config = variant::parse_variant(settings.variant);
    variant::VariantSearcher<SearchGame> searcher(
        SearchGame::from_spec(game.rules(), settings.eval.empty() ? DefaultEval : settings.eval), config);
    Game replay(game.start_position(), game.rules());
    const std::size_t moves = game.moves().size();
    // Every position before a move, and the last one unless the game ended there.
    const std::size_t total = moves + (game.over() ? 0 : 1);
    GameAnalysis analysis;
    auto search_here = [&] {
        search::SearchLimits limits = settings.limits;
        limits.game_plies_left = plies_until_limit(replay);
        const auto history = search_history(replay);
        auto result = searcher.search(replay.position(), limits, history);
        analysis.nodes += result.stats.nodes;
        if (progress) progress(std::min(replay.moves().size() + 1, total), total);
        return result;
    };
    // An external stop (the web board's cancel) ends the analysis after the plies done so far.
    auto stopped = [&] { return settings.limits.stop && settings.limits.stop->load(); };
    auto before = search_here();
    for (std::size_t i = 0; i < moves && !stopped(); ++i) {
        PlyAnalysis ply;
        ply.played = game.moves()[i];
        MoveList legal;
        generate_moves(replay.position(), legal);
        ply.only_move = legal.size() <= 1;
        ply.score = before.score;
        ply.best = before.best_move;
        ply.pv = before.pv;
        ply.depth = before.depth;
        const Colour mover = replay.position().side_to_move();
        replay.play(ply.played);
        if (replay.over()) {
            ply.score_after = final_score(replay.result(), mover);
        } else {
            before = search_here();
            if (stopped()) break;
            ply.score_after = -before.score;
        }
        ply.expected_before = expected_result(ply.score, settings.k);
        ply.expected_after = expected_result(ply.score_after, settings.k);
        if (!ply.only_move && ply.played != ply.best)
            ply.judgement = judge(std::max(0.0, ply.expected_before - ply.expected_after));
        analysis.plies.push_back(std::move(ply));
    }
    analysis.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return analysis;
}

std::string eval_tag_value(search::Score score, Colour side) {
    const search::Score white = side == Colour::White ? score : -score;
    if (search::is_decisive(white)) {
        // lichess counts a mate in the winner's own moves; a win here is in plies.
        const int winner_moves = (std::abs(search::plies_to_end(white)) + 1) / 2;
        return fmt::format("#{}{}", white > 0 ? "" : "-", winner_moves);
    }
    return fmt::format("{:.2f}", white / 100.0);
}

namespace {

// The record's result, or the game's by the rules when the record gives none (a bare move list).
std::string result_text(const ParsedRecord& record, const Game& game) {
    if (const auto tag = record.tags.find("Result"); tag != record.tags.end() && tag->second != "*") return tag->second;
    switch (game.result().outcome) {
        case Outcome::WhiteWins: return "1-0";
        case Outcome::BlackWins: return "0-1";
        case Outcome::Draw: return "1/2-1/2";
        case Outcome::Ongoing: break;
    }
    return "*";
}

}  // namespace

void write_annotated_record(std::ostream& out, const ParsedRecord& record, const Game& game, const GameAnalysis& analysis,
                            const std::string& annotator) {
    auto tag = [&](const std::string& name, const std::string& value) {
        out << '[' << name << " \"" << pgn_string(value) << "\"]\n";
    };
    // The Seven Tag Roster in its order, then the record's other tags, then ours.
    static constexpr const char* Roster[] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};
    for (const char* name : Roster) {
        const auto it = record.tags.find(name);
        const std::string_view n = name;
        tag(name, n == "Result"                 ? result_text(record, game)
                  : it != record.tags.end() ? it->second
                  : n == "Date"             ? "????.??.??"
                                            : "?");
    }
    for (const auto& entry : record.tags) {  // (a structured binding: clang 14 cannot capture one)
        const std::string& name = entry.first;
        const bool rostered =
            std::find_if(std::begin(Roster), std::end(Roster), [&](const char* r) { return name == r; }) != std::end(Roster);
        if (!rostered && name != "Annotator") tag(name, entry.second);
    }
    tag("Annotator", annotator);
    out << '\n';

    const bool second_first = game.start_position().side_to_move() != Position::start().side_to_move();
    std::string line;
    auto emit = [&](const std::string& token) {
        if (!line.empty() && line.size() + token.size() + 1 > 79) {
            out << line << '\n';
            line.clear();
        }
        if (!line.empty()) line += ' ';
        line += token;
    };
    // Move numbers count pairs from the standard start's first mover (Black), as in loa-match's
    // records; a pair's second move is numbered "N..." after a comment or a variation.
    auto number = [&](std::size_t ply, bool after_break) -> std::string {
        if (ply % 2 == 0) return fmt::format("{}.", ply / 2 + 1);
        return after_break ? fmt::format("{}...", ply / 2 + 1) : "";
    };
    auto emit_numbered = [&](std::size_t ply, bool after_break, const std::string& move) {
        if (const std::string n = number(ply, after_break); !n.empty()) emit(n);
        emit(move);
    };
    if (record.opening_plies == 0) emit("{end of opening}");
    Game replay(game.start_position(), game.rules());
    for (std::size_t i = 0; i < game.moves().size(); ++i) {
        const std::size_t ply = i + (second_first ? 1 : 0);
        const PlyAnalysis* a = i < analysis.plies.size() ? &analysis.plies[i] : nullptr;
        emit_numbered(ply, true, move_to_text(game.moves()[i]));  // every move is followed by a comment
        const Colour mover = replay.position().side_to_move();
        replay.play(game.moves()[i]);
        if (a) {
            if (a->judgement != Judgement::None) emit(std::string(judgement_nag(a->judgement)));
            std::string comment = replay.over() ? "" : fmt::format("[%eval {}]", eval_tag_value(a->score_after, mover));
            if (a->judgement != Judgement::None)
                comment += fmt::format("{}{}. {} was best.", comment.empty() ? "" : " ", judgement_name(a->judgement),
                                       move_to_text(a->best));
            if (!comment.empty()) emit(fmt::format("{{{}}}", pgn_comment(comment)));
            // The engine's line from the position before the move, as a variation.
            if (a->judgement != Judgement::None && !a->pv.empty()) {
                std::vector<std::string> tokens;
                for (std::size_t j = 0; j < std::min<std::size_t>(a->pv.size(), 6); ++j) {
                    if (std::string n = number(ply + j, j == 0); !n.empty()) tokens.push_back(std::move(n));
                    tokens.push_back(move_to_text(a->pv[j]));
                }
                emit(fmt::format("({})", fmt::join(tokens, " ")));
            }
        }
        if (static_cast<int>(i) + 1 == record.opening_plies) emit("{end of opening}");
    }
    // How the game ended, in words (loa-match's comment before the result): kept; a comment of
    // an earlier analysis read back as the last one is not.
    if (!record.reason.empty() && record.reason.find("[%eval") == std::string::npos && record.reason.find(" was best.") == std::string::npos)
        emit(fmt::format("{{{}}}", pgn_comment(record.reason)));
    emit(result_text(record, game));
    out << line << "\n\n";
}

}  // namespace loa
