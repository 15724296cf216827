// Lines of Action as a model of search::Game: the only place where the search core and the
// game meet.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "common/search/game.hpp"
#include "loa/connectivity.hpp"
#include "loa/evaluation.hpp"
#include "loa/movegen.hpp"
#include "loa/nnue/evaluator.hpp"
#include "loa/nnue/shipped.hpp"
#include "loa/realization.hpp"
#include "loa/rules.hpp"
#include "loa/simple_eval.hpp"

namespace loa {

// The evaluation the engine plays with when none is named (loa's engine, `loa bench` and
// `loa analyze`, loa-match's in-process engines): the network, since its SPRTs accepted at stc
// and ltc (docs/strength.md rows 21 and 22). "hce" names the hand-written one.
inline constexpr std::string_view DefaultEval = "nnue";

class SearchGame {
public:
    using Position = loa::Position;
    using Move = loa::Move;
    using MoveList = loa::MoveList;
    using CustomEvaluation = std::function<int(const Position&)>;
    static constexpr int MoveIndexCount = 2 * FromToCount;  // per side to move
    static constexpr int MaxPhase = loa::MaxPhase;           // search::PhasedGame: all 24 pieces

    explicit SearchGame(RuleSet rules = {}, Evaluator evaluator = Evaluator{}) : rules_(rules), evaluator_(evaluator) {}
    // The learned evaluation (docs/nnue.md).
    SearchGame(RuleSet rules, std::shared_ptr<const nnue::Network> net) : rules_(rules), net_(nnue::NetEvaluator(std::move(net))) {}
    // Any evaluation function (tests, experiments).
    SearchGame(RuleSet rules, CustomEvaluation custom) : rules_(rules), custom_(std::move(custom)) {}
    // The placeholder material-and-centralisation evaluation, kept as a baseline.
    static SearchGame with_simple_evaluation(RuleSet rules = {}) {
        return SearchGame(rules, CustomEvaluation(simple_evaluate));
    }
    // Piece count only: the cheapest possible evaluation, a yardstick for search speed.
    static int material_evaluate(const Position& pos) {
        return 10 * (pos.count(pos.side_to_move()) - pos.count(~pos.side_to_move()));
    }
    // eval spec: "nnue" (the network shipped in data/nets/, compiled in: DefaultEval), "full"
    // or "hce" (the hand-written evaluation with its tuned weights; also "", which callers that
    // mean the default map to DefaultEval), "hand" (the
    // hand-picked weights before tuning), "concentration", "simple", "material", a network file
    // (*.nnue), or a JSON weights file (over "full").
    static SearchGame from_spec(RuleSet rules, std::string_view eval_spec) {
        if (eval_spec.empty() || eval_spec == "full" || eval_spec == "hce") return SearchGame(rules);
        if (eval_spec == "hand") return SearchGame(rules, Evaluator(EvalWeights::hand()));
        if (eval_spec == "concentration") return SearchGame(rules, Evaluator(EvalWeights::concentration_only()));
        if (eval_spec == "simple") return with_simple_evaluation(rules);
        if (eval_spec == "material") return SearchGame(rules, CustomEvaluation(material_evaluate));
        if (eval_spec == "nnue") return SearchGame(rules, nnue::shipped_network());
        if (eval_spec.ends_with(".nnue")) return SearchGame(rules, nnue::load_network_file(std::string(eval_spec)));
        return SearchGame(rules, Evaluator(load_weights_file(std::string(eval_spec))));
    }
    // The same with the realization probabilities of a file (learn-rps) for ERPS; none if empty.
    static SearchGame from_spec(RuleSet rules, std::string_view eval_spec, const std::string& rps_file) {
        SearchGame game = from_spec(rules, eval_spec);
        if (!rps_file.empty()) game.set_realization(load_realization_file(rps_file));
        return game;
    }

    const RuleSet& rules() const { return rules_; }
    const Evaluator& evaluator() const { return evaluator_; }

