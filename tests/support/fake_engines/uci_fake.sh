#!/usr/bin/env bash
# A misbehaving UCI engine for the match runner's failure tests: MODE=crash exits on 'go',
# MODE=hang never answers 'go', MODE=illegal answers an illegal move.
mode="${1:-crash}"
while read -r line; do
  case "$line" in
    uci) echo "id name fake-$mode"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*)
      case "$mode" in
        crash) exit 3 ;;
        hang) sleep 30 ;;
        illegal) echo "info depth 1 score cp 0"; echo "bestmove a1a1" ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
