#!/usr/bin/env bash
# An engine behind a wrapper script, as engines often are: wrapper.sh MARKER MODE [LOA_BINARY].
# It starts a child that stands for the real engine's helpers ("sleep MARKER", easy to find in
# the process table), then either runs our engine over UCI (MODE=play) or answers the handshake
# and hangs on 'go' (MODE=hang). The runner must leave none of these processes behind.
marker="$1"
mode="$2"
sleep "$marker" &
if [ "$mode" = play ]; then
  exec "$3" uci
fi
while IFS= read -r line; do
  case "$line" in
    uci) echo "id name wrapper-hang"; echo uciok ;;
    isready) echo readyok ;;
    go*) sleep "$marker" ;;
    quit) exit 0 ;;
  esac
done
