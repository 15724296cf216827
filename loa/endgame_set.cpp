#include "loa/endgame_set.hpp"

#include <fmt/format.h>

#include "common/files.hpp"
#include "common/text.hpp"
#include "loa/error.hpp"
#include "loa/position_text.hpp"

namespace loa {

solver::Value parse_proven_value(std::string_view text) {
    if (text == "win") return solver::Value::Win;
    if (text == "loss") return solver::Value::Loss;
    if (text == "draw") return solver::Value::Draw;
    throw InputError(fmt::format("'{}' is not a proven value (win, loss or draw)", text));
}

EndgamePosition parse_endgame_line(std::string_view line) {
    line = common::trim(line);
    // The position is "board side"; a third word is the value.
    const std::size_t first_space = line.find(' ');
    const std::size_t second_space = first_space == std::string_view::npos ? first_space : line.find(' ', first_space + 1);
    EndgamePosition entry{parse_position(line.substr(0, second_space)), std::nullopt};
    if (second_space != std::string_view::npos) entry.value = parse_proven_value(common::trim(line.substr(second_space + 1)));
    return entry;
}

std::string format_endgame_line(const EndgamePosition& entry) {
    std::string line = position_to_text(entry.position);
    if (entry.value) line += fmt::format(" {}", solver::to_string(*entry.value));
    return line;
}

std::vector<EndgamePosition> load_endgame_set(const std::string& path) {
    common::FileReader reader(path, common::MaxListFile, "endgame set");
    std::istream& in = reader.stream();
    std::vector<EndgamePosition> out;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        const std::string_view text = common::trim(line);
        if (text.empty() || text.front() == '#') continue;
        try {
            out.push_back(parse_endgame_line(text));
        } catch (const InputError& e) {
            throw InputError(fmt::format("{} line {}: {}", path, number, e.what()));
        }
    }
    reader.check();
    if (out.empty()) throw InputError(fmt::format("'{}' holds no position", path));
    return out;
}

}  // namespace loa
