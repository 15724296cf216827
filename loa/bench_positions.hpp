// The fixed position set of `loa bench`: plies 9 and 20 of the thesis games (Winands 2004,
// appendices E and F), middle-game positions with either side to move. Changing this list
// changes the bench signature.
#pragma once

#include <array>
#include <string_view>

namespace loa {

struct NamedPosition {
    std::string_view text;
    std::string_view origin;
};

inline constexpr std::array<NamedPosition, 30> BenchPositions = {{
    {"1b1bbb2/w6w/2b3bw/w1w4w/wb2b3/2bw3w/w3ww2/3b1bb1 w", "appendix_E_game1 ply 9"},
    {"8/4b2w/1bb3bw/2b1w3/wb2b3/2wwb2w/3www2/2bb2b1 b", "appendix_E_game1 ply 20"},
    {"1b1bbbb1/7w/w6w/w1b4w/w1wb3w/3b1b1w/7w/4b1b1 w", "appendix_E_game2 ply 9"},
    {"1b1b4/7w/3wwbbw/2w3bw/3bw1bw/3b1bbw/7w/8 b", "appendix_E_game2 ply 20"},
    {"3bbb2/7w/3ww3/w1b4w/2b4w/w3b2w/w6w/1b1bbb2 w", "appendix_E_game3 ply 9"},
    {"8/3b4/2bwww2/w1b1ww2/2b5/3ww3/wb2w3/3bbb2 b", "appendix_E_game3 ply 20"},
    {"1bbbbb2/7w/w3b3/w4w2/w2w1wbw/w2bwbbw/w7/2b3b1 w", "appendix_E_game4 ply 9"},
    {"1bb5/6b1/w4b2/w3wwb1/w1b1wwb1/3b1bbw/8/2w5 b", "appendix_E_game4 ply 20"},
    {"2b1b1b1/w3wwb1/wb2wb2/w7/w7/w2b2bw/w6w/2bbbb2 w", "appendix_E_game5 ply 9"},
    {"2bbb3/ww2w3/wb2wb2/w1bbb3/2w5/3w2b1/w5w1/3bb3 b", "appendix_E_game5 ply 20"},
    {"2bbbbb1/w6w/w4w2/w3bw2/w4wb1/w2bwbbw/w7/2b3b1 w", "appendix_E_game6 ply 9"},
    {"2b1b1b1/7w/3wwb2/w3bw2/1w1wbbb1/2bbw1b1/w5w1/6b1 b", "appendix_E_game6 ply 20"},
    {"2bbbbb1/w4w2/wb6/w6w/w3b3/w3b3/w4w1w/3b1bb1 w", "appendix_E_game7 ply 9"},
    {"2bb2b1/w7/wb1b4/ww6/w2bb1b1/w3b3/ww3w2/8 b", "appendix_E_game7 ply 20"},
    {"1b2b1b1/w7/w4b1w/w4b1w/w4b2/w6w/3wwb2/1bbbb1b1 w", "appendix_F_game1_incomplete ply 9"},
    {"1b6/w7/5bb1/w4w1w/w4w1w/2ww4/2bw1bb1/3bbbb1 b", "appendix_F_game1_incomplete ply 20"},
    {"3bbbb1/w4b1w/wb2b3/w7/w7/w3b3/w4w1w/3bbbb1 w", "appendix_F_game2 ply 9"},
    {"5bb1/4bb2/4b3/2w2w2/w7/wb1wb3/wb2b3/4bbb1 b", "appendix_F_game2 ply 20"},
    {"1bbbbbb1/2bww3/w3w2w/4b2w/wb5w/wb6/w6w/2b2b2 w", "appendix_F_game3 ply 9"},
    {"2bb2b1/2bww3/1w1wb1b1/4b2w/2w2w1w/1b6/w6w/8 b", "appendix_F_game3 ply 20"},
    {"3bbbb1/8/w1bbw1w1/w6w/wb1w3w/wb2b3/w6w/4bbb1 w", "appendix_F_game4 ply 9"},
    {"3b2b1/8/w1bbw1w1/wb1b4/wb1w4/wb2w2b/w3ww2/4bb2 b", "appendix_F_game4 ply 20"},
    {"1bb1b1b1/2ww3w/w6w/6bw/5b1w/w4bbw/2ww3w/1b1b1bb1 w", "appendix_F_game5 ply 9"},
    {"1bb5/2w1w3/7w/6bw/5bb1/wb1w1bb1/2wwwb2/3b1w1w b", "appendix_F_game5 ply 20"},
    {"1bbbbb2/7w/w6w/2w3bw/wb1w2bw/wb2w1b1/2w4w/2b2b2 w", "appendix_F_game6 ply 9"},
    {"2bb4/7w/2b4w/1bb1w1ww/1bb4w/1b2w1b1/4w2w/3b4 b", "appendix_F_game6 ply 20"},
    {"2bbb3/2w4w/w6w/1bbw3w/wb6/wb5w/w3ww2/2b1bbb1 w", "appendix_F_game7 ply 9"},
    {"3bb3/2w5/7w/1bww3w/wbb1b1w1/1w6/w3b3/4w3 b", "appendix_F_game7 ply 20"},
    {"1b2bbb1/w6w/wb5w/2b4w/7w/3w2bw/3w3w/1bbbbb2 w", "appendix_F_game8 ply 9"},
    {"4b3/3w1b1w/1b4ww/1bbw3w/5b1b/5bbw/7w/1bbb4 b", "appendix_F_game8 ply 20"},
}};

}  // namespace loa
