#include "matches/plot.hpp"

#include <spawn.h>
#include <unistd.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "matches/own_files.hpp"

extern "C" char** environ;  // (unistd.h declares it only with _GNU_SOURCE)

namespace matches {

namespace {

bool gnuplot_on_path() {
    const char* path = std::getenv("PATH");
    for (const std::string_view dir : common::split(path ? path : "", ':'))
        if (!dir.empty() && ::access((std::string(dir) + "/gnuplot").c_str(), X_OK) == 0) return true;
    return false;
}

// Several pairings (a gauntlet, an ablation): one row per pairing, its Elo with the 95%
// interval of the summary (pentanomial when there are pairs), so that the pairings compare at a
// glance. A gauntlet's rows read from each variant's side against the base (an ablation's
// "what switching this off costs"); a round robin's from the first engine's.
void write_pairings_plot(const MatchSettings& s, const MatchResult& r, const std::string& png_path) {
    const bool gauntlet = s.format == Format::Gauntlet;
    const std::string data_path = png_path + ".dat";
    {
        std::ostringstream data;
        data << own::PlotDataMark << "row elo elo_low elo_high games label\n";
        int row = 0;
        for (auto it = r.pairings.rbegin(); it != r.pairings.rend(); ++it) {  // the first pairing on top
            const EloEstimate e = it->pairs.pairs() ? estimate(it->pairs, it->games) : estimate(it->games);
            const std::string& first = s.engines[static_cast<std::size_t>(it->first)].name;
            const std::string& second = s.engines[static_cast<std::size_t>(it->second)].name;
            const std::string label = gauntlet ? second + " vs " + first : first + " vs " + second;
            const double sign = gauntlet ? -1 : 1;
            const double low = sign > 0 ? e.elo_low : -e.elo_high, high = sign > 0 ? e.elo_high : -e.elo_low;
            data << fmt::format("{} {:.2f} {:.2f} {:.2f} {} \"{} ({} games)\"\n", row++, std::clamp(sign * e.elo, -800.0, 800.0),
                                std::clamp(low, -800.0, 800.0), std::clamp(high, -800.0, 800.0), it->games.games(), label,
                                it->games.games());
        }
        common::replace_file(data_path, data.str(), own::plot_data());
    }
    const std::string script_path = png_path + ".gp";
    {
        std::ostringstream gp;
        const int height = std::max(300, 120 + 40 * static_cast<int>(r.pairings.size()));
        gp << own::PlotScriptMark << "set terminal pngcairo noenhanced size 900," << height << " font 'sans,10'\n";
        gp << "set output " << gnuplot_string(png_path) << "\n";
        gp << (gauntlet ? "set title 'Elo of each engine against the base, with 95% interval'\n"
                        : "set title 'Elo of the first engine of each pairing, with 95% interval'\n")
           << "set xlabel 'Elo'\nset grid x\n";
        gp << fmt::format("set yrange [-0.5:{}.5]\nset ytics scale 0\nset key off\n", r.pairings.size() - 1);
        gp << "set arrow from 0, graph 0 to 0, graph 1 nohead linecolor rgb 'gray'\n";
        gp << "plot " << gnuplot_string(data_path)
           << " using 2:1:3:4:ytic(6) with xerrorbars pointtype 7 pointsize 1 linecolor rgb '#08519c'\n";
        common::replace_file(script_path, gp.str(), own::plot_script());
    }
    run_gnuplot(script_path);
}

}  // namespace

void check_plot_outputs(const std::string& png_path) {
    const auto refuse = [&](const std::string& path, const std::string& why) {
        return common::InputError(fmt::format("--plot '{}': {} {}; it is left as it is (choose another --plot)", png_path, path, why));
    };
    const std::pair<std::string, common::Ownership> outputs[] = {
        {png_path, own::picture()}, {png_path + ".dat", own::plot_data()}, {png_path + ".gp", own::plot_script()}};
    for (const auto& [path, owner] : outputs) {
        std::error_code error;
        const auto status = std::filesystem::symlink_status(path, error);
        if (std::filesystem::exists(status)) {
            if (std::filesystem::is_symlink(status)) throw refuse(path, "is a symbolic link");
            if (!std::filesystem::is_regular_file(status)) throw refuse(path, "is not a regular file");
            // A file that is not a picture or a plot's own file is a user's: never replaced.
            if (std::filesystem::file_size(path, error) > 0 && !owner.ours(common::file_head(path)))
                throw refuse(path, fmt::format("is not {}", owner.what));
        }
        const std::filesystem::path parent = std::filesystem::path(path).parent_path();
        const std::filesystem::path dir = parent.empty() ? std::filesystem::path(".") : parent;
        if (!std::filesystem::is_directory(dir, error))
            throw refuse(path, fmt::format("cannot be written: no directory '{}'", dir.string()));
        if (::access(dir.c_str(), W_OK) != 0)
            throw refuse(path, fmt::format("cannot be written: directory '{}' is not writable", dir.string()));
    }
    if (!gnuplot_on_path()) throw common::InputError("--plot: gnuplot is not installed (apt-get install gnuplot-nox)");
}

void write_plot(const MatchSettings& s, const MatchResult& r, const std::string& png_path) {
    check_plot_outputs(png_path);  // again: the files may have changed during the run
    if (r.pairings.empty() || r.games.empty()) throw common::InputError("plot: no games to plot");
    if (r.pairings.size() > 1) return write_pairings_plot(s, r, png_path);
    const PairingStats& first = r.pairings.front();
    const std::string first_name = s.engines[static_cast<std::size_t>(first.first)].name;
    const int per_round = static_cast<int>(r.pairings.size());
    const std::string data_path = png_path + ".dat";
    {
        std::ostringstream data;
        // One point per whole game pair, at the games those pairs hold: the summary's pentanomial
        // interval and the SPRT's LLR, both on whole pairs, so that the plot at game N is what
        // the run reported at game N. The games are replayed in the order the run counted them
        // (the JSON's counting_order), the order its SPRT decided in; without one (merged
        // shards), in schedule order.
        data << own::PlotDataMark << "games elo elo_low elo_high llr   (after each whole game pair; games replayed in "
             << (r.counting_order.empty() ? "schedule order" : "the order the run counted them") << ")\n";
        std::map<int, const GameRecord*> by_index;
        for (const GameRecord& g : r.games) by_index[g.index] = &g;
        std::vector<const GameRecord*> order;
        for (const int index : r.counting_order)
            if (const auto it = by_index.find(index); it != by_index.end()) order.push_back(it->second);
        if (order.size() != r.games.size()) {  // no order recorded, or not for these games
            order.clear();
            for (const GameRecord& g : r.games) order.push_back(&g);
        }
        PairingStats running;
        running.first = first.first;
        running.second = first.second;
        std::vector<GameRecord> pending;
        for (const GameRecord* g : order) {
            if (g->pair % per_round != 0) continue;  // the first pairing only
            const auto pairs_before = running.pairs.pairs();
            add_game(running, *g, first_name, pending);
            if (running.pairs.pairs() == pairs_before) continue;  // the pair's first game
            const EloEstimate e = estimate(running.pairs, running.games);
            const double llr = s.sprt ? sprt_llr(running.pairs, *s.sprt) : 0.0;
            data << fmt::format("{} {:.2f} {:.2f} {:.2f} {:.4f}\n", 2 * running.pairs.pairs(), std::clamp(e.elo, -800.0, 800.0),
                                std::clamp(e.elo_low, -800.0, 800.0), std::clamp(e.elo_high, -800.0, 800.0), llr);
        }
        common::replace_file(data_path, data.str(), own::plot_data());
    }
    const std::string script_path = png_path + ".gp";
    {
        std::ostringstream gp;
        gp << own::PlotScriptMark << "set terminal pngcairo noenhanced size 900," << (s.sprt ? 700 : 420) << " font 'sans,10'\n";
        gp << "set output " << gnuplot_string(png_path) << "\n";
        if (s.sprt) gp << "set multiplot layout 2,1\n";
        gp << "set title "
           << gnuplot_string(first_name + " vs " + s.engines[static_cast<std::size_t>(first.second)].name +
                             ": Elo with 95% interval (game pairs, as the summary)")
           << "\nset xlabel 'games (whole pairs)'\nset ylabel 'Elo'\nset grid\nset key top right\n";
        gp << "plot " << gnuplot_string(data_path) << " using 1:3:4 with filledcurves fillcolor rgb '#c6dbef' title '95% interval', "
           << "'' using 1:2 with lines linewidth 2 linecolor rgb '#08519c' title 'Elo', 0 with lines linecolor rgb 'gray' notitle\n";
        if (s.sprt) {
            gp << fmt::format("set title 'SPRT log-likelihood ratio'\nset ylabel 'LLR'\nset yrange [{:.2f}:{:.2f}]\n", s.sprt->lower_bound() - 0.5, s.sprt->upper_bound() + 0.5);
            gp << fmt::format("plot {} using 1:5 with lines linewidth 2 linecolor rgb '#a50f15' title 'LLR', {:.4f} with lines "
                              "dashtype 2 linecolor rgb 'black' title 'bounds', {:.4f} with lines dashtype 2 linecolor rgb 'black' notitle\n",
                              gnuplot_string(data_path), s.sprt->lower_bound(), s.sprt->upper_bound());
            gp << "unset multiplot\n";
        }
        common::replace_file(script_path, gp.str(), own::plot_script());
    }
    run_gnuplot(script_path);
}

std::string gnuplot_string(std::string_view text) {
    std::string out = "'";
    for (const char c : text) {
        out += c;
        if (c == '\'') out += '\'';
    }
    return out + "'";
}

void run_gnuplot(const std::string& script_path) {
    // Run directly, not through a shell: a quote in a path is only a character of it.
    std::vector<char*> argv = {const_cast<char*>("gnuplot"), const_cast<char*>(script_path.c_str()), nullptr};
    pid_t child = 0;
    int status = 0;
    if (::posix_spawnp(&child, "gnuplot", nullptr, nullptr, argv.data(), environ) != 0 || ::waitpid(child, &status, 0) != child ||
        !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw common::InputError("plot: gnuplot failed or is missing (apt-get install gnuplot-nox)");
}

}  // namespace matches
