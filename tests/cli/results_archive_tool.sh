#!/usr/bin/env bash
# scripts/results-archive.py on a repository of its own: `pack` replaces a result file by its
# summary and keeps the file's mode; `restore` gives back the very bytes, in a new file with the
# mode open(2) gives (0666 less the umask), and refuses a file that exists already.
# usage: results_archive_tool.sh SOURCE_DIR
set -euo pipefail
source_dir="$1"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1  # no user's hooks or signing
mkdir -p "$work/scripts" "$work/docs/results"
cp "$source_dir/scripts/results-archive.py" "$work/scripts/"
cd "$work"
git init -q .
printf '{"event": "x", "played_games": 2, "games": [{"game": 1}, {"game": 2}]}\n' > docs/results/run.json
chmod 640 docs/results/run.json
whole_sha=$(sha256sum docs/results/run.json | cut -d' ' -f1)
git add . && git -c user.name=t -c user.email=t@t.invalid commit -q -m run
python3 scripts/results-archive.py pack docs/results/run.json
[[ "$(stat -c %a docs/results/run.json)" == 640 ]] || fail "pack changed the mode to $(stat -c %a docs/results/run.json)"
grep -q '"games_archived"' docs/results/run.json || fail "pack wrote no games_archived"
grep -q '"game": 1' docs/results/run.json && fail "the summary still holds the games"
git add . && git -c user.name=t -c user.email=t@t.invalid commit -q -m pack
python3 scripts/results-archive.py check > /dev/null
umask 027
python3 scripts/results-archive.py restore docs/results/run.json --out restored.json
[[ "$(sha256sum restored.json | cut -d' ' -f1)" == "$whole_sha" ]] || fail "restore gave other bytes"
[[ "$(stat -c %a restored.json)" == 640 ]] || fail "restore under umask 027 made mode $(stat -c %a restored.json)"
echo keep > other.json
if python3 scripts/results-archive.py restore docs/results/run.json --out other.json 2> err.txt; then
  fail "restore wrote over a file it did not make"
fi
grep -q "exists already" err.txt || fail "no clear error: $(cat err.txt)"
[[ "$(cat other.json)" == keep ]] || fail "other.json changed"
# A name taken by a dangling link: only the final link(2) sees it, and must not write through it.
ln -s nowhere dangling.json
if python3 scripts/results-archive.py restore docs/results/run.json --out dangling.json 2> err.txt; then
  fail "restore wrote over a dangling link"
fi
grep -q "exists already" err.txt || fail "no clear error for a dangling link: $(cat err.txt)"
[[ -L dangling.json && ! -e nowhere ]] || fail "the dangling link was followed or replaced"
if python3 scripts/results-archive.py restore docs/results/run.json --out no/such/dir/x.json 2> err.txt; then
  fail "restore into a missing directory succeeded"
fi
grep -q "is not a directory" err.txt || fail "no clear error for a missing directory: $(cat err.txt)"
[[ -z "$(find . -name '.results-archive-*')" ]] || fail "a temporary file was left behind"
echo "results-archive: pack keeps the mode, restore gives the bytes back and refuses an existing file"
