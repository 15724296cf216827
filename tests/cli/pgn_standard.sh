#!/usr/bin/env bash
# The PGN the runner writes is standard PGN, checked by an independent checker written from the
# PGN standard (tests/support/pgn_check.py: tokens, the Seven Tag Roster in order, SetUp/FEN, the
# TimeControl forms, move numbers "1." or "1...", the result), and reads back: the checker's
# moves equal the result JSON's, the records serve as --openings, and `loa show --moves` takes
# a game's movetext with its numbers, comments and result.
# usage: pgn_standard.sh LOA_MATCH LOA
set -euo pipefail
loa_match="$1"; loa="$2"
here="$(cd "$(dirname "$0")" && pwd)"
python=/usr/bin/python3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# Openings: a move list, a position with White to move (a FEN, and "1..." numbering), and a
# single move (the engines take over mid-pair: "1..." after the comment).
printf 'b1-d3 a2-c2\n1bbbbbb1/w6w/w6w/w6w/w6w/w6w/w6w/1bbbbbb1 w\nc1-c3\n' > "$dir/openings.txt"
"$loa_match" --engine name=a,preset=pvs+tt+rhh,nodes=500 --engine name=b,preset=pvs+tt+hh,tc=0.5+0.01 --games 6 -j 2 -q \
  --openings "$dir/openings.txt" --json "$dir/a.json" --pgn "$dir/a.pgn" > /dev/null
"$loa_match" --engine name=c,preset=pvs+tt+rhh --engine name=d,preset=pvs+tt+hh --tc 0.5+0.01 --games 2 -j 2 -q \
  --json "$dir/b.json" --pgn "$dir/b.pgn" > /dev/null
for f in a b; do
  n=$("$python" -c "import json,sys; print(len(json.load(open(sys.argv[1]))['games']))" "$dir/$f.json")
  "$python" "$here/../support/pgn_check.py" "$dir/$f.pgn" --expect-games "$n" || fail "$f.pgn is not standard PGN"
  # The moves, read by the checker, equal the result's (games in the order of the PGN).
  "$python" "$here/../support/pgn_check.py" "$dir/$f.pgn" --moves 2> /dev/null | cut -f 2 > "$dir/$f.pgn-moves"
  "$python" - "$dir/$f.json" "$dir/$f.pgn" > "$dir/$f.json-moves" << 'PY'
import json, re, sys
games = {g["game"]: g for g in json.load(open(sys.argv[1]))["games"]}
for pair, game in re.findall(r'\[Round "(\d+)\.(\d+)"\]', open(sys.argv[2]).read()):
    g = next(g for g in games.values() if g["pair"] == int(pair) and (g["game"] - 1) % 2 == int(game) - 1)
    print(g["moves"])
PY
  diff "$dir/$f.json-moves" "$dir/$f.pgn-moves" > /dev/null || fail "$f.pgn: the checker's moves differ from the result's"
done
grep -q '^\[TimeControl "0.5+0.01"\]$' "$dir/b.pgn" || fail "a shared clock is not PGN's TimeControl form"
grep -q '^\[SetUp "1"\]$' "$dir/a.pgn" && grep -qE '(^| )1\.\.\. ' "$dir/a.pgn" || fail "no FEN game numbered from 1..."
echo "standard PGN (independent checker), the same moves as the result"

# Read back: as openings (each game up to its "{end of opening}"), and by loa show.
"$loa_match" --engine name=a,depth=1 --engine name=b,depth=1 --openings "$dir/a.pgn" --games 2 -q --state "$dir/c.state" \
  > "$dir/c.log" 2>&1 || { cat "$dir/c.log"; fail "the PGN is not read as openings"; }
movetext=$(awk 'BEGIN { RS = "" } NR == 2 { print; exit }' "$dir/b.pgn")
"$loa" show --moves "$movetext" > "$dir/show.log" 2>&1 || { cat "$dir/show.log"; fail "loa show does not read the movetext"; }
grep -q "^result " "$dir/show.log" || { cat "$dir/show.log"; fail "loa show did not replay the game to its end"; }
echo "read back as openings and by loa show --moves"
