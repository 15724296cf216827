#!/usr/bin/env bash
# --pgn gathers games, as fastchess's and cutechess's PGN output does: a run appends to what the
# file holds and never touches it (issue 56: a user's 10 games once became 2). Killed and
# resumed, a run rewrites only its own records: the file ends as the user's text followed by
# the games of an uninterrupted run. A PGN changed under a stopped run, and a --json that is
# not this match's result, are refused and left as they were.
set -euo pipefail
loa_match="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
match=(--engine name=a,preset=pvs+tt+rhh,depth=2 --engine name=b,preset=pvs+tt+hh,depth=2 --games 8 -j 2 --seed 5 -q)

"$loa_match" "${match[@]}" --json "$dir/ref.json" --pgn "$dir/ref.pgn" > /dev/null
# The user's file: games of their own, the last line without its newline.
printf '[Event "mine"]\n[Result "1-0"]\n\n1. b1-d3 1-0\n\n% a note without a newline' > "$dir/user.pgn"
cp "$dir/user.pgn" "$dir/user-before.pgn"
"$loa_match" "${match[@]}" --json "$dir/r.json" --pgn "$dir/user.pgn" > /dev/null &
pid=$!
while kill -0 "$pid" 2> /dev/null && [ "$(cat "$dir/r.json.state" 2> /dev/null | wc -l)" -lt 4 ]; do sleep 0.01; done
kill -9 "$pid" 2> /dev/null || true
wait "$pid" 2> /dev/null || true
[ -f "$dir/r.json.state" ] || fail "the run finished before it could be killed"
"$loa_match" "${match[@]}" --json "$dir/r.json" --pgn "$dir/user.pgn" > /dev/null
size=$(stat -c %s "$dir/user-before.pgn")
cmp -s <(head -c "$size" "$dir/user.pgn") "$dir/user-before.pgn" || fail "the user's text was changed"
# The run's part: a newline after the user's last line, then the uninterrupted run's games
# (in the order they finished: compared sorted).
[ "$(tail -c +$((size + 1)) "$dir/user.pgn" | head -c 1 | od -An -c | tr -d ' ')" = '\n' ] || fail "no newline before the run's records"
records() { awk 'BEGIN { RS = "" } /^\[Event "mine"\]/ || /^%/ { next } { gsub(/\n/, "~"); print }' "$1" | sort; }
diff <(records "$dir/ref.pgn") <(tail -c +$((size + 2)) "$dir/user.pgn" | records /dev/stdin) > /dev/null \
  || fail "the resumed run's records are not the uninterrupted run's games, each once"
echo "appended after the user's text, which is unchanged; killed and resumed: each game once"

# A PGN shortened while the run was stopped: refused, and left alone.
"$loa_match" "${match[@]}" --json "$dir/s.json" --pgn "$dir/short.pgn" > /dev/null &
pid=$!
while kill -0 "$pid" 2> /dev/null && [ "$(cat "$dir/s.json.state" 2> /dev/null | wc -l)" -lt 4 ]; do sleep 0.01; done
kill -9 "$pid" 2> /dev/null || true
wait "$pid" 2> /dev/null || true
[ -f "$dir/s.json.state" ] || fail "the second run finished before it could be killed"
echo '[Event "mine"]' > "$dir/short.pgn"
cp "$dir/short.pgn" "$dir/short-before.pgn"
# (the run began at byte 0 of a new file: what follows byte 0 is now the user's, not its records)
if "$loa_match" "${match[@]}" --json "$dir/s.json" --pgn "$dir/short.pgn" > "$dir/short.log" 2>&1; then
  fail "a PGN changed under the run was rewritten"
fi
grep -q "is not this run's game records" "$dir/short.log" || { cat "$dir/short.log"; fail "no reason given"; }
cmp -s "$dir/short.pgn" "$dir/short-before.pgn" || fail "the changed PGN was touched"

# A --json that is a file of the user's: refused before anything is played, and left alone.
echo '{"my": "notes"}' > "$dir/notes.json"
if "$loa_match" "${match[@]}" --json "$dir/notes.json" > "$dir/notes.log" 2>&1; then fail "a user's JSON was replaced"; fi
grep -q "is not a result of this match: it is left as it is" "$dir/notes.log" || { cat "$dir/notes.log"; fail "no reason given"; }
[ "$(cat "$dir/notes.json")" = '{"my": "notes"}' ] || fail "the user's JSON was touched"

# merge appends too.
cp "$dir/user-before.pgn" "$dir/merged.pgn"
"$loa_match" merge "$dir/ref.json" --pgn "$dir/merged.pgn" > /dev/null
cmp -s <(head -c "$size" "$dir/merged.pgn") "$dir/user-before.pgn" || fail "merge changed the user's text"
[ "$(grep -c '^\[Event ' "$dir/merged.pgn")" -eq 9 ] || fail "merge did not append the 8 games"
echo "a changed PGN and a user's JSON refused and untouched; merge appends"
