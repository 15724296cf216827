#!/usr/bin/env bash
# The numbers a match reports agree with each other and with an independent recomputation from
# its games (tests/support/stats_check.py, written from the formulas alone): the pairings' pentanomial
# intervals, nElo (fishtest's formula), LOS from pairs, the gauntlet's ratings with errors from
# the pairs; and the plot replays the SPRT in the order the run counted the games, so that its
# LLR at the decision's game is the decision's LLR.
set -euo pipefail
loa_match="$1"
here="$(cd "$(dirname "$0")" && pwd)"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$loa_match" --gauntlet --engine name=a,preset=full,nodes=200 --engine name=b,preset=ab,depth=1 \
  --engine name=c,preset=pvs+tt,depth=2 --games 10 -j 2 --json "$dir/g.json" --state "$dir/g.state" --fresh -q > "$dir/g.txt"
python3 "$here/../support/stats_check.py" "$dir/g.json" > "$dir/g.check" || { cat "$dir/g.check"; exit 1; }
echo "gauntlet: $(tail -1 "$dir/g.check")"

"$loa_match" --engine name=strong,preset=full,nodes=300 --engine name=weak,preset=ab,depth=1,eval=material \
  --games 200 -j 2 --sprt elo0=0,elo1=200 --json "$dir/s.json" --plot "$dir/s.png" --state "$dir/s.state" --fresh -q > "$dir/s.txt"
python3 "$here/../support/stats_check.py" "$dir/s.json" > "$dir/s.check" || { cat "$dir/s.check"; exit 1; }
echo "sprt: $(tail -1 "$dir/s.check")"
python3 - "$dir/s.json" "$dir/s.png.dat" <<'PY'
import json, sys
result = json.load(open(sys.argv[1]))
sprt = result["pairings"][0]["sprt"]
assert sprt["decision"] != "continue", sprt
assert len(result["counting_order"]) == result["played_games"], "counting_order must list every game"
rows = [line.split() for line in open(sys.argv[2]) if not line.startswith("#")]
at = [row for row in rows if int(row[0]) == sprt["decision_games"]]
assert at, f"no plot point at game {sprt['decision_games']}"
llr = float(at[0][4])
print(f"decision at game {sprt['decision_games']}: LLR {sprt['decision_llr']:.4f}, plot {llr:.4f}")
assert abs(llr - sprt["decision_llr"]) < 1e-3, "the plot's LLR at the decision differs from the decision's"
PY
