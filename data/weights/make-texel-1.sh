#!/usr/bin/env bash
# Makes the tuned weights data/weights/texel-1.json (docs/evaluation.md, "Tuned weights"):
#   bash data/weights/make-texel-1.sh [LOA_MATCH] [WORKDIR]
# 4,000 self-play games between preset `full` at 8,000 and 12,000 nodes a move (two strengths,
# so that the two games of a pair differ) from the shipped balanced openings, then Texel's method
# on every quiet position from ply 4 on, tapered weights, groups frozen at 0 (it adds nothing
# that quads do not: held-out cross-entropy 0.59677 with it, 0.59656 without, and it costs a
# flood fill per evaluation). Seeded and at fixed nodes: the same binary writes the same file.
# Takes about 15 minutes with -j 2.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
loa_match="${1:-$here/../../build/release/matches/loa-match}"
work="${2:-$here/../../out/texel-1}"
mkdir -p "$work"
# The engines spell out the `full` of the day the file was made: the tuned weights and the
# frontier trio joined `full` later.
"$loa_match" --engine name=a,preset=full,futility=off,ext_futility=off,razoring=off,eval=hand,nodes=8000 --engine name=b,preset=full,futility=off,ext_futility=off,razoring=off,eval=hand,nodes=12000 --games 4000 -j 2 \
  --openings "$here/../openings/balanced-4-8.txt" --openings-order random --seed 11 -q --report-every 1000 \
  --pgn "$work/selfplay.pgn" --json "$work/selfplay.json"
"$loa_match" tune "$work/selfplay.pgn" --freeze groups --seed 1 --out "$here/texel-1.json"
