#include "loa/evaluation.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/files.hpp"
#include "loa/connectivity.hpp"
#include "loa/error.hpp"
#include "loa/movegen.hpp"

namespace loa {
namespace {

constexpr std::array<std::string_view, FeatureCount> FeatureNames = {
    "concentration", "centralisation", "centre_of_mass", "quads", "mobility",
    "walls",         "connections",    "groups",         "uniformity", "material", "blocked"};

// Piece-square table favouring the centre (symmetric under the board's 8 symmetries).
constexpr std::array<int, 8> RingValue = {50, 25, 10, -20};  // by Chebyshev ring, 0 = centre
constexpr std::array<int, 64> PieceSquare = [] {
    std::array<int, 64> t{};
    for (Square s = 0; s < 64; ++s) {
        const int df = file_of(s) < 4 ? 3 - file_of(s) : file_of(s) - 4;
        const int dr = rank_of(s) < 4 ? 3 - rank_of(s) : rank_of(s) - 4;
        int v = RingValue[static_cast<std::size_t>(std::max(df, dr))];
        if (df == 3 && dr == 3) v = -80;                    // corners are worst
        else if ((df == 3 && dr == 2) || (df == 2 && dr == 3)) v = -25;  // next to a corner
        t[static_cast<std::size_t>(s)] = v;
    }
    return t;
}();

// Squares nearer the centre than ring r: a move from ring r to one of them goes inwards.
constexpr std::array<Bitboard, 4> InsideRing = [] {
    std::array<Bitboard, 4> t{};
    for (Square s = 0; s < 64; ++s)
        for (int r = ring_of(s) + 1; r < 4; ++r) t[static_cast<std::size_t>(r)] |= square_bb(s);
    return t;
}();

// Least possible sum of Chebyshev distances of n pieces to their centre: 8 fit at distance
// 1, 16 more at distance 2, ... (the concentration of a perfectly packed group).
constexpr int minimal_distance_sum(int n) {
    int sum = 0, ring = 1, left = n - 1;
    while (left > 0) {
        const int fits = std::min(left, 8 * ring);
        sum += fits * ring;
        left -= fits;
        ++ring;
    }
    return sum;
}

// Inward orthogonal neighbours of edge squares (both for a corner).
constexpr Bitboard inward(Bitboard edge_piece) {
    return (shift_north(edge_piece & Rank1) | shift_south(edge_piece & Rank8) | shift_east(edge_piece & FileA) |
            shift_west(edge_piece & FileH));
}

}  // namespace

int weight_at(const EvalWeights& w, std::size_t k, int phase) {
    return w.tapered ? (w.weight[k] * phase + w.endgame[k] * (MaxPhase - phase)) / MaxPhase : w.weight[k];
}

std::string_view feature_name(Feature f) { return FeatureNames[static_cast<std::size_t>(f)]; }

std::optional<Feature> feature_from_name(std::string_view name) {
    const auto it = std::find(FeatureNames.begin(), FeatureNames.end(), name);
    if (it == FeatureNames.end()) return std::nullopt;
    return static_cast<Feature>(it - FeatureNames.begin());
}

// Weights measured in self-play (depth 4, 300-game matches; docs/evaluation.md): each term
// alone was added to concentration, and the helpful ones tuned. Centre of mass, quads,
// groups, uniformity and the side-to-move bonus lost Elo at every weight tried, so their
// weight is 0 -- they stay computed in the breakdown and can be weighted from a file.
// data/weights/texel-1.json: Texel's method on 4,000 self-play games (data/weights/make-texel-1.sh),
// adopted by SPRT at stc and ltc (docs/strength.md). Groups stays at 0: no flood fill per evaluation.
EvalWeights EvalWeights::full() {
    EvalWeights w;
    //           conc cent com quads mob walls conn groups unif mat blocked
    w.weight = {70, 76, -22, -7, 82, 16, 4, 0, -4, 14, -4};
    w.endgame = {78, 53, -16, 57, 91, 4, 1, 0, 52, 45, 45};
    w.tapered = true;
    w.side_to_move = 11;
    return w;
}

EvalWeights EvalWeights::hand() {
    EvalWeights w;
    w[Feature::Concentration] = 100;
    w[Feature::Mobility] = 100;
    w[Feature::Connections] = 40;
    w[Feature::Centralisation] = 20;
    w[Feature::Walls] = 10;
    return w;
}

EvalWeights EvalWeights::concentration_only() {
    EvalWeights w;
    w[Feature::Concentration] = 100;
    return w;
}

FeatureValues side_features(const Position& pos, Colour side, const EvalWeights& weights, bool every_feature) {
    FeatureValues f{};
    const Bitboard own = pos.pieces(side), enemy = pos.pieces(~side);
    const int n = popcount(own);
    auto feature = [&](Feature x) -> int& { return f[static_cast<std::size_t>(x)]; };
    auto wanted = [&](Feature x) {
        return every_feature || weights[x] != 0 || (weights.tapered && weights.endgame[static_cast<std::size_t>(x)] != 0);
    };

    int sx = 0, sy = 0, pst = 0;
    for (Bitboard b = own; b;) {
        const Square s = pop_lsb(b);
        sx += file_of(s);
        sy += rank_of(s);
        pst += PieceSquare[static_cast<std::size_t>(s)];
    }
    if (wanted(Feature::Concentration)) {
        // n * (distance to the exact centre of mass), summed: integers, no rounding.
        int scaled = 0;
        for (Bitboard b = own; b;) {
            const Square s = pop_lsb(b);
            scaled += std::max(std::abs(n * file_of(s) - sx), std::abs(n * rank_of(s) - sy));
        }
        const int surplus = scaled - n * minimal_distance_sum(n);  // n * surplus distance
        const int average16 = 16 * surplus / (n * n);               // 16 * average surplus per piece
        feature(Feature::Concentration) = 16000 / (16 + average16);
    }
    feature(Feature::Centralisation) = pst / n;
    feature(Feature::CentreOfMass) = -10 * std::max(std::abs(2 * sx - 7 * n), std::abs(2 * sy - 7 * n)) / n;
    feature(Feature::Quads) = -25 * (pos.euler_numerator(side) - 4);
    if (wanted(Feature::Mobility) || wanted(Feature::Blocked)) {
        // Each destination: 4, +4 for a capture, -2 on the edge, else +2 when it is nearer the
        // centre than the piece; counted with masks rather than square by square.
        int mobility = 0, blocked = 0;
        for (Bitboard b = own; b;) {
            const Square from = pop_lsb(b);
            const Bitboard targets = piece_destinations(from, own, enemy);
            mobility += 4 * popcount(targets) + 4 * popcount(targets & enemy) - 2 * popcount(targets & Edge) +
                        2 * popcount(targets & ~Edge & InsideRing[static_cast<std::size_t>(ring_of(from))]);
            blocked += targets == 0;
        }
        feature(Feature::Mobility) = mobility;
        feature(Feature::Blocked) = -100 * blocked;
    }
    feature(Feature::Material) = 100 * n;
    feature(Feature::Walls) = -100 * (popcount(inward(own & Edge & ~(Rank1 | Rank8)) & enemy) +
                                      popcount(inward(own & (Rank1 | Rank8)) & enemy));
    if (wanted(Feature::Connections)) {
        const int pairs = popcount(own & shift_east(own)) + popcount(own & shift_north(own)) +
                          popcount(own & shift_east(shift_north(own))) + popcount(own & shift_west(shift_north(own)));
        feature(Feature::Connections) = 100 * pairs / n;
    }
    if (wanted(Feature::Groups)) feature(Feature::Groups) = -100 * (count_groups(own) - 1);
    if (wanted(Feature::Uniformity)) {
        Bitboard files = 0, ranks = 0;
        for (Bitboard b = own; b;) {
            const Square s = pop_lsb(b);
            files |= 1u << file_of(s);
            ranks |= 1u << rank_of(s);
        }
        const int width = 32 - std::countl_zero(static_cast<std::uint32_t>(files)) - std::countr_zero(files);
        const int height = 32 - std::countl_zero(static_cast<std::uint32_t>(ranks)) - std::countr_zero(ranks);
        feature(Feature::Uniformity) = -10 * width * height;
    }
    return f;
}

EvalBreakdown Evaluator::breakdown(const Position& pos, bool every_feature) const {
    EvalBreakdown b;
    const Colour us = pos.side_to_move();
    b.features[index(Colour::Black)] = side_features(pos, Colour::Black, weights_, every_feature);
    b.features[index(Colour::White)] = side_features(pos, Colour::White, weights_, every_feature);
    int total = 0;
    const int phase = weights_.tapered ? game_phase(pos) : MaxPhase;
    for (int i = 0; i < FeatureCount; ++i) {
        const auto k = static_cast<std::size_t>(i);
        b.terms[k] = weight_at(weights_, k, phase) * (b.features[index(us)][k] - b.features[index(~us)][k]) / 100;
        total += b.terms[k];
    }
    b.side_to_move = weights_.side_to_move;
    b.total = std::clamp(total + b.side_to_move, -EvalClamp, EvalClamp);
    return b;
}

int Evaluator::evaluate(const Position& pos) const { return breakdown(pos, false).total; }

namespace {

// Weights multiply feature values of a few hundred: a million is far beyond any use, and keeps
// every product (tapering included) inside an int.
int checked_weight(const std::string& key, const nlohmann::json& value) {
    constexpr long long MaxWeight = 1'000'000;
    if (!value.is_number_integer() || (value.is_number_unsigned() && value.get<unsigned long long>() > MaxWeight) ||
        (!value.is_number_unsigned() && std::llabs(value.get<long long>()) > MaxWeight))
        throw InputError(fmt::format("evaluation weights: '{}' must be an integer within +-{}", key, MaxWeight));
    return static_cast<int>(value.get<long long>());
}

// The index of a feature named `key`, or of "endgame.<feature>".
std::size_t feature_index(const std::string& key) {
    const auto f = feature_from_name(std::string_view(key).substr(key.starts_with("endgame.") ? 8 : 0));
    if (!f) throw InputError(fmt::format("evaluation weights: unknown feature '{}'", key));
    return static_cast<std::size_t>(*f);
}

}  // namespace

EvalWeights parse_weights_json(std::string_view text, const EvalWeights& base) {
    nlohmann::json json;
    try {
        json = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {  // parse errors, and numbers out of range (found by fuzzing)
        throw InputError(fmt::format("evaluation weights: not valid JSON ({})", e.what()));
    }
    if (!json.is_object()) throw InputError("evaluation weights: expected a JSON object of name: integer");
    EvalWeights w = base;
    const nlohmann::json* endgame = nullptr;
    for (const auto& [key, value] : json.items()) {
        if (key == "endgame") {
            if (!value.is_object()) throw InputError("evaluation weights: 'endgame' must be an object of name: integer");
            endgame = &value;
            continue;
        }
        if (key == "side_to_move") {
            w.side_to_move = checked_weight(key, value);
            continue;
        }
        w.weight[feature_index(key)] = checked_weight(key, value);
    }
    if (endgame) {
        if (!base.tapered) w.endgame = w.weight;
        w.tapered = true;
        for (const auto& [key, value] : endgame->items())
            w.endgame[feature_index("endgame." + key)] = checked_weight("endgame." + key, value);
    }
    return w;
}

EvalWeights load_weights_file(const std::string& path, const EvalWeights& base) {
    return parse_weights_json(common::read_file(path, common::MaxOptionFile, "evaluation weights"), base);
}

std::string weights_to_json(const EvalWeights& w) {
    nlohmann::ordered_json json;
    for (int i = 0; i < FeatureCount; ++i) json[std::string(FeatureNames[static_cast<std::size_t>(i)])] = w.weight[static_cast<std::size_t>(i)];
    json["side_to_move"] = w.side_to_move;
    if (w.tapered)
        for (int i = 0; i < FeatureCount; ++i)
            json["endgame"][std::string(FeatureNames[static_cast<std::size_t>(i)])] = w.endgame[static_cast<std::size_t>(i)];
    return json.dump(2);
}

}  // namespace loa
