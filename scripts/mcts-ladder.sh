#!/usr/bin/env bash
# The published MCTS ladder in LOA (Winands, Björnsson and Saito), replayed with the match
# runner (issue 59): plain MCTS, MCTS-Solver, + evaluation cut-off play-outs, + alpha-beta
# play-outs (MC-LOAab), each against the one below it, then each against the default
# alpha-beta engine (full). One loa-match run a row, at one time control, from the balanced
# openings in random order, each row resumable (run the script again with the same arguments).
# Usage: bash scripts/mcts-ladder.sh [--tc stc|ltc|B+I] [--games N] [--games-vs-full M]
#                                    [--jobs J] [--out DIR] [--only ROW]
# Defaults: stc, 100 games a ladder row, 40 a row against full, 2 jobs, out/mcts-ladder/<tc>.
# Rows: solver-vs-plain cutoff-vs-solver ab-vs-cutoff plain-vs-full solver-vs-full cutoff-vs-full
# ab-vs-full. Each writes ROW.json (the match's result), ROW.pgn and ROW.log; summary.txt lists
# the verdict lines. A row whose ROW.json exists is skipped; an interrupted row resumes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tc=stc
games=100
games_vs_full=40
jobs=2
out=""
only=""
while (( $# )); do
  case "$1" in
    --tc) tc="$2"; shift 2 ;;
    --games) games="$2"; shift 2 ;;
    --games-vs-full) games_vs_full="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "mcts-ladder.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
loa_match="${LOA_MATCH:-$root/build/release/matches/loa-match}"
[[ -x "$loa_match" ]] || { echo "mcts-ladder.sh: no match runner at $loa_match (build first, or set LOA_MATCH)" >&2; exit 2; }
out="${out:-$root/out/mcts-ladder/$tc}"
mkdir -p "$out"

declare -A variant=(
  [plain]="preset=mcts,mcts_solver=off,playout=random"
  [solver]="preset=mcts,playout=random"
  [cutoff]="preset=mcts,playout=cutoff"
  [ab]="preset=mcts,playout=ab"
  [full]="preset=full"
)
rows=(solver-vs-plain cutoff-vs-solver ab-vs-cutoff plain-vs-full solver-vs-full cutoff-vs-full ab-vs-full)

seed=59
for row in "${rows[@]}"; do
  seed=$((seed + 1))
  [[ -z "$only" || "$only" == "$row" ]] || continue
  # A finished row (its result written) is kept: delete ROW.json to play it again.
  if [[ -f "$out/$row.json" ]]; then echo "== $row: done ($out/$row.json)"; continue; fi
  test="${row%%-vs-*}" base="${row##*-vs-}"
  n=$games
  [[ "$base" == full ]] && n=$games_vs_full
  echo "== $row: $n games at $tc ($(date -u +%H:%M:%S))"
  "$loa_match" --test "name=$test,${variant[$test]}" --base "name=$base,${variant[$base]}" --tc "$tc" \
    --openings "$root/data/openings/balanced-4-8.txt" --openings-order random --seed "$seed" --games "$n" -j "$jobs" \
    --report-every 20 --json "$out/$row.json" --pgn "$out/$row.pgn" 2>&1 | tee -a "$out/$row.log" | grep -E '^(Verdict|  Verdict|  Elo|  Pentanomial)' || true
done
grep -h 'Verdict' "$out"/*.log | sort -u > "$out/summary.txt" || true
cat "$out/summary.txt"
