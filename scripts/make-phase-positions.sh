#!/usr/bin/env bash
# Rebuilds data/treesize/{opening,middle,endgame}.txt, the position sets of the history study
# by game phase ("Experiments II"): new self-play games (seed 2116, not the games of
# data/treesize-positions.txt, so that findings made on that set can be checked on these),
# between the same four varied variants at fixed nodes, then from each game
#   opening: one position from plies 4..10 (right after the random opening plies),
#   middle:  one position from plies 12..40,
#   endgame: one position 6..16 plies before the end of decided games.
# Fully seeded; fixed nodes, so the games do not depend on the machine's speed.
# Usage: bash scripts/make-phase-positions.sh [BUILD_DIR]   (default build/release)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build/release}"
match="$build/matches/loa-match"
[ -x "$match" ] || { echo "make-phase-positions: no $match (bash scripts/build.sh release)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# The engines spell out the `full` of the day the file was made: the frontier trio joined `full`
# later (2026-11-26), and the network became the default evaluation later still (issue 57).
"$match" -q -j "$(nproc)" --seed 2116 --opening-plies 4 --games 40 --pgn "$work/games.pgn" --state "$work/games.state" \
  --engine name=full,preset=full,futility=off,ext_futility=off,razoring=off,eval=hce,nodes=8000 \
  --engine name=rhh,preset=pvs+tt+rhh,eval=hce,nodes=8000 \
  --engine name=hh-killers,preset=pvs+tt+hh+killers,eval=hce,nodes=8000 \
  --engine name=hand-weights,preset=full,futility=off,ext_futility=off,razoring=off,eval=hand,nodes=8000 > /dev/null
mkdir -p "$root/data/treesize"
write_set() {  # name, description, positions arguments...
  local name="$1" what="$2"; shift 2
  {
    echo "# Tree-size position set, $what: made by scripts/make-phase-positions.sh (seed 2116)."
    "$match" positions --pgn "$work/games.pgn" --per-game 1 --seed 2116 "$@"
  } > "$root/data/treesize/$name.txt"
  echo "wrote $(grep -vc '^#' "$root/data/treesize/$name.txt") positions to data/treesize/$name.txt"
}
write_set opening "opening (plies 4..10)" --min-ply 4 --max-ply 10
write_set middle "middle game (plies 12..40)" --min-ply 12 --max-ply 40
write_set endgame "endgame (6..16 plies before the end of a decided game)" --before-end 6..16
