#!/usr/bin/env bash
# A full disk stops a match at its first failed write, with an error that names the file and
# the cause; every finished game stays in the state file (whole lines only), no temporary file
# is left, and the same command resumes when writes succeed again, to the games of a run that
# was never stopped. The failure is a file-size limit (ulimit -f): the same failed write(2) as
# a full disk, without a file system to fill.
set -euo pipefail
loa_match="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
run() {  # run NAME [loa-match options]: the match, its files named NAME.*
  local name="$1"; shift
  "$loa_match" --engine name=a,preset=pvs+tt+rhh,depth=2 --engine name=b,preset=pvs+tt+hh,depth=2 --games 8 -j 2 \
    --seed 5 -q --json "$dir/$name.json" --pgn "$dir/$name.pgn" "$@"
}
run whole > /dev/null
status=0
( ulimit -f 6; run r > "$dir/full.log" 2>&1 ) || status=$?
[ "$status" -eq 2 ] || { cat "$dir/full.log"; fail "a failed write ended the run with status $status, not 2"; }
grep -Eq "error: cannot write '$dir/r\.json\.state': File too large" "$dir/full.log" \
  || { cat "$dir/full.log"; fail "the error does not name the state file and the cause"; }
[ -s "$dir/r.json.state" ] || fail "the state file is gone"
[ "$(tail -c 1 "$dir/r.json.state" | od -An -c | tr -d ' ')" = '\n' ] || fail "the state file ends with a torn line"
games=$(($(wc -l < "$dir/r.json.state") - 1))
[ "$games" -ge 1 ] && [ "$games" -lt 8 ] || fail "$games games in the state file: the test did not stop the run mid-way"
ls "$dir" | grep -q 'tmp' && { ls "$dir"; fail "a temporary file was left behind"; }
[ ! -e "$dir/r.json" ] || fail "a result was written for a stopped run"
run r > "$dir/resume.log" 2>&1 || { cat "$dir/resume.log"; fail "the resumed run failed"; }
/usr/bin/python3 - "$dir/whole.json" "$dir/r.json" << 'PY' || fail "the resumed run's games differ from an uninterrupted run's"
import json, sys
a, b = ([(g["game"], g["moves"], g["result"]) for g in json.load(open(f))["games"]] for f in sys.argv[1:3])
sys.exit(0 if a == b and len(a) == 8 else 1)
PY
[ "$(grep -c '^\[Event' "$dir/r.pgn")" -eq 8 ] || fail "the resumed run's PGN does not hold the 8 games"
echo "stopped after $games games with the cause named; resumed to the uninterrupted run's games"
