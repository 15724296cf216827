#!/usr/bin/env bash
# Where the solver in play pays: for every position of a set, the αβ score the engine would have
# reported (a search of N nodes, from the side to move) and whether the proof-number solver
# proves the position won within M nodes (the budget of `solver=M`). The summary says, for each
# gate S of `solver_score=S`, on what share of the positions the solver would run and what share
# of the provable wins it would still find. (The gate reads the previous move's score; this
# reads the position's own, which is what that score estimates.)
# Usage: bash scripts/solver-gate.sh [--positions FILE] [--search-nodes N] [--solver-nodes M]
#                                    [--jobs J] [--csv OUT.csv]
# Defaults: data/margins/positions.txt, 20000, 30000, 2, out/solver-gate/gate.csv.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
positions="$root/data/margins/positions.txt"
search_nodes=20000
solver_nodes=30000
jobs=2
csv="$root/out/solver-gate/gate.csv"
while (( $# )); do
  case "$1" in
    --positions) positions="$2"; shift 2 ;;
    --search-nodes) search_nodes="$2"; shift 2 ;;
    --solver-nodes) solver_nodes="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --csv) csv="$2"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "solver-gate.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
loa="${LOA:-$root/build/release/loa/loa}"
[[ -x "$loa" ]] || { echo "solver-gate.sh: no engine at $loa (build first, or set LOA)" >&2; exit 2; }
[[ -r "$positions" ]] || { echo "solver-gate.sh: cannot read $positions" >&2; exit 2; }
mkdir -p "$(dirname "$csv")"

# One position: "index,score,proof". score: centi-units, or win/loss (a decisive αβ score);
# proof: win when the solver proved the side to move wins, else other.
probe() {
  local index="$1" pos="$2" score proof
  score=$("$loa" analyze -p "$pos" -n "$search_nodes" | awk '/^info depth/ {
      for (i = 1; i < NF; ++i) if ($i == "score") { s = ($(i+1) == "cp") ? $(i+2) : $(i+1) } }
      END { print s }')
  [[ -n "$score" ]] || { echo "solver-gate.sh: no score for position $index: $pos" >&2; return 1; }
  proof=$("$loa" solve -p "$pos" -n "$solver_nodes" | awk '$1 == "goal" && $2 == "win" && $3 == "pn" && $4 == "0" { w = 1 }
      END { print (w ? "win" : "other") }')
  echo "$index,$score,$proof"
}
export -f probe
export loa search_nodes solver_nodes

echo "index,score,proof" > "$csv"
grep -v '^#' "$positions" | grep -v '^[[:space:]]*$' | awk '{ print NR "\t" $0 }' |
  xargs -P "$jobs" -d '\n' -n 1 bash -c 'IFS=$'"'"'\t'"'"' read -r i p <<< "$1"; probe "$i" "$p"' _ |
  sort -t, -k1,1n >> "$csv"

# The summary: a decisive αβ win counts as above every gate, a loss below.
awk -F, -v search="$search_nodes" -v solver="$solver_nodes" 'NR > 1 {
    n++; s = ($2 == "win") ? 1e9 : ($2 == "loss") ? -1e9 : $2 + 0
    score[n] = s; won[n] = ($3 == "win"); wins += won[n]
  }
  END {
    printf "%d positions; the solver (%d nodes) proves %d of them won for the side to move\n", n, solver, wins
    printf "gate = solver_score; runs: positions whose score (%d-node search) reaches it; finds: proven wins among them\n", search
    printf "%8s %8s %8s %8s %8s\n", "gate", "runs", "runs%", "finds", "finds%"
    split("-1000000000 -200 -100 0 50 100 150 200 300 400 600 1000", gates, " ")
    for (g = 1; g <= 12; ++g) {
      runs = 0; finds = 0
      for (i = 1; i <= n; ++i) if (score[i] >= gates[g]) { runs++; finds += won[i] }
      label = (gates[g] == -1000000000) ? "off" : gates[g]
      printf "%8s %8d %7.1f%% %8d %7.1f%%\n", label, runs, 100 * runs / n, finds, wins ? 100 * finds / wins : 0
    }
  }' "$csv" | tee "${csv%.csv}.txt"
