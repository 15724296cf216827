#!/usr/bin/env bash
# `loa codingame` answers within the arena's limits less its safety margin, measured from outside
# the process as the referee sees it: the first turn within 800 ms (1000 ms less 20%; 20 ms more
# for the process start-up that happens before the engine's own clock starts), later turns
# within 120 ms (150 ms less 20%). Prints the times seen.
set -euo pipefail
loa="$1"
board=(".bbbbbb." "w......w" "w......w" "w......w" "w......w" "w......w" "w......w" ".bbbbbb.")
moves="b1b3 b1d3 b1h1 b8b6 b8d6 b8h8 c1a3 c1c3 c1e3 c8a6 c8c6 c8e6 d1b3 d1d3 d1f3 d8b6 d8d6 d8f6 e1c3 e1e3 e1g3 e8c6 e8e6 e8g6 f1d3 f1f3 f1h3 f8d6 f8f6 f8h6 g1a1 g1e3 g1g3 g8a8 g8e6 g8g6"
turn() {  # the start position, as any turn would send it
  for row in "${board[@]}"; do echo "$row"; done
  echo "$1"
  echo 36
  for m in $moves; do echo "$m"; done
}
now() { date +%s%N; }
start=$(now)
coproc BOT { "$loa" codingame; }
{ echo b; turn null; } >&"${BOT[1]}"
read -r first <&"${BOT[0]}"
first_ms=$(( ($(now) - start) / 1000000 ))
worst=0
for round in 1 2 3 4 5; do
  t=$(now)
  turn a2a4 >&"${BOT[1]}"
  read -r answer <&"${BOT[0]}"
  ms=$(( ($(now) - t) / 1000000 ))
  (( ms > worst )) && worst=$ms
done
exec {BOT[1]}>&-
wait "$BOT_PID" || true
echo "first turn ${first_ms} ms (${first}), later turns at most ${worst} ms (${answer})"
(( first_ms <= 820 && worst <= 120 ))
