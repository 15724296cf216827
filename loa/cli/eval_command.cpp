#include <string>

#include <fmt/format.h>

#include "loa/cli/commands.hpp"
#include "loa/display.hpp"
#include "loa/evaluation.hpp"
#include "loa/game.hpp"
#include "loa/nnue/connectivity_inputs.hpp"
#include "loa/nnue/evaluator.hpp"
#include "loa/nnue/shipped.hpp"
#include "loa/notation.hpp"
#include "loa/position_text.hpp"

namespace loa::cli {

void add_eval_command(CLI::App& app) {
    struct Options {
        std::string position = "startpos";
        std::string moves;
        std::string weights;
        std::string net = "nnue";
        bool print_weights = false;
    };
    auto o = std::make_shared<Options>();
    CLI::App* cmd = app.add_subcommand("eval", "Static evaluation: the hand-written one's per-feature breakdown for both sides, then the network's total");
    cmd->add_option("-p,--position", o->position, "Position text, or startpos / eggs")->capture_default_str();
    cmd->add_option("-m,--moves", o->moves, "Moves to play first");
    cmd->add_option("-w,--weights", o->weights, "JSON weights file (missing keys keep the defaults)");
    cmd->add_option("-n,--net", o->net,
                    "Network whose evaluation is printed after the breakdown: nnue (the shipped one, the engine's "
                    "default evaluation), a .nnue file (docs/nnue.md), or none")
        ->capture_default_str();
    cmd->add_flag("--print-weights", o->print_weights, "Print the weights in use as JSON and exit");
    cmd->callback([o] {
        const EvalWeights weights = o->weights.empty() ? EvalWeights::full() : load_weights_file(o->weights);
        if (o->print_weights) {
            fmt::print("{}\n", weights_to_json(weights));
            return;
        }
        // The network is read first: a bad file is refused before anything is printed.
        const bool with_net = !o->net.empty() && o->net != "none";
        const bool shipped = o->net == "nnue";  // by name, as eval=nnue names it for the engine
        std::shared_ptr<const nnue::Network> net;
        if (with_net) net = shipped ? nnue::shipped_network() : nnue::load_network_file(o->net);
        Game game(position_from_argument(o->position));
        for (const std::string_view m : split_move_list(o->moves)) game.play(m);
        const Position& pos = game.position();
        const EvalBreakdown b = Evaluator(weights).breakdown(pos);
        fmt::print("{}position {}\n\n", diagram(pos), pos.to_text());
        const int phase = game_phase(pos);
        if (weights.tapered) fmt::print("tapered weights at phase {} of {} (opening {}, endgame 0)\n", phase, MaxPhase, MaxPhase);
        fmt::print("{:<16} {:>8} {:>8} {:>7} {:>9}\n", "feature", "black", "white", "weight", "term(stm)");
        for (int i = 0; i < FeatureCount; ++i) {
            const auto k = static_cast<std::size_t>(i);
            fmt::print("{:<16} {:>8} {:>8} {:>7} {:>9}\n", feature_name(static_cast<Feature>(i)),
                       b.features[index(Colour::Black)][k], b.features[index(Colour::White)][k], weight_at(weights, k, phase),
                       b.terms[k]);
        }
        fmt::print("{:<16} {:>8} {:>8} {:>7} {:>9}\n", "side_to_move", "", "", weights.side_to_move, b.side_to_move);
        fmt::print("total {} (for {}, centi-units)\n", b.total, colour_name(pos.side_to_move()));
        if (net) {
            const std::string name = shipped ? fmt::format("nnue ({})", nnue::shipped_network_name()) : o->net;
            fmt::print("\nnetwork {}: H {}, L {}{}, output scale {}{}, checksum {:016x}\n  {}\n", name, net->accumulator_size,
                       net->hidden_size, net->second_hidden_size ? fmt::format(", L2 {}", net->second_hidden_size) : std::string(),
                       net->output_scale,
                       (net->extra_inputs_set ? fmt::format(", {} connectivity inputs", net->extra_inputs()) : std::string()) +
                           (net->input_buckets_set ? fmt::format(", {} input buckets (set {})", net->input_buckets(), net->input_buckets_set)
                                                   : std::string()),
                       net->checksum, net->description);
            if (net->extra_inputs_set == nnue::ConnectivityInputsSet) {
                const auto c = nnue::connectivity_inputs(pos);
                fmt::print("connectivity inputs (0..127; {} first): groups {} / {}, euler {} / {}, concentration {} / {}, box {} / {}\n",
                           colour_name(pos.side_to_move()), c[0], c[4], c[1], c[5], c[2], c[6], c[3], c[7]);
            }
            // As the engine evaluates: NetEvaluator answers a board the net is not sized for with
            // the hand-written evaluation.
            const bool too_many = pos.count(Colour::Black) > nnue::MaxPiecesPerSide ||
                                  pos.count(Colour::White) > nnue::MaxPiecesPerSide;
            fmt::print("network total {} (for {}, centi-units{})\n", nnue::NetEvaluator(net).evaluate(pos),
                       colour_name(pos.side_to_move()),
                       too_many ? fmt::format("; more than {} pieces a side: the hand-written evaluation's with its default weights, as in the engine",
                                              nnue::MaxPiecesPerSide)
                                : "");
        }
    });
}

}  // namespace loa::cli
