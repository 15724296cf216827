#!/usr/bin/env bash
# The SPSA runs of docs/spsa.md that span sessions, each under one name, so that a run can be
# started, paused (`pkill -TERM -f 'loa-match spsa'`: the iteration in flight is played again) and
# resumed from a clean clone with the very command that played its first iterations.
# Usage: bash scripts/spsa-run.sh NAME [--resume]
#        bash scripts/spsa-run.sh --list
#   --resume  start from docs/results/spsa/NAME.jsonl (the record committed at the last pause)
#             unless out/spsa/NAME.jsonl already exists
# Output: out/spsa/NAME.{jsonl,json,png,log} (the log is appended to).
# LOA_MATCH chooses the binary (default build/release/matches/loa-match); a resumed run checks
# every setting it records, not the code: use a build with the same search.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
source "$root/scripts/named-runs.sh"

# name | seed | iterations | tc | engine | parameters (NAME=start,min,max,c_end,r_end, space-separated)
# r_end 0.01, five times fishtest's default: over 2,000 iterations of one pair, 0.002 would move
# a parameter by about 0.2 c_end on noise and 0.35 c_end for a 10-Elo difference between its
# two perturbed engines; 0.01 moves it by about 1 and 1.7 c_end (docs/spsa.md).
net2_engine="name=spsa,preset=full,eval=data/nets/loa-net-2.nnue,futility=30:150,ext_futility=50:130,razoring=50:190"
# Issue 85's second round: the pruning of prune4 (strength-run.sh: late move pruning, the log
# LMR formula, the history-based reduction, reverse futility) on the default net (loa-net-7 since
# strength.md row 51; defined on loa-net-5 before it had played), its numbers and the
# frontier's and aspiration's with them, from the values rows 37 and 38 played.
prune_engine="name=spsa,preset=full,eval=data/nets/loa-net-7.nnue,lmp=3,lmp_depth=3,lmr_formula=log,lmr_log_base=75,lmr_log_div=225,lmr_history=on,rfp=50:150,rfp_depth=6"
runs=(
  "net2-spsa|80|2000|2+0.02|$net2_engine|lmr_min_depth=3,2,6,0.6,0.01 lmr_min_moves=3,1,10,0.8,0.01 lmr_deep_depth=6,3,12,0.8,0.01 lmr_deep_moves=3,1,8,0.6,0.01 aspiration=50,10,200,10,0.01 tm_start=60,20,100,6,0.01 tm_max=400,150,800,40,0.01 tm_stable=60,20,100,6,0.01"
  "prune-spsa|86|2000|2+0.02|$prune_engine|lmp=3,1,12,1,0.01 lmp_depth=3,1,8,0.6,0.01 lmr_log_base=75,-100,250,15,0.01 lmr_log_div=225,100,600,25,0.01 rfp.opening=50,10,200,10,0.01 rfp.endgame=150,30,400,20,0.01 rfp_depth=6,2,12,0.8,0.01 futility.opening=30,10,150,8,0.01 futility.endgame=150,40,400,20,0.01 aspiration=27,10,100,5,0.01"
)

list() {
  for r in "${runs[@]}"; do
    IFS='|' read -r n s i t _ _ <<< "$r"
    echo "$n (seed $s, $i iterations, tc $t)"
  done
}
case "${1:-}" in
  ""|-h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; echo; echo "Runs:"; list; exit 0 ;;
  --list) list; exit 0 ;;
esac
name="$1"; shift
find_run "$name"
IFS='|' read -r _ seed iterations tc engine params <<< "$spec"
resume=0
if [[ "${1:-}" == "--resume" ]]; then resume=1; shift; fi
match="${LOA_MATCH:-$root/build/release/matches/loa-match}"
[[ "$match" == */* ]] && match="$(realpath "$match")"
cd "$root"  # the engine names its net by a path from the root
out="out/spsa"; mkdir -p "$out"
record="$out/$name.jsonl"
(( resume )) && restore_paused "$record" "docs/results/spsa/$name.jsonl" iterations
param_args=()
for p in $params; do param_args+=(--param "$p"); done
exec "$match" spsa --engine "$engine" --tc "$tc" "${param_args[@]}" --iterations "$iterations" \
  --pairs 1 -j 2 --seed "$seed" --openings data/openings/balanced-4-8.txt --report-every 20 \
  --out "$record" --json "$out/$name.json" --plot "$out/$name.png" "$@" >> "$out/$name.log" 2>&1
