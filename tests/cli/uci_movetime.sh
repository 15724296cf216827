#!/usr/bin/env bash
# "go movetime 150" must be answered within 150 ms, measured from outside the engine process
# (pipe round trip included), over several positions. Prints the worst time seen.
set -euo pipefail
loa="$1"
limit="${2:-150}"
rounds="${3:-2}"
positions=(
  "startpos"
  "fen 1b1bbb2/w6w/2b3bw/w1w4w/wb2b3/2bw3w/w3ww2/3b1bb1 w"
  "fen 8/4b2w/1bb3bw/2b1w3/wb2b3/2wwb2w/3www2/2bb2b1 b"
  "fen 2bbb3/ww2w3/wb2wb2/w1bbb3/2w5/3w2b1/w5w1/3bb3 b"
  "fen 1bbbbbb1/2bww3/w3w2w/4b2w/wb5w/wb6/w6w/2b2b2 w"
)
coproc ENGINE { "$loa" uci; }
echo "uci" >&"${ENGINE[1]}"
while read -r line <&"${ENGINE[0]}"; do [ "$line" = "uciok" ] && break; done
worst=0
for ((round = 0; round < rounds; ++round)); do
  for p in "${positions[@]}"; do
    echo "position $p" >&"${ENGINE[1]}"
    echo "isready" >&"${ENGINE[1]}"
    while read -r line <&"${ENGINE[0]}"; do [ "$line" = "readyok" ] && break; done
    start=$(date +%s%N)
    echo "go movetime $limit" >&"${ENGINE[1]}"
    while read -r line <&"${ENGINE[0]}"; do
      case "$line" in bestmove*) break ;; esac
    done
    elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
    (( elapsed > worst )) && worst=$elapsed
  done
done
echo "quit" >&"${ENGINE[1]}"
wait "$ENGINE_PID" || true
echo "worst answer time ${worst} ms for go movetime ${limit}"
(( worst <= limit ))