    void generate(const Position& pos, MoveList& moves) const { generate_moves(pos, moves); }
    // With a network, its accumulators follow the moves (loa/nnue/accumulator.hpp).
    void make(Position& pos, Move m) const {
        if (net_)
            net_->make(pos, m);
        else
            pos.make(m);
    }
    void unmake(Position& pos, Move m) const {
        if (net_)
            net_->unmake(pos, m);
        else
            pos.unmake(m);
    }
    std::uint64_t key(const Position& pos) const { return pos.key(); }

    search::Status status(const Position& pos) const {
        const GameResult r = connection_result(pos, rules_);
        if (r.over()) {
            if (r.outcome == Outcome::Draw) return search::Status::Draw;
            return r.outcome == win_for(pos.side_to_move()) ? search::Status::Win : search::Status::Loss;
        }
        if (rules_.no_move != NoMoveRule::Pass && !has_real_move(pos))
            return rules_.no_move == NoMoveRule::Lose ? search::Status::Loss : search::Status::Draw;
        return search::Status::Ongoing;
    }
    bool repetition_draws() const { return rules_.repetition_draw; }

    int evaluate(const Position& pos) const {
        if (net_) return net_->evaluate(pos);
        return custom_ ? custom_(pos) : evaluator_.evaluate(pos);
    }
    const nnue::NetEvaluator* network() const { return net_ ? &*net_ : nullptr; }
    // The tapered evaluation's phase, clamp(pieces - 4, 0, 20): frontier margins taper with it.
    int phase(const Position& pos) const { return game_phase(pos); }

    // Level 1: every capture. Level 2 (MIA's rule): captures that create or break quads,
    // i.e. change either side's Euler numerator.
    bool is_quiescence_move(const Position& pos, Move m, int level) const {
        if (!m.is_capture()) return false;
        if (level <= 1) return true;
        Position after = pos;
        after.make(m);
        return after.euler_numerator(Colour::Black) != pos.euler_numerator(Colour::Black) ||
               after.euler_numerator(Colour::White) != pos.euler_numerator(Colour::White);
    }

    bool is_capture(Move m) const { return m.is_capture(); }
    // Captures that take a well-linked enemy piece, landing centrally, first.
    int capture_order(const Position& pos, Move m) const {
        const Bitboard around = neighbours(square_bb(m.to()));
        return 16 * popcount(around & pos.pieces(~pos.side_to_move())) + CentralisationTable[static_cast<std::size_t>(m.to())];
    }
    bool is_irreversible(Move m) const { return m.is_capture(); }
    int move_index(const Position& pos, Move m) const { return index(pos.side_to_move()) * FromToCount + m.from_to(); }

    Move null_move() const { return Move::pass(); }
    bool null_move_allowed(const Position& pos) const { return has_real_move(pos); }

    // The same evaluation under other rules: the engine's Rules option changes without its
    // evaluation's files being read again.
    void set_rules(RuleSet rules) { rules_ = rules; }

    // ERPS (common/search/realization.hpp): move categories and their learnt probabilities.
    void set_realization(RealizationProbabilities p) {
        realization_ = std::make_shared<const RealizationProbabilities>(std::move(p));
    }
    void clear_realization() { realization_.reset(); }
    int realization_category(const Position& pos, Move m) const { return loa::realization_category(pos, m); }
    std::span<const double> realization_probabilities() const {
        return realization_ ? std::span<const double>(realization_->probability) : std::span<const double>();
    }

    // One ply more when the move leaves its side two groups: one move from a possible win.
    int extension(const Position& pos, Move) const {
        return count_groups(pos.pieces(~pos.side_to_move())) == 2 ? 1 : 0;
    }

private:
    RuleSet rules_;
    Evaluator evaluator_;
    CustomEvaluation custom_;
    std::optional<nnue::NetEvaluator> net_;
    std::shared_ptr<const RealizationProbabilities> realization_;
};

static_assert(search::PhasedGame<SearchGame>);

}  // namespace loa
