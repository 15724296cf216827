#!/usr/bin/env bash
# Rebuilds data/treesize-positions.txt, the shipped position set of the tree-size experiments:
# self-play games between four varied variants (round robin, generated openings, fixed nodes),
# then two distinct undecided positions from plies 10..40 of each game. Fully seeded.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
match="$root/build/release/matches/loa-match"
[ -x "$match" ] || bash "$root/scripts/build.sh" release
games="$(mktemp --suffix=.pgn)"
# The engines spell out the `full` of the day the file was made: the tuned weights and the
# frontier trio joined `full` later.
"$match" -q -j "$(nproc)" --seed 2026 --opening-plies 4 --games 24 --pgn "$games" \
  --engine name=full,preset=full,futility=off,ext_futility=off,razoring=off,eval=hand,nodes=8000 \
  --engine name=rhh,preset=pvs+tt+rhh,eval=hand,nodes=8000 \
  --engine name=hh-killers,preset=pvs+tt+hh+killers,eval=hand,nodes=8000 \
  --engine name=concentration,preset=full,futility=off,ext_futility=off,razoring=off,eval=concentration,nodes=8000 > /dev/null
{
  echo "# Tree-size position set: made by scripts/make-treesize-positions.sh (seed 2026)."
  "$match" positions --pgn "$games" --per-game 2 --min-ply 10 --max-ply 40 --seed 2026
} > "$root/data/treesize-positions.txt"
rm -f "$games"
echo "wrote $(grep -vc '^#' "$root/data/treesize-positions.txt") positions to data/treesize-positions.txt"
