#!/usr/bin/env bash
# "Where the published 10-15% comes from" (issue Experiments II): relative against absolute
# history in one setting at a time, each setting its own tree-size run with absolute history
# (increment 1) as the baseline, so that every RHH / HH ratio comes with its own bootstrap
# interval. The settings test the explanations of why RHH saves 6-8% here and 10-15% in the
# MIA papers:
#   reference       PVS + TT + 2 killers, the MIA move order (TT move, killers, history);
#                   quiescence ordered by the capture ranking (our default)
#   qs-history      the same, quiescence ordered by the history tables (qs_order=history)
#   no-capture-hist captures kept out of the history tables (history_captures=off)
#   killers-1/3/4   one, three or four killers instead of two
#   captures-first  our engine's order: captures before killers (caps)
#   full            the whole default engine (aspiration, null move, LMR, captures first)
#   opening/middle/endgame   the reference setting on the phase sets of data/treesize/
# and, on data/treesize/middle.txt (games independent of the set the increments were chosen
# on), increment d^2 against 1 for each history scheme.
# Usage: bash scripts/history-study-ii.sh [OUT_DIR] [DEPTH] [-- extra treesize arguments]
#   default OUT_DIR docs/results/treesize/ii, DEPTH 6. Writes one .txt/.json per run and
#   summary.md (every ratio at DEPTH and DEPTH-1 with its interval).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/docs/results/treesize/ii}"
depth="${2:-6}"
shift $(( $# < 2 ? $# : 2 ))
[ "${1:-}" = "--" ] && shift
match="${LOA_MATCH:-$root/build/release/matches/loa-match}"
command -v python3 > /dev/null || { echo "history-study-ii: needs python3 (apt-get install python3)" >&2; exit 1; }
mkdir -p "$out"
for phase in opening middle endgame; do
  [ -s "$root/data/treesize/$phase.txt" ] || { echo "history-study-ii: data/treesize/$phase.txt is missing: run scripts/make-phase-positions.sh" >&2; exit 1; }
done

# run NAME POSITIONS BASE_SPEC [VARIANTS...]: HH-1, RHH-all-1, RHH-cut-1 on BASE_SPEC, unless
# variants are given (name=...,spec pairs, the first one the baseline).
run() {
  local name="$1" positions="$2" base="$3"; shift 3
  local variants=("$@")
  if [ ${#variants[@]} -eq 0 ]; then
    variants=("name=hh-1,$base,history=absolute,hh_inc=1"
              "name=rhh-all-1,$base,history=relative,hh_inc=1,bf_inc=1"
              "name=rhh-cut-1,$base,history=relative,hh_inc=1,bf_inc=1,rhh_update=cutnodes")
  fi
  local baseline="${variants[0]#name=}"; baseline="${baseline%%,*}"
  local args=()
  for v in "${variants[@]}"; do args+=(--variant "$v"); done
  if [ -s "$out/$name.json" ]; then echo "== $name: done before ($out/$name.json)"; return; fi
  echo "== $name"
  "$match" treesize --depth "1..$depth" -j 2 --positions "$positions" --baseline "$baseline" "${args[@]}" \
    --json "$out/$name.json" "${EXTRA[@]}" | tee "$out/$name.txt" | tail -n 5
}
EXTRA=("$@")

mid="$root/data/treesize-positions.txt"
run reference "$mid" "preset=pvs+tt+killers"
run qs-history "$mid" "preset=pvs+tt+killers,qs_order=history"
run no-capture-history "$mid" "preset=pvs+tt+killers,history_captures=off"
run killers-1 "$mid" "preset=pvs+tt+killers,killers=1"
run killers-3 "$mid" "preset=pvs+tt+killers,killers=3"
run killers-4 "$mid" "preset=pvs+tt+killers,killers=4"
run captures-first "$mid" "preset=pvs+tt+killers+caps"
# The engines spell out the `full` of the day the file was made: the frontier trio joined `full`
# later (2026-11-26).
run full "$mid" "preset=full,futility=off,ext_futility=off,razoring=off"
for phase in opening middle endgame; do
  run "phase-$phase" "$root/data/treesize/$phase.txt" "preset=pvs+tt+killers"
done
ind="$root/data/treesize/middle.txt"
base="preset=pvs+tt+killers"
run increment-hh "$ind" "$base" "name=hh-1,$base,history=absolute,hh_inc=1" "name=hh-d2,$base,history=absolute,hh_inc=d2"
run increment-rhh-all "$ind" "$base" "name=rhh-all-1,$base,history=relative,hh_inc=1,bf_inc=1" \
  "name=rhh-all-d2,$base,history=relative,hh_inc=d2,bf_inc=1"
run increment-rhh-cut "$ind" "$base" "name=rhh-cut-1,$base,history=relative,hh_inc=1,bf_inc=1,rhh_update=cutnodes" \
  "name=rhh-cut-d2,$base,history=relative,hh_inc=d2,bf_inc=1,rhh_update=cutnodes"

python3 - "$out" "$depth" > "$out/summary.md" <<'PY'
import json, pathlib, sys
out, depth = pathlib.Path(sys.argv[1]), int(sys.argv[2])
print(f"| run | variant | positions | ratio at depth {depth - 1} | ratio at depth {depth} [95%] | interior ratio at depth {depth} | nodes at depth {depth} | scores differing |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
for path in sorted(out.glob("*.json"), key=lambda p: p.stat().st_mtime):
    j = json.loads(path.read_text())
    by_depth = {d["depth"]: {v["name"]: v for v in d["variants"]} for d in j["depths"]}
    if depth not in by_depth: continue
    for name, v in by_depth[depth].items():
        if name == j["baseline"]: continue
        prev = by_depth.get(depth - 1, {}).get(name)
        prev_text = f"{prev['ratio']:.3f}" if prev else "-"
        print(f"| {path.stem} | {name} / {j['baseline']} | {j['positions']} | {prev_text} | "
              f"{v['ratio']:.3f} [{v['ratio_low']:.3f}, {v['ratio_high']:.3f}] | {v['full_width_ratio']:.3f} | "
              f"{v['nodes']:,.0f} | {v['score_differences']} |")
PY
# The same ratios as a picture: one row per run and variant, the ratio with its interval.
python3 - "$out" "$depth" > "$out/summary.dat" <<'PY'
import json, pathlib, sys
out, depth = pathlib.Path(sys.argv[1]), int(sys.argv[2])
for path in sorted(out.glob("*.json"), key=lambda p: p.stat().st_mtime):
    j = json.loads(path.read_text())
    for d in j["depths"]:
        if d["depth"] != depth: continue
        for v in d["variants"]:
            if v["name"] != j["baseline"]:
                print(f'"{path.stem}: {v["name"]} / {j["baseline"]}" {v["ratio"]:.4f} {v["ratio_low"]:.4f} {v["ratio_high"]:.4f}')
PY
if command -v gnuplot > /dev/null; then
  rows=$(wc -l < "$out/summary.dat")
  gnuplot <<GP
set terminal pngcairo size 1100,$((120 + 22 * rows)) font ",10"
set output "$out/summary.png"
set title "Tree size at depth $depth: nodes / nodes of the run's baseline, 95% bootstrap interval"
set xlabel "node ratio (< 1: fewer nodes than the baseline)"
set yrange [$rows:-1]
set grid xtics
set arrow from 1, graph 0 to 1, graph 1 nohead dashtype 2
set lmargin 42
unset key
plot "$out/summary.dat" using 2:0:3:4:ytic(1) with xerrorbars pointtype 7 pointsize 0.8
GP
  echo "plot: $out/summary.png"
fi
echo "summary: $out/summary.md"
cat "$out/summary.md"
