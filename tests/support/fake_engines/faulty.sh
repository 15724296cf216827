#!/usr/bin/env bash
# Our engine over UCI behind a fault injector, for the soak test: faulty.sh MODE PERCENT LOA SEED.
# On each 'go', with probability PERCENT/100, it injects MODE:
#   crash   exits at once            hang     stops answering (sleeps)
#   illegal answers 'bestmove a1a1'  garbage  prints binary junk and a malformed bestmove
#   slow    (at start-up) waits 3 s before answering, slow but inside the start-up timeout
# Otherwise the line goes to the engine. The runner must survive all of them.
mode="$1"; percent="$2"; loa="$3"
RANDOM="${4:-1}"
exec 3>&1  # the runner's end of our output: faults are written there directly
if [ "$mode" = slow ] && (( RANDOM % 100 < percent )); then sleep 3; fi
while IFS= read -r line; do
  case "$line" in
    go*)
      if (( RANDOM % 100 < percent )); then
        case "$mode" in
          crash) exit 3 ;;
          hang) sleep 3600 ;;
          illegal) echo "bestmove a1a1" >&3; continue ;;
          garbage) printf 'info \x01\xff\xfe junk\nbestmove zz9\n' >&3; continue ;;
        esac
      fi ;;
  esac
  printf '%s\n' "$line"
done | "$loa" uci
