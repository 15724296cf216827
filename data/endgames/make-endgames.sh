#!/usr/bin/env bash
# Remakes data/endgames/endgames.txt, the solver's endgame set (seeded, reproducible):
#  1. 300 self-play games at 20,000 nodes a move, the tuned (default) weights against the hand-picked ones,
#     from the shipped balanced openings;
#  2. up to two positions a game, 3 to 15 plies before the end of games won by connection;
#  3. each proven by PN² with 5,000,000 nodes; the proven ones are kept with their values.
# Usage: bash data/endgames/make-endgames.sh [BUILD_DIR]   (default build/release)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build/release}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The engines spell out the `full` of the day the file was made: the frontier trio joined `full`
# later (2026-11-26), and the network became the default evaluation later still (issue 57).
"$build/matches/loa-match" --engine name=tuned,preset=full,futility=off,ext_futility=off,razoring=off,eval=hce,nodes=20000 \
  --engine name=hand,preset=full,futility=off,ext_futility=off,razoring=off,nodes=20000,eval=hand --games 300 -j 2 \
  --openings "$root/data/openings/balanced-4-8.txt" --openings-order random --seed 2027 -q \
  --pgn "$work/games.pgn" --json "$work/games.json" --state "$work/games.state"
"$build/matches/loa-match" positions --pgn "$work/games.pgn" --before-end 3..15 --per-game 2 --seed 2027 \
  --out "$work/candidates.txt"
"$build/loa/loa" solve --set "$work/candidates.txt" --algo pn2 --nodes 5000000 --write "$work/solved.txt" | tail -1
{
  echo "# LOA endgame set for the proof-number solver, made by data/endgames/make-endgames.sh (seed 2027):"
  echo "# positions 3 to 15 plies before the end of self-play games won by connection, each with its"
  echo "# value for the side to move, proven by loa solve --algo pn2 --nodes 5000000."
  grep -v '^#' "$work/solved.txt"
} > "$root/data/endgames/endgames.txt"
