#include "matches/realization_learning.hpp"

#include <cerrno>
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "loa/game.hpp"
#include "loa/movegen.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"
#include "matches/records.hpp"

namespace matches {

loa::RealizationProbabilities learn_realization(const RealizationLearning& s) {
    loa::RealizationProbabilities p;
    p.available.assign(loa::RealizationCategoryCount, 0);
    p.played.assign(loa::RealizationCategoryCount, 0);
    p.min_ply = s.min_ply;
    p.smoothing = s.smoothing;
    for (const std::string& file : s.record_files) {
        common::FileReader reader(file, common::MaxRecordFile, "learn-rps");
        std::vector<ParsedRecord> records;
        try {
            records = read_records(reader.stream());
            reader.check();
        } catch (const common::InputError& e) {
            throw common::InputError(fmt::format("learn-rps: '{}': {}", file, e.what()));
        }
        for (const ParsedRecord& rec : records) {
            loa::Game game(loa::parse_position(rec.start_text()), s.rules);
            const int first = s.min_ply >= 0 ? s.min_ply : std::max(0, rec.opening_plies);
            ++p.games;
            for (const std::string& text : rec.moves) {
                if (game.over()) break;
                const loa::Position& pos = game.position();
                const loa::Move played = loa::parse_move(pos, text);  // throws on an illegal move
                if (game.ply() >= first && !played.is_pass()) {  // a pass is forced: nothing was chosen
                    loa::MoveList moves;
                    loa::generate_moves(pos, moves);
                    for (const loa::Move m : moves) ++p.available[static_cast<std::size_t>(loa::realization_category(pos, m))];
                    ++p.played[static_cast<std::size_t>(loa::realization_category(pos, played))];
                    ++p.positions;
                }
                game.play(played);
            }
        }
    }
    if (p.positions == 0) throw common::InputError("learn-rps: the records hold no position to learn from");
    p.compute();
    return p;
}

std::string realization_summary(const loa::RealizationProbabilities& p, int shown) {
    const std::uint64_t moves = std::accumulate(p.available.begin(), p.available.end(), std::uint64_t{0});
    std::string out = fmt::format("{} games, {} positions, {} legal moves ({:.1f} a position)\n", p.games, p.positions, moves,
                                  p.positions ? static_cast<double>(moves) / static_cast<double>(p.positions) : 0.0);
    std::vector<int> order(p.probability.size());
    std::iota(order.begin(), order.end(), 0);
    // Categories seen at least 100 times, most likely first.
    std::erase_if(order, [&](int c) { return p.available[static_cast<std::size_t>(c)] < 100; });
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return p.probability[static_cast<std::size_t>(a)] > p.probability[static_cast<std::size_t>(b)];
    });
    auto row = [&](int c) {
        const auto i = static_cast<std::size_t>(c);
        return fmt::format("  {:3}  {:.4f}  {:>8} of {:>9}  {}\n", c, p.probability[i], p.played[i], p.available[i],
                           loa::describe_realization_category(c));
    };
    out += fmt::format("{} categories seen at least 100 times; the most likely:\n", order.size());
    for (int i = 0; i < std::min<int>(shown, static_cast<int>(order.size())); ++i) out += row(order[static_cast<std::size_t>(i)]);
    out += "the least likely:\n";
    for (int i = std::max<int>(0, static_cast<int>(order.size()) - shown); i < static_cast<int>(order.size()); ++i)
        out += row(order[static_cast<std::size_t>(i)]);
    return out;
}

}  // namespace matches
