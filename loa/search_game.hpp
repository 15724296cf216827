// Lines of Action as a model of search::Game: the only place where the search core and the
// game meet.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "loa/evaluation.hpp"
#include "loa/nnue/evaluator.hpp"
#include "loa/nnue/shipped.hpp"
#include "loa/realization.hpp"
#include "loa/search_rules.hpp"
#include "loa/simple_eval.hpp"

namespace loa {

// The evaluation the engine plays with when none is named (loa's engine, `loa bench` and
// `loa analyze`, loa-match's in-process engines): the network, since its SPRTs accepted at stc
// and ltc (docs/strength.md rows 21 and 22). "hce" names the hand-written one.
inline constexpr std::string_view DefaultEval = "nnue";

class SearchGame : public SearchRules {
public:
    using CustomEvaluation = std::function<int(const Position&)>;

    explicit SearchGame(RuleSet rules = {}, Evaluator evaluator = Evaluator{}) : SearchRules(rules), evaluator_(evaluator) {}
    // The learned evaluation (docs/nnue.md).
    SearchGame(RuleSet rules, std::shared_ptr<const nnue::Network> net) : SearchRules(rules), net_(nnue::NetEvaluator(std::move(net))) {}
    // Any evaluation function (tests, experiments).
    SearchGame(RuleSet rules, CustomEvaluation custom) : SearchRules(rules), custom_(std::move(custom)) {}
    // The placeholder material-and-centralisation evaluation, kept as a baseline.
    static SearchGame with_simple_evaluation(RuleSet rules = {}) {
        return SearchGame(rules, CustomEvaluation(simple_evaluate));
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
        if (eval_spec == "material") return SearchGame(rules, CustomEvaluation(loa::material_evaluate));
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

    const Evaluator& evaluator() const { return evaluator_; }

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

    int evaluate(const Position& pos) const {
        if (net_) return net_->evaluate(pos);
        return custom_ ? custom_(pos) : evaluator_.evaluate(pos);
    }
    const nnue::NetEvaluator* network() const { return net_ ? &*net_ : nullptr; }

    // ERPS (common/search/realization.hpp): move categories and their learnt probabilities.
    void set_realization(RealizationProbabilities p) {
        realization_ = std::make_shared<const RealizationProbabilities>(std::move(p));
    }
    void clear_realization() { realization_.reset(); }
    int realization_category(const Position& pos, Move m) const { return loa::realization_category(pos, m); }
    std::span<const double> realization_probabilities() const {
        return realization_ ? std::span<const double>(realization_->probability) : std::span<const double>();
    }

private:
    Evaluator evaluator_;
    CustomEvaluation custom_;
    std::optional<nnue::NetEvaluator> net_;
    std::shared_ptr<const RealizationProbabilities> realization_;
};

static_assert(search::PhasedGame<SearchGame> && search::has_phase<SearchGame>);
static_assert(search::RealizationGame<SearchGame> && search::has_realization<SearchGame>);
// Quiescence generates captures alone (search_rules.hpp): kept by the adapters built on the rules.
static_assert(search::has_capture_generator<SearchGame>);

}  // namespace loa
