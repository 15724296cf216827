#!/usr/bin/env bash
# The ablation table of issue "Experiments II": the default engine against itself with one
# enhancement switched off, as one gauntlet (each pairing with its own Elo interval, and its own
# SPRT with --sprt), a combined table in the summary and JSON, and a plot of Elo per pairing.
# Usage: bash scripts/ablation.sh [OUT_DIR] [extra loa-match arguments...]
#   default OUT_DIR out/ablation, 200 games a pairing, -j 2, seed 16 (give all three to change
#   one), e.g. bash scripts/ablation.sh out/ablation --tc stc --games 2000 -j 2 --seed 16
#   --classic ablates the `full` before the frontier trio joined it (without the `no-frontier`
#   pairing): the preset of the runs begun before 2026-11-26, whose states it resumes.
#   --resume-from PAUSED starts OUT_DIR's state from a paused run's committed copy (plain or
#   gzip-compressed), unless OUT_DIR has a state already.
# Without --tc the engines play at 20,000 nodes a move (contention-free); with it, the tournament
# time manager (a default since 2026-11-24) is ablated too (`classic-timeman`).
# A gauntlet's SPRT is taken from its first engine's side, here `full`: --sprt elo0=0,elo1=10
# asks the ablation's question, "is full stronger than the engine without it?" (H1: the
# enhancement is worth something). A decided pairing stops, the others go on.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/out/ablation}"; shift || true
mkdir -p "$out"
match="${LOA_MATCH:-$root/build/release/matches/loa-match}"
limit=",nodes=20000"
defaults=(--games 200 -j 2 --seed 16)
base="preset=full"
args=()
resume_from=""
while (( $# )); do
  a="$1"; shift
  case "$a" in
    --tc) limit="" ;;
    --games|-j|--seed) defaults=() ;;  # given: the caller sets all three
  esac
  # --classic: the `full` before the frontier trio joined it (2026-11-26), as the runs begun
  # before then played it, so that their states resume.
  if [[ "$a" == "--classic" ]]; then base="preset=full,futility=off,ext_futility=off,razoring=off,eval=hce"
  elif [[ "$a" == "--resume-from" ]]; then
    (( $# )) || { echo "ablation.sh: --resume-from needs a file" >&2; exit 2; }
    resume_from="$1"; shift
  else args+=("$a"); fi
done
# --resume-from PAUSED: a run paused in another clone goes on from its committed state (plain or
# .gz), unless OUT_DIR holds a state of its own, which is newer.
openings="$root/data/openings/balanced-4-8.txt"
if [[ -n "$resume_from" && ! -e "$out/ablation.json.state" ]]; then
  source "$root/scripts/named-runs.sh"
  restore_paused "$out/ablation.json.state" "$resume_from" games
  # The state's header names the openings by the absolute path of the clone that began the run
  # (their digest is recorded beside it): in another clone, the same file is at this root.
  # loa-match now compares the digest, not the path, but the builds before that change (cf92053's,
  # which plays the ablation under loa-net-7) compared the path: rewritten, it resumes on both.
  python3 - "$out/ablation.json.state" "$openings" <<'PY'
import json, os, sys
state, openings = sys.argv[1], sys.argv[2]
with open(state) as f:
    header, rest = f.readline(), f.read()
try:
    given = json.loads(header).get("openings", "")
except (json.JSONDecodeError, AttributeError):
    sys.exit(0)  # not a state of loa-match's: it refuses the file with its own error
if not given.startswith("file "):
    sys.exit(0)
path = given[len("file "):].rsplit(" order=", 1)[0]
if path == openings or not path.endswith("/data/openings/" + os.path.basename(openings)):
    sys.exit(0)
old, new = json.dumps(given, ensure_ascii=False), json.dumps(given.replace(path, openings, 1), ensure_ascii=False)
if old not in header:
    os.remove(state)  # not resumable here: the next try restores it again
    sys.exit(f"ablation.sh: cannot rewrite the openings path in {state}: give a clone at {os.path.dirname(os.path.dirname(os.path.dirname(path)))}")
with open(state + ".partial", "w") as f:
    f.write(header.replace(old, new, 1) + rest)
os.replace(state + ".partial", state)
print(f"ablation.sh: the state's openings {path} are this clone's {openings}", file=sys.stderr)
PY
fi
variants=(
  "no-pvs:pvs=off" "no-aspiration:aspiration=off" "no-tt:tt=off" "no-killers:killers=0"
  "history-none:history=none" "history-absolute:history=absolute" "no-null:null=off" "no-lmr:lmr=off"
  "no-quiescence:qsearch=off"
)
if [[ "$base" == "preset=full" ]]; then
  variants+=("no-frontier:futility=off,ext_futility=off,razoring=off")
  # Under the network (the default evaluation since 2026-12-01) the evaluation's row is the
  # hand-written evaluation with its own margins, as strength.md row 29 plays it; the classic
  # run's row is the hand-picked weights against the tuned ones.
  variants+=("hce-eval:eval=hce,futility=40:320,ext_futility=50:250,razoring=50:340")
else
  variants+=("hand-weights:eval=hand")
fi
# The time manager matters only on a clock: at a fixed node count both would play alike.
if [[ -z "$limit" ]]; then variants+=("classic-timeman:timeman=classic"); fi
engines=(--engine "name=full,$base$limit")
for v in "${variants[@]}"; do engines+=(--engine "name=${v%%:*},$base,${v#*:}$limit"); done
exec "$match" --gauntlet "${engines[@]}" --openings "$openings" \
  --openings-order random "${defaults[@]}" --report-every 100 -q \
  --json "$out/ablation.json" --pgn "$out/ablation.pgn" --plot "$out/ablation.png" ${args[@]+"${args[@]}"}
