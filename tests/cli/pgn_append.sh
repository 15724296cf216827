#!/usr/bin/env bash
# --pgn gathers games, as fastchess's and cutechess's PGN output does: a run appends to what the
# file holds and never touches it (issue 56: a user's 10 games once became 2). Killed and
# resumed (with the same --pgn, without one in between, with another --event), a run rewrites
# only its own records: the file ends as the user's text followed by the games of an
# uninterrupted run, each once. A state file of an earlier version (no record of where the
# run's records begin) resumes when the PGN holds its records only. A PGN changed under a
# stopped run, and a --json that is not this match's result, are refused and left as they were.
set -euo pipefail
loa_match="$1"
depth="${2:-4}"  # the games' depth: 3 under the sanitizers (tests/CMakeLists.txt)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
match=(--engine name=a,preset=pvs+tt+rhh,depth=$depth --engine name=b,preset=pvs+tt+hh,depth=$depth --games 10 -j 2 --seed 5 -q)
# One line per game (tags but the date, and moves), sorted: the games finish in any order with -j 2.
games() { grep -v '^\[Date ' "$1" | awk 'BEGIN { RS = "" } { printf "%s%s", $0, (NR % 2 ? " | " : "\n") }' | tr '\n' '~' | sed 's/~\[Event/\n[Event/g' | sed 's/~*$//' | sort; }
# kill_after NAME LINES [options]: starts the match on NAME.json and kills it once its state file holds LINES lines
# (at most 8 of the 11: two games or more are still to come, so that the run cannot end first).
kill_after() {
  local name="$1" lines="$2"; shift 2
  "$loa_match" "${match[@]}" --json "$dir/$name.json" "$@" > /dev/null &
  local pid=$!
  while kill -0 "$pid" 2> /dev/null && [ "$(cat "$dir/$name.json.state" 2> /dev/null | wc -l)" -lt "$lines" ]; do sleep 0.01; done
  kill -9 "$pid" 2> /dev/null || true
  wait "$pid" 2> /dev/null || true
  [ -f "$dir/$name.json.state" ] || fail "the run on $name finished before it could be killed"
}

"$loa_match" "${match[@]}" --json "$dir/ref.json" --pgn "$dir/ref.pgn" > /dev/null
# The user's file: a game of their own, the last line without its newline.
printf '%s' $'[Event "mine"]\n[Result "1-0"]\n\n1. b1-d3 1-0\n\n% a note without a newline' > "$dir/user.pgn"
cp "$dir/user.pgn" "$dir/user-before.pgn"
size=$(stat -c %s "$dir/user-before.pgn")
kill_after r 3 --pgn "$dir/user.pgn"
kill_after r 6                                     # resumed without --pgn: the start is kept
kill_after r 8 --pgn "$dir/user.pgn" --event other  # and with another event
"$loa_match" "${match[@]}" --json "$dir/r.json" --pgn "$dir/user.pgn" > /dev/null
cmp -s <(head -c "$size" "$dir/user.pgn") "$dir/user-before.pgn" || fail "the user's text was changed"
# The user's last line is ended, and a blank line parts it from the first record (PGN 8.2.4).
[ "$(tail -c +$((size + 1)) "$dir/user.pgn" | head -c 2 | od -An -c | tr -d ' ')" = '\n\n' ] || fail "no blank line before the run's records"
tail -c +$((size + 3)) "$dir/user.pgn" > "$dir/run-part.pgn"
diff <(games "$dir/ref.pgn") <(games "$dir/run-part.pgn") > /dev/null \
  || fail "the resumed run's records are not the uninterrupted run's games, each once"
echo "appended after the user's text, which is unchanged; killed and resumed three times: each game once"

# A state file of an earlier version: no "pgn" in its first line; its PGN holds only its records.
kill_after old 4 --pgn "$dir/old.pgn"
/usr/bin/python3 - "$dir/old.json.state" << 'PY'
import json, sys
lines = open(sys.argv[1]).read().split("\n")
first = json.loads(lines[0]); del first["pgn"]; lines[0] = json.dumps(first, separators=(",", ":"))
open(sys.argv[1], "w").write("\n".join(lines))
PY
"$loa_match" "${match[@]}" --json "$dir/old.json" --pgn "$dir/old.pgn" > /dev/null || fail "an earlier version's run did not resume"
diff <(games "$dir/ref.pgn") <(games "$dir/old.pgn") > /dev/null || fail "an earlier version's run resumed to other records"
echo "a state file of an earlier version resumes over a PGN of its records only"

