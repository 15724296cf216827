#!/usr/bin/env bash
# Makes the shipped openings of strength tests (docs/strength.md):
#   bash data/openings/make-openings.sh [LOA_MATCH]
# 2,400 distinct positions (also under mirror images) after 4-8 random plies from the standard
# start, each kept when a depth-6 search of preset `full` scores it within +-50 centi-units
# (half a group). Seeded: the same binary writes the same file.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
loa_match="${1:-$here/../../build/release/matches/loa-match}"
"$loa_match" openings --count 2400 --plies 4..8 --depth 6 --margin 50 --seed 2026 --out "$here/balanced-4-8.txt"
