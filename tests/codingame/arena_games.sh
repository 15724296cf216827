#!/usr/bin/env bash
# The CodinGame bot as the arena gets it: its generated source within the arena's 100,000
# characters, its program (compiled with the arena's flags by the build) playing game pairs
# against `loa codingame` through the independent referee (referee.py, written from the
# arena's rules): no illegal move, no turn over the arena's limits, no crash.
# Usage: arena_games.sh BOT_SOURCE BOT_BINARY LOA PYTHON [GAMES]
set -euo pipefail
source_file="$1" bot="$2" loa="$3" python="$4" games="${5:-4}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ "$source_file" == none ]]; then
  echo "this build makes no bot file (g++ builds without sanitizers do)"
  exit 77
fi
characters=$("$python" -c 'import sys; print(len(open(sys.argv[1], encoding="utf-8").read()))' "$source_file")
echo "bot source: $characters characters (arena limit 100000)"
(( characters <= 100000 ))
# The build compiled it with its own g++ (12); the arena's is 11 (scripts/setup.sh codingame).
if command -v g++-11 >/dev/null; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  bash "$here/../../scripts/codingame/compile-arena.sh" "$source_file" "$scratch/bot-g++-11" g++-11
  echo "compiled with g++-11 and the arena's flags: no diagnostic"
else
  echo "g++-11 is not installed (bash scripts/setup.sh codingame): compiled with the build's g++ only"
fi
"$python" "$here/referee.py" --bot-a "$bot" --bot-b "$loa codingame" --games "$games" --random-plies 4 --seed 87 --quiet
