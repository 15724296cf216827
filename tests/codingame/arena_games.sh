#!/usr/bin/env bash
# The CodinGame bot as the arena gets it: its generated source within the arena's 100,000
# characters, its program (compiled with the arena's flags by the build) playing game pairs
# against `loa codingame` through the independent referee (referee.py, written from the
# arena's rules): no illegal move, no turn over the arena's limits, no crash.
# Usage: arena_games.sh BOT_SOURCE BOT_BINARY LOA PYTHON [GAMES]
set -euo pipefail
source_file="$1" bot="$2" loa="$3" python="$4" games="${5:-4}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
characters=$("$python" -c 'import sys; print(len(open(sys.argv[1], encoding="utf-8").read()))' "$source_file")
echo "bot source: $characters characters (arena limit 100000)"
(( characters <= 100000 ))
"$python" "$here/referee.py" --bot-a "$bot" --bot-b "$loa codingame" --games "$games" --random-plies 4 --seed 87 --quiet
