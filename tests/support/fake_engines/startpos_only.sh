#!/usr/bin/env bash
# A picky UCI-style engine, shaped like LinesOfActionBot: it understands only 'position startpos
# [moves ...]' and 'go' with movetime/wtime/btime/winc/binc/depth, never prints 'info' lines,
# ignores 'stop', and exits (as a crash would) on anything else. The moves come from our own
# engine behind it: startpos_only.sh LOA_BINARY.
loa="$1"
while IFS= read -r line; do
  case "$line" in
    uci | isready | ucinewgame | "position startpos" | "position startpos moves "*) ;;
    quit) printf 'quit\n'; exit 0 ;;
    stop) continue ;;
    go*)
      if ! [[ "$line" =~ ^go(\ (movetime|wtime|btime|winc|binc|depth)\ [0-9]+)*$ ]]; then
        echo "startpos_only: cannot parse '$line'" >&2; exit 1
      fi ;;
    *) echo "startpos_only: cannot parse '$line'" >&2; exit 1 ;;
  esac
  printf '%s\n' "$line"
done | "$loa" uci | grep --line-buffered -v '^info'
