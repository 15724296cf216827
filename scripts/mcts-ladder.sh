#!/usr/bin/env bash
# The published MCTS ladder in LOA (Winands, Björnsson and Saito), replayed with the match
# runner (issue 59): plain MCTS, MCTS-Solver, + evaluation cut-off play-outs, + alpha-beta
# play-outs (MC-LOAab), each against the one below it, then each against the default
# alpha-beta engine (full). One loa-match run a row, at one time control, from the balanced
# openings in random order, each row resumable (run the script again with the same arguments).
# Usage: bash scripts/mcts-ladder.sh [--tc stc|ltc|B+I] [--games N] [--games-vs-full M]
#                                    [--jobs J] [--out DIR] [--only ROW] [--odds "N1 N2 ..."] [--threads]
# Defaults: stc, 100 games a ladder row, 40 a row against full, 2 jobs, out/mcts-ladder/<tc>.
# Rows: solver-vs-plain cutoff-vs-solver ab-vs-cutoff plain-vs-full solver-vs-full cutoff-vs-full
# ab-vs-full. Each writes ROW.json (the match's result), ROW.pgn and ROW.log; summary.txt lists
# the verdict lines. A row whose ROW.json exists is skipped; an interrupted row resumes.
# --odds: how far is MCTS from alpha-beta when it loses every game? Rows cutoff-vs-fullN: the
# cut-off MCTS on the clock against full limited to N nodes a move and no clock (M games each);
# their seeds follow the list's order, so resume with the same list.
# --threads: does tree parallelism pay on two cores? Rows solver2-vs-solver, cutoff2-vs-cutoff,
# ab2-vs-ab: each policy on two threads sharing its tree against itself on one (N games each,
# one game at a time so that the two threads have the two cores).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tc=stc
games=100
games_vs_full=40
jobs=2
out=""
only=""
odds=""
threads=0
while (( $# )); do
  case "$1" in
    --tc) tc="$2"; shift 2 ;;
    --games) games="$2"; shift 2 ;;
    --games-vs-full) games_vs_full="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    --odds) odds="$2"; shift 2 ;;
    --threads) threads=1; shift ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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
for n in $odds; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "mcts-ladder.sh: --odds takes node counts, not '$n'" >&2; exit 2; }
  variant[full$n]="preset=full,nodes=$n"
  rows+=("cutoff-vs-full$n")
done

declare -A row_seed=()  # rows whose seed does not depend on the list before them
if (( threads )); then
  for policy in solver cutoff ab; do
    variant[${policy}2]="${variant[$policy]},threads=2"
    rows+=("${policy}2-vs-$policy")
  done
  row_seed=([solver2-vs-solver]=91 [cutoff2-vs-cutoff]=92 [ab2-vs-ab]=93)
fi

# The ladder of docs/experiments.md section 7 was played with the hand-written evaluation, the
# default then: pinned, so that its rows resume and compare with the ones played since.
for k in "${!variant[@]}"; do variant[$k]+=",eval=hce"; done

if [[ -n "$only" ]] && ! printf '%s\n' "${rows[@]}" | grep -qx -- "$only"; then
  echo "mcts-ladder.sh: no row '$only' (rows: ${rows[*]}; odds rows need --odds, thread rows --threads)" >&2
  exit 2
fi

seed=59
for row in "${rows[@]}"; do
  seed=$((seed + 1))
  [[ -z "$only" || "$only" == "$row" ]] || continue
  # A finished row (its result written) is kept: delete ROW.json to play it again.
  if [[ -f "$out/$row.json" ]]; then echo "== $row: done ($out/$row.json)"; continue; fi
  test="${row%%-vs-*}" base="${row##*-vs-}"
  n=$games
  [[ "$base" == full* ]] && n=$games_vs_full
  row_jobs=$jobs
  if [[ "${variant[$test]}" == *threads=2* && "$jobs" != 1 ]]; then
    row_jobs=1  # the two threads need the two cores
    echo "== $row: one game at a time (--jobs $jobs ignored: the test engine runs two threads)"
  fi
  echo "== $row: $n games at $tc ($(date -u +%H:%M:%S))"
  # A node-limited engine (fullN) plays without a clock: its limit is the node count.
  "$loa_match" --test "name=$test,${variant[$test]}" --base "name=$base,${variant[$base]}" --tc "$tc" \
    --openings "$root/data/openings/balanced-4-8.txt" --openings-order random --seed "${row_seed[$row]:-$seed}" --games "$n" -j "$row_jobs" \
    --report-every 20 --json "$out/$row.json" --pgn "$out/$row.pgn" 2>&1 | tee -a "$out/$row.log" |
    { grep -E '^(Verdict|  Verdict|  Elo|  Pentanomial)' || true; }
  status=${PIPESTATUS[0]}
  [[ "$status" -eq 0 ]] || { echo "mcts-ladder.sh: row $row failed (exit $status); see $out/$row.log" >&2; exit "$status"; }
done
# The last verdict of each row.
for log in "$out"/*.log; do { grep 'Verdict' "$log" || true; } | tail -1; done > "$out/summary.txt"
cat "$out/summary.txt"

# The odds rows as a picture: the cut-off MCTS's Elo against full at N nodes a move.
if [[ -n "$odds" ]] && command -v gnuplot > /dev/null; then
  for n in $odds; do
    line=$(grep 'Elo difference' "$out/cutoff-vs-full$n.log" 2> /dev/null | tail -1)
    [[ -n "$line" ]] || continue
    echo "$n $(echo "$line" | sed -E 's/.*Elo difference ([-+0-9.]+) \(95% interval ([-+0-9.]+) to ([-+0-9.]+)\).*/\1 \2 \3/')"
  done > "$out/odds.dat"
  [[ -s "$out/odds.dat" ]] || { echo "no odds row has a result yet: no plot"; exit 0; }
  xmin=$(awk 'NR == 1 || $1 < m { m = $1 } END { print m / 2 }' "$out/odds.dat")
  xmax=$(awk 'NR == 1 || $1 > m { m = $1 } END { print m * 2 }' "$out/odds.dat")
  gnuplot <<GNUPLOT
set terminal pngcairo size 800,500
set output '$out/odds.png'
set title 'MCTS (cut-off play-outs) at $tc against full limited to N nodes a move'
set logscale x
set xrange [$xmin:$xmax]
set xlabel 'nodes a move allowed to full'
set ylabel 'Elo of MCTS (95% interval)'
set yrange [-800:800]
set grid
plot '$out/odds.dat' using 1:2:3:4 with yerrorlines title 'MCTS - full(N)', 0 notitle lc rgb 'gray'
GNUPLOT
  echo "plot: $out/odds.png"
fi
