#!/usr/bin/env bash
# The same loa-match command once more after its match finished is refused, and leaves the
# finished run's PGN and JSON alone (a long run resumed session after session, one time too
# many, must not start over); `merge` prints that result; --fresh plays the match again.
set -euo pipefail
loa_match="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
args=(--engine name=a,preset=pvs+tt+rhh,depth=1 --engine name=b,preset=pvs+tt+hh,depth=1 --games 2 -j 1 --seed 3 -q
      --json "$dir/r.json" --pgn "$dir/r.pgn")
fail() { echo "FAIL: $*"; exit 1; }

"$loa_match" "${args[@]}" > /dev/null
cp "$dir/r.pgn" "$dir/first.pgn"; cp "$dir/r.json" "$dir/first.json"
if "$loa_match" "${args[@]}" > "$dir/again.log" 2>&1; then fail "a finished match was played again"; fi
grep -q "already holds this match, played to its end" "$dir/again.log" || { cat "$dir/again.log"; fail "no reason given"; }
cmp -s "$dir/r.pgn" "$dir/first.pgn" || fail "the finished run's PGN was touched"
cmp -s "$dir/r.json" "$dir/first.json" || fail "the finished run's JSON was touched"
merged=$("$loa_match" merge "$dir/r.json")
grep -q "a vs b: 2 games" <<< "$merged" || fail "merge does not print the finished result"
"$loa_match" "${args[@]}" --fresh > /dev/null || fail "--fresh did not play the match again"
[ -s "$dir/r.pgn" ] || fail "--fresh wrote no PGN"
echo "ok"
