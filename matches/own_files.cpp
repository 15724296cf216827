#include "matches/own_files.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "common/files.hpp"
#include "common/text.hpp"
#include "loa/position.hpp"

namespace matches::own {
namespace {

std::string_view skip_space(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\n' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
    return s;
}

bool starts_with_any(std::string_view head, const std::vector<std::string_view>& marks) {
    return std::any_of(marks.begin(), marks.end(), [&](std::string_view m) { return head.starts_with(m); });
}

}  // namespace

common::Ownership json_first_key(std::string_view what, std::string_view key) {
    return {what, [key](std::string_view head) {
                head = skip_space(head);
                if (!head.starts_with('{')) return false;
                head = skip_space(head.substr(1));
                return head.starts_with('"') && head.substr(1).starts_with(key) && head.substr(1 + key.size()).starts_with('"');
            }};
}

common::Ownership result_json() { return json_first_key("a loa-match result", "event"); }

common::Ownership weights_file() { return json_first_key("evaluation weights", "concentration"); }
common::Ownership realization_file() { return json_first_key("realization probabilities", "format"); }
common::Ownership margins_json() { return json_first_key("a loa-match margins result", "positions"); }
common::Ownership spsa_json() { return json_first_key("a loa-match SPSA result", "engine"); }
common::Ownership operator_game() { return json_first_key("a web board operator's game", "loa_operator_game"); }
common::Ownership datagen_counts() { return json_first_key("datagen counts", "adjudicated"); }

common::Ownership state_file() {
    // Its first line is the settings object, which begins with the engines (a run killed as it
    // began may have written only the start of it).
    return {"a loa-match state file", [](std::string_view head) {
                constexpr std::string_view prefix = "{\"engines\":";
                return head.starts_with(prefix) || (!head.empty() && prefix.starts_with(head));
            }};
}

common::Ownership live_file() { return json_first_key("a loa-match file of games in play", "games"); }

common::Ownership positions_file() {
    return {"a file of positions (one position text a line)", [](std::string_view head) {
                // Every whole line of the head is a position (the last may be cut by the head).
                std::size_t lines = 0;
                while (!head.empty()) {
                    const auto end = head.find('\n');
                    if (end == std::string_view::npos) break;
                    try {
                        (void)loa::Position::from_text(common::trim(head.substr(0, end)));
                    } catch (const common::InputError&) {
                        return false;
                    }
                    ++lines;
                    head.remove_prefix(end + 1);
                }
                return lines > 0;
            }};
}

common::Ownership openings_file() {
    return {"a file of openings made by loa-match openings", [](std::string_view head) {
                return head.starts_with("# ") && head.substr(0, head.find('\n')).find("LOA openings") != std::string_view::npos;
            }};
}

common::Ownership treesize_output() {
    return {"a loa-match treesize output", [](std::string_view head) {
                const std::string_view json = skip_space(head);
                return json.starts_with("{") ? json.find("\"variants\"") != std::string_view::npos || json.find("\"runs\"") != std::string_view::npos
                                             : head.starts_with("variant,") || head.starts_with("depth,");
            }};
}

common::Ownership plot_data() {
    return {"a loa-match plot's data", [](std::string_view head) {
                return starts_with_any(head, {PlotDataMark, "# games elo ", "# row elo ", "# depth ", "# iteration "});
            }};
}

common::Ownership plot_script() {
    return {"a loa-match plot's script", [](std::string_view head) {
                return starts_with_any(head, {PlotScriptMark, "set terminal pngcairo "});
            }};
}

common::Ownership picture() {
    return {"a PNG picture", [](std::string_view head) { return head.starts_with("\x89PNG\r\n\x1a\n"); }};
}

}  // namespace matches::own
