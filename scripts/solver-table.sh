#!/usr/bin/env bash
# The solver table: how many positions of an endgame set each proof-number algorithm solves
# at several node budgets, with the time it takes (a fresh solver per position).
# Usage: bash scripts/solver-table.sh [SET] [OUT_DIR]
#   SET      default data/endgames/endgames.txt
#   OUT_DIR  default out/solver: one CSV per run (loa solve --csv), summary.csv and summary.md
#   ALGOS    environment: the algorithms (default "pn pn2 dfpn")
# Run it on a quiet machine: the times are wall-clock.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
set_file="${1:-$root/data/endgames/endgames.txt}"
out="${2:-$root/out/solver}"
loa="${LOA:-$root/build/release/loa/loa}"
mkdir -p "$out"
echo "algorithm,init,nodes,positions,solved,wrong,total_nodes,time_ms" > "$out/summary.csv"
for algo in ${ALGOS:-pn pn2 dfpn}; do
  for init in uniform mobility; do
    for budget in 10000 100000 1000000; do
      name="$algo-$init-$budget"
      line=$("$loa" solve --set "$set_file" --algo "$algo" --init "$init" --nodes "$budget" --csv "$out/$name.csv" | tail -1)
      # "solved S of N wrong W nodes X time T"
      read -r _ solved _ positions _ wrong _ nodes _ time <<< "$line"
      echo "$algo,$init,$budget,$positions,$solved,$wrong,$nodes,$time" >> "$out/summary.csv"
      echo "$name: $line"
    done
  done
done
{
  echo "| algorithm | leaf numbers | node budget | solved | of | contradicting the set | nodes | time (ms) |"
  echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
  tail -n +2 "$out/summary.csv" | while IFS=, read -r a i b p s w n t; do
    echo "| $a | $i | $b | $s | $p | $w | $n | $t |"
  done
} > "$out/summary.md"
cat "$out/summary.md"
