#!/usr/bin/env bash
# Makes the realization probabilities data/rps/selfplay-1.json (docs/erps.md):
#   bash data/rps/make-rps.sh [LOA_MATCH] [WORKDIR] [JOBS]
# 1,000 self-play games between preset `full` at 8,000 and 12,000 nodes a move (two strengths,
# so that the two games of a pair differ) from the shipped balanced openings, then loa-match
# learn-rps over every position after each game's opening. Seeded and at fixed nodes: the same
# binary writes the same file. About 2 minutes with -j 1 on this machine.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
loa_match="${1:-$here/../../build/release/matches/loa-match}"
work="${2:-$here/../../out/rps-1}"
jobs="${3:-2}"
mkdir -p "$work"
# The engines spell out the `full` of the day the file was made: the frontier trio joined `full`
# later (2026-11-26), and the network became the default evaluation later still (issue 57).
"$loa_match" --engine name=a,preset=full,futility=off,ext_futility=off,razoring=off,eval=hce,nodes=8000 --engine name=b,preset=full,futility=off,ext_futility=off,razoring=off,eval=hce,nodes=12000 --games 1000 -j "$jobs" \
  --openings "$here/../openings/balanced-4-8.txt" --openings-order random --seed 12 -q --report-every 250 \
  --pgn "$work/selfplay.pgn" --json "$work/selfplay.json"
"$loa_match" learn-rps "$work/selfplay.pgn" --out "$here/selfplay-1.json"
