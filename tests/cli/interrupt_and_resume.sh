#!/usr/bin/env bash
# Ctrl-C (SIGINT) stops loa-match promptly: every engine process is gone (wrapper scripts and
# their children too), the state file stays and says where it stopped, and the same command
# then finishes the run with every scheduled game once.
set -euo pipefail
loa_match="$1"
loa="$2"
here="$(cd "$(dirname "$0")" && pwd)"
dir=$(mktemp -d)
marker="$(( 6000 + $$ % 1000 )).141592"
trap 'pkill -f "sleep $marker" 2> /dev/null || true; rm -rf "$dir"' EXIT
args=(--engine "name=wrapped,cmd=bash,proto=uci,st=0.2,args=$here/../support/fake_engines/wrapper.sh $marker play $loa"
      --engine name=ours,preset=pvs+tt+rhh,depth=2 --games 6 -j 2 --seed 3 --json "$dir/r.json" --pgn "$dir/r.pgn")
# One pgrep, not a process a /proc entry: on a loaded machine the loop took seconds, long enough
# for the run to end before it was interrupted.
count() { pgrep -fc "sleep $marker" || true; }

"$loa_match" "${args[@]}" > "$dir/out.txt" 2>&1 &
pid=$!
while [ "$(cat "$dir/r.json.state" 2> /dev/null | wc -l)" -lt 2 ]; do sleep 0.05; done  # a game is in
[ "$(count)" -gt 0 ] || { echo "no engine process seen while running"; exit 1; }
start=$(date +%s%N)
kill -INT "$pid"
status=0
wait "$pid" || status=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "stopped $ms ms after SIGINT, exit status $status"
grep -q "Interrupted after" "$dir/out.txt" || { cat "$dir/out.txt"; exit 1; }
[ "$status" -eq 130 ] && [ "$ms" -lt 3000 ]
[ -f "$dir/r.json.state" ] || { echo "no state file left"; exit 1; }
[ "$(count)" -eq 0 ] || { echo "engine processes left behind"; exit 1; }
# The table and the footer count the same games: the whole pairs a resume keeps.
read -r table_games table_pairs < <(sed -n 's/^wrapped vs ours: \([0-9]*\) games, \([0-9]*\) game pairs$/\1 \2/p' "$dir/out.txt")
footer_games=$(sed -n 's/^Interrupted after \([0-9]*\) of .*/\1/p' "$dir/out.txt")
echo "interrupted: the table counts $table_games games in $table_pairs pairs, the footer $footer_games"
[ "$table_games" = "$footer_games" ] && [ "$table_games" -eq $((2 * table_pairs)) ] || { cat "$dir/out.txt"; exit 1; }

"$loa_match" "${args[@]}" > "$dir/out2.txt" 2>&1
games=$(grep -c '^\[Event ' "$dir/r.pgn")
echo "resumed and finished: $games games in the PGN"
[ "$games" -eq 6 ] && [ "$(count)" -eq 0 ]
