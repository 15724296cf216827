#!/usr/bin/env bash
# Remakes data/margins/positions.txt, the position set that calibrates the frontier margins
# (loa-match margins; seeded, reproducible):
#  1. 400 self-play games of the default engine at 20,000 nodes a move from the shipped balanced openings;
#  2. three positions a game from plies 4 to 200, and one 2 to 12 plies before the end of each
#     game won by connection (so that the sparse endgame, where the margins matter most, is there).
# Usage: bash data/margins/make-positions.sh [BUILD_DIR]   (default build/release)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build/release}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The engines spell out the `full` of the day the file was made: the frontier trio joined `full`
# later (2026-11-26), and the network became the default evaluation later still (issue 57).
"$build/matches/loa-match" --engine name=a,preset=full,futility=off,ext_futility=off,razoring=off,eval=hce,nodes=20000 --engine name=b,preset=full,futility=off,ext_futility=off,razoring=off,eval=hce,nodes=20000 \
  --games 400 -j 2 --openings "$root/data/openings/balanced-4-8.txt" --openings-order random --seed 2124 -q \
  --pgn "$work/games.pgn" --json "$work/games.json" --state "$work/games.state"
"$build/matches/loa-match" positions --pgn "$work/games.pgn" --per-game 3 --min-ply 4 --max-ply 200 --seed 2124 \
  --out "$work/games-positions.txt"
"$build/matches/loa-match" positions --pgn "$work/games.pgn" --per-game 1 --before-end 2..12 --seed 2124 \
  --out "$work/endgame-positions.txt"
{
  echo "# Frontier-margin calibration set, made by data/margins/make-positions.sh (seed 2124): three positions"
  echo "# a game from 400 self-play games of the default engine (20,000 nodes a move), and one 2 to 12 plies"
  echo "# before the end of each game won by connection."
  grep -hv '^#' "$work/games-positions.txt" "$work/endgame-positions.txt" | awk '!seen[$0]++'
} > "$root/data/margins/positions.txt"
wc -l "$root/data/margins/positions.txt"