# A PGN shortened below the run's start, and one whose records were replaced: refused, untouched.
printf '[Event "mine"]\n\n1. b1-d3 *\n\n' > "$dir/short.pgn"
kill_after s 4 --pgn "$dir/short.pgn"
printf '[Event "mine"]\n' > "$dir/short.pgn"
cp "$dir/short.pgn" "$dir/short-before.pgn"
if "$loa_match" "${match[@]}" --json "$dir/s.json" --pgn "$dir/short.pgn" > "$dir/short.log" 2>&1; then fail "a shortened PGN was rewritten"; fi
grep -q "is shorter than when this run began" "$dir/short.log" || { cat "$dir/short.log"; fail "no reason given for the shortened PGN"; }
cmp -s "$dir/short.pgn" "$dir/short-before.pgn" || fail "the shortened PGN was touched"
kill_after c 4 --pgn "$dir/changed.pgn"
printf '[Event "mine"]\n[Round "1"]\n\n1. b1-d3 *\n\n%.0s' 1 2 3 4 5 6 7 8 9 > "$dir/changed.pgn"  # as long as before, or longer
cp "$dir/changed.pgn" "$dir/changed-before.pgn"
if "$loa_match" "${match[@]}" --json "$dir/c.json" --pgn "$dir/changed.pgn" > "$dir/changed.log" 2>&1; then fail "a changed PGN was rewritten"; fi
grep -q "is not this run's game records" "$dir/changed.log" || { cat "$dir/changed.log"; fail "no reason given for the changed PGN"; }
cmp -s "$dir/changed.pgn" "$dir/changed-before.pgn" || fail "the changed PGN was touched"

# A --json that is a file of the user's: refused before anything is played, and left alone.
echo '{"my": "notes"}' > "$dir/notes.json"
if "$loa_match" "${match[@]}" --json "$dir/notes.json" > "$dir/notes.log" 2>&1; then fail "a user's JSON was replaced"; fi
grep -q "is not a result of this match: it is left as it is" "$dir/notes.log" || { cat "$dir/notes.log"; fail "no reason given"; }
[ "$(cat "$dir/notes.json")" = '{"my": "notes"}' ] || fail "the user's JSON was touched"

# merge appends too.
cp "$dir/user-before.pgn" "$dir/merged.pgn"
"$loa_match" merge "$dir/ref.json" --pgn "$dir/merged.pgn" > /dev/null
cmp -s <(head -c "$size" "$dir/merged.pgn") "$dir/user-before.pgn" || fail "merge changed the user's text"
[ "$(grep -c '^\[Event ' "$dir/merged.pgn")" -eq 11 ] || fail "merge did not append the 10 games"
echo "a shortened or changed PGN and a user's JSON refused and untouched; merge appends"

# A file that ends with one newline after its last result: the next record still comes after a
# blank line, so that a reader sees its tags as a new game's (issue 82).
printf '[Event "mine"]\n[Result "*"]\n\n1. b1-d3 *\n' > "$dir/one-newline.pgn"
"$loa_match" merge "$dir/ref.json" --pgn "$dir/one-newline.pgn" > /dev/null
awk 'NR > 1 && /^\[Event / && previous != "" { bad = 1 } { previous = $0 } END { exit bad }' "$dir/one-newline.pgn" \
  || fail "a record follows the one before without a blank line"
[ "$(grep -c '^\[Event ' "$dir/one-newline.pgn")" -eq 11 ] || fail "merge did not append the 10 games"
# PGN's own Termination words; the runner's reason is the comment before the result.
grep -q '^\[Termination "normal"\]' "$dir/ref.pgn" || fail "no Termination \"normal\""
! grep '^\[Termination ' "$dir/ref.pgn" | grep -qv '"normal"\|"time forfeit"\|"rules infraction"\|"adjudication"\|"abandoned"' \
  || fail "a Termination that is not one of PGN's words"
grep -q '{[a-z]* wins by connection} [01]-[01]$' "$dir/ref.pgn" || fail "no reason in the comment before the result"
echo "a blank line before every record; Termination in PGN's words, the reason in a comment"
