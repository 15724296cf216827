#!/usr/bin/env bash
# A run of loa-match killed with SIGKILL (twice, at different moments) and started again with the
# same command ends with exactly the scheduled games, each once, in the PGN and the JSON, and
# with the same games as an uninterrupted run (fixed depth: every game depends only on its pair).
set -euo pipefail
loa_match="$1"
depth="${2:-4}"  # the games' depth: 3 under the sanitizers (tests/CMakeLists.txt)
dir=$(mktemp -d)
trap '[ "${keep:-}" ] || rm -rf "$dir"' EXIT
args=(--engine name=a,preset=pvs+tt+rhh,depth=$depth --engine name=b,preset=pvs+tt+hh,depth=$depth --games 12 -j 2 --seed 5 -q)

"$loa_match" "${args[@]}" --json "$dir/ref.json" --pgn "$dir/ref.pgn" > /dev/null

for lines in 3 7; do  # kill once the state file holds this many lines (settings + games)
  "$loa_match" "${args[@]}" --json "$dir/r.json" --pgn "$dir/r.pgn" > /dev/null &
  pid=$!
  while kill -0 "$pid" 2> /dev/null && [ "$(cat "$dir/r.json.state" 2> /dev/null | wc -l)" -lt "$lines" ]; do sleep 0.01; done
  kill -9 "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
done
[ -f "$dir/r.json.state" ] || { echo "the runs finished before they could be killed"; exit 1; }
"$loa_match" "${args[@]}" --json "$dir/r.json" --pgn "$dir/r.pgn" > /dev/null

# One line per game (tags but the date, and moves), in a stable order.
games() { grep -v '^\[Date ' "$1" | awk 'BEGIN { RS = "" } { printf "%s%s", $0, (NR % 2 ? " | " : "\n") }' | tr '\n' '~' | sed 's/~\[Event/\n[Event/g' | sed 's/~*$//' | sort; }
ref_count=$(grep -c '^\[Event ' "$dir/ref.pgn")
count=$(grep -c '^\[Event ' "$dir/r.pgn")
indices=$(grep -o '"game": [0-9]*' "$dir/r.json" | sort -u | wc -l)
records=$(grep -c '"game": ' "$dir/r.json")
echo "PGN records: $count (uninterrupted run: $ref_count); JSON games: $records, distinct: $indices"
[ "$ref_count" -eq 12 ] && [ "$count" -eq 12 ] && [ "$records" -eq 12 ] && [ "$indices" -eq 12 ]
diff <(games "$dir/ref.pgn") <(games "$dir/r.pgn") > /dev/null || { echo "the games differ from the uninterrupted run"; exit 1; }
[ ! -f "$dir/r.json.state" ] || { echo "state file left behind"; exit 1; }
echo "resumed run equals the uninterrupted one"
