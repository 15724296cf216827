#!/usr/bin/env bash
# The history question in Elo (issue "Experiments II"): the default engine (`full`) with each
# history scheme, as two gauntlets, each pairing with its own Elo interval (and its own SPRT
# when --sprt is given; a decided pairing stops, the others go on). A gauntlet's SPRT is taken
# from its first engine's side (hh-1, none): --sprt elo0=-10,elo1=0 asks "is the variant
# stronger?" (H0 accepted: the base is weaker), elo0=0,elo1=10 "is the base stronger?":
#   base hh-1 (absolute history, increment 1) against RHH with both update schemes and
#   increments 1 and d^2: rhh-all-1 (the default engine), rhh-all-d2, rhh-cut-1, rhh-cut-d2;
#   base none (no history) against rhh-all-1, bf (butterfly boards alone) and hh-1.
# At equal nodes (LIMIT nodes=N) the tables cost nothing; at equal time (LIMIT stc) their
# cost counts: the gap between the two is the price of the tables.
# Usage: bash scripts/history-elo.sh LIMIT [OUT_DIR] [extra loa-match arguments...]
#   LIMIT: nodes=20000, stc, ltc, or tc=BASE+INC; default OUT_DIR out/history-elo/<LIMIT>.
#   Defaults --games 1000 -j 2 --seed 16 (each replaced when given). Resumable: the same command
#   continues an interrupted gauntlet and skips a finished one.
#   GAUNTLETS="vs-none" (or "vs-hh", or both, the default) plays only those gauntlets.
#   --classic plays the `full` before the frontier trio joined it (2026-11-26), as the runs begun
#   before then did (section 5 of docs/experiments.md), so that new pairings stay comparable.
#   SKIP="rhh-all-1 ..." leaves those variants out (never a base), e.g. a pairing already played
#   in another run; a gauntlet's state file remembers its engines, so keep SKIP when resuming.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
limit="${1:?usage: history-elo.sh LIMIT [OUT_DIR] [loa-match arguments...]}"; shift
out="$root/out/history-elo/${limit//[=+]/-}"
if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then out="$1"; shift; fi
all_gauntlets="vs-hh vs-none"
chosen="${GAUNTLETS:-$all_gauntlets}"
for g in $chosen; do
  case " $all_gauntlets " in *" $g "*) ;; *) echo "history-elo.sh: unknown gauntlet '$g' in GAUNTLETS ($all_gauntlets)" >&2; exit 2 ;; esac
done
mkdir -p "$out"
match="${LOA_MATCH:-$root/build/release/matches/loa-match}"
case "$limit" in
  stc|ltc) engine_limit="" ; tc=(--tc "$limit") ;;
  *) engine_limit=",$limit" ; tc=() ;;
esac
# Each default is dropped when the caller gives that option (loa-match refuses an option twice).
games=(--games 1000); jobs=(-j 2); seed=(--seed 16)
base="preset=full"; args=()  # --classic is this script's own: loa-match never sees it
for a in "$@"; do
  case "$a" in
    --classic) base="preset=full,futility=off,ext_futility=off,razoring=off,eval=hce"; continue ;;
    --games|--games=*|-g|-g*) games=() ;;
    -j|-j*|--concurrency|--concurrency=*) jobs=() ;;
    --seed|--seed=*) seed=() ;;
  esac
  args+=("$a")
done
set -- "${args[@]}"
defaults=("${games[@]}" "${jobs[@]}" "${seed[@]}")
has_gnuplot=0; command -v gnuplot > /dev/null && has_gnuplot=1  # without it: no plot, the rest is still written
common=(--openings "$root/data/openings/balanced-4-8.txt" --openings-order random "${tc[@]}" "${defaults[@]}"
        --report-every 100 -q)
e() { echo "name=$1,$base,$2$engine_limit"; }

# gauntlet NAME ENGINES...: one gauntlet, skipped when a finished result is there (a finished
# run removes its state file, so running it again would start it over).
gauntlet() {
  local name="$1"; shift
  case " $chosen " in *" $name "*) ;; *) echo "== $name: not in GAUNTLETS"; return ;; esac
  if [ -s "$out/$name.json" ] && [ ! -e "$out/$name.json.state" ]; then
    echo "== $name: finished before ($out/$name.json)"; return
  fi
  local engines=() skipped=() first=1  # the first engine is the base: never skipped
  while [ $# -gt 0 ]; do
    local spec="$2" engine_name="${2#name=}"; engine_name="${engine_name%%,*}"
    if [ "$first" = 0 ] && [[ " ${SKIP:-} " == *" $engine_name "* ]]; then skipped+=("$engine_name")
    else engines+=("$1" "$spec"); fi
    first=0; shift 2
  done
  echo "== $name${skipped[*]:+ (left out: ${skipped[*]})}"
  local plot=()
  [ "$has_gnuplot" = 1 ] && plot=(--plot "$out/$name.png")
  "$match" --gauntlet "${common[@]}" "${engines[@]}" --json "$out/$name.json" --pgn "$out/$name.pgn" "${plot[@]}" "${extra[@]}"
}
extra=("$@")

gauntlet vs-hh \
  --engine "$(e hh-1 history=absolute,hh_inc=1)" \
  --engine "$(e rhh-all-1 history=relative,hh_inc=1,bf_inc=1)" \
  --engine "$(e rhh-all-d2 history=relative,hh_inc=d2,bf_inc=1)" \
  --engine "$(e rhh-cut-1 history=relative,hh_inc=1,bf_inc=1,rhh_update=cutnodes)" \
  --engine "$(e rhh-cut-d2 history=relative,hh_inc=d2,bf_inc=1,rhh_update=cutnodes)"
gauntlet vs-none \
  --engine "$(e none history=none)" \
  --engine "$(e rhh-all-1 history=relative,hh_inc=1,bf_inc=1)" \
  --engine "$(e bf history=butterfly)" \
  --engine "$(e hh-1 history=absolute,hh_inc=1)"
