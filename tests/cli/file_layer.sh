#!/usr/bin/env bash
# Every file a user names goes through the one file layer (issue 83): a FIFO or a device given
# as input is refused at once with the file and the cause (--openings FIFO once hung the run,
# --openings /dev/zero grew to 4.6 GB, positions --pgn FIFO said "0 positions" and exit 0); a
# datagen rerun with nothing to play leaves the file to the byte (it once cut a user's notes);
# a datagen stopped by a full disk as it wrote its header leaves no empty file behind (which the
# same command then refused); a file of the user's at an output path is never replaced.
#   file_layer.sh LOA_MATCH
set -uo pipefail
loa_match="$(realpath "$1")"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
fail() { echo "FAIL: $*"; exit 1; }
mkfifo fifo
# refused NAME REGEX COMMAND...: exits 2 within 20 s with a message matching REGEX.
refused() {
  local name="$1" pattern="$2"
  shift 2
  timeout 20 "$@" > "$name.log" 2>&1
  local status=$?
  [ "$status" -eq 2 ] || { cat "$name.log"; fail "$name: exit $status, not 2 (124: it hung)"; }
  grep -Eq -- "$pattern" "$name.log" || { cat "$name.log"; fail "$name: no reason given"; }
  echo "$name: $(tail -n 1 "$name.log")"
}
match=(--engine name=a,depth=1 --engine name=b,depth=1 --games 2 -q)
refused openings-fifo "openings: '.*fifo' is not a regular file" "$loa_match" "${match[@]}" --openings fifo --state s1.state
refused openings-zero "openings: '/dev/zero' is not a regular file" "$loa_match" "${match[@]}" --openings /dev/zero --state s2.state
refused datagen-openings "'.*fifo' is not a regular file" "$loa_match" datagen --engine name=d,nodes=100 --games 1 --openings fifo --out d0.txt
refused positions-pgn "positions --pgn: '.*fifo' is not a regular file" "$loa_match" positions --pgn fifo
refused tune-records "tune: '.*fifo' is not a regular file" "$loa_match" tune fifo
refused treesize-positions "positions file: '.*fifo' is not a regular file" "$loa_match" treesize --positions fifo --variant pvs --depth 1

# A datagen rerun with nothing to play: the file, notes after the last game included, unchanged.
"$loa_match" datagen --engine name=d,preset=full,nodes=200 --games 2 --out data.txt > /dev/null 2>&1 || fail "datagen failed"
printf 'my notes about this run, fifty bytes long, no game\n' >> data.txt
cp data.txt data-before.txt
"$loa_match" datagen --engine name=d,preset=full,nodes=200 --games 2 --out data.txt > rerun.log 2>&1 || { cat rerun.log; fail "the rerun failed"; }
cmp -s data.txt data-before.txt || fail "a datagen rerun with nothing to play changed the file"
# With games to play, the notes are not cut either: the run is refused, the file left as it is.
refused datagen-notes "lines after its last complete game" "$loa_match" datagen --engine name=d,preset=full,nodes=200 --games 3 --out data.txt
cmp -s data.txt data-before.txt || fail "a datagen run cut the user's notes"

# A full disk as the header is written (a file-size limit of 120 bytes: room for the lock
# file's mark, not for the header): no file is left, and the same command then works. The log
# goes through a pipe, which the limit does not apply to.
prlimit --fsize=120 "$loa_match" datagen --engine name=d,preset=full,nodes=200 --games 1 --out full.txt 2>&1 | cat > full.log
[ ! -e full.txt ] || fail "a datagen stopped by a full disk left '$(wc -c < full.txt)' bytes behind"
grep -q "File too large" full.log || { cat full.log; fail "no reason given for the full disk"; }
"$loa_match" datagen --engine name=d,preset=full,nodes=200 --games 1 --out full.txt > /dev/null 2>&1 || fail "the same command failed afterwards"
ls ./*.tmp-* > /dev/null 2>&1 && fail "a temporary file was left behind"

# A user's file at an output path is never replaced, and is refused before the work.
"$loa_match" "${match[@]}" --pgn games.pgn --state s3.state > /dev/null 2>&1 || fail "the match failed"
echo '{"my": "weights"}' > mine.json
refused tune-out "it is not evaluation weights; it is left as it is" "$loa_match" tune games.pgn --out mine.json
[ "$(cat mine.json)" = '{"my": "weights"}' ] || fail "tune --out replaced the user's file"
echo 'not positions' > mine.txt
refused positions-out "it is not a file of positions" "$loa_match" positions --pgn games.pgn --out mine.txt
[ "$(cat mine.txt)" = "not positions" ] || fail "positions --out replaced the user's file"
ln -s mine.txt link.txt
refused openings-out "symbolic link" "$loa_match" openings --count 1 --out link.txt
[ "$(cat mine.txt)" = "not positions" ] || fail "openings --out wrote through a link"
echo "file layer: inputs regular and bounded, outputs never over a user's file"
