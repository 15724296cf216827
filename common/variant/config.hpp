// VariantConfig: what a variant string names, the same in the engine, the match runner and the
// experiments: the searcher (the alpha-beta core or Monte Carlo tree search) and its switches,
// e.g. "preset=pvs+tt,killers=2,history=relative,hh_inc=1,bf_inc=1,null=adaptive" or
// "preset=mcts,playout=ab". A preset is a '+'-joined list of feature tokens on top of plain
// iterative-deepening alpha-beta (ab); the other keys override single switches (keys.hpp).
//
// The variant layer sits above both searchers: search/ and mcts/ know nothing of it, and
// searcher.hpp builds the one a variant names.
#pragma once

#include <string>
#include <string_view>

#include "common/mcts/config.hpp"
#include "common/search/config.hpp"

namespace variant {

enum class Algorithm { AlphaBeta, Mcts };

// The alpha-beta switches (the base: what search::Searcher reads), the searcher, and MCTS's
// settings. A variant's text lists only the keys of its algorithm; `threads`, `timeman` and the
// time manager's keys serve both.
struct VariantConfig : search::SearchConfig {
    Algorithm algorithm = Algorithm::AlphaBeta;
    mcts::MctsConfig mcts;
    friend bool operator==(const VariantConfig&, const VariantConfig&) = default;
};

// Parses a variant string; throws common::InputError naming an unknown key or a bad value.
VariantConfig parse_variant(std::string_view spec);
// Applies one key=value to `config`; returns false when `key` is not a variant key (so that
// callers can mix their own keys into the same string). Throws on a bad value.
bool apply_variant_key(VariantConfig& config, std::string_view key, std::string_view value);
// A preset by name ("ab", "pvs+tt+rhh", "full", "mcts", ...); throws on an unknown token.
VariantConfig preset_variant(std::string_view preset);
// Canonical text listing every switch: parse_variant(to_string(c)) == c for every c that
// parse_variant returned (one built key by key with apply_variant_key may hold what the parser
// refuses as a whole, e.g. solver_score with the solver off: a UCI GUI sends keys one by one).
std::string to_string(const VariantConfig& config);
// The preset and the keys that differ from it, as a person writes it: "full,history=absolute".
std::string preset_and_changes(const VariantConfig& config);

// The alpha-beta switches of a variant that must be alpha-beta: the tools that measure the
// alpha-beta tree itself (tree sizes, margins, the bench signature) refuse MCTS with this.
const search::SearchConfig& alpha_beta(const VariantConfig& config);

// The memory, in MB, that the searcher's tables claim: search::table_memory_mb for alpha-beta;
// for MCTS, the tree at its cap and the map that moves a reused subtree (4 bytes a node of 32).
double table_memory_mb(const VariantConfig& config);
inline double mcts_memory_mb(const mcts::MctsConfig& m) { return m.tree_mb * (m.reuse ? 1.125 : 1.0); }
// The same, said: "memory 48 MB: hash 16 MB + eval cache 1 MB x 32 threads".
std::string table_memory_text(const VariantConfig& config);

}  // namespace variant
