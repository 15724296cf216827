#!/usr/bin/env bash
# Snapshots of every --help and of the messages of the most likely mistakes, as fastchess keeps
# its CLI snapshots: a change to a message shows up in review as a change to a file here.
#
#   bash tests/cli/cli_snapshots.sh LOA LOA_MATCH            compare (the test)
#   bash tests/cli/cli_snapshots.sh --update LOA LOA_MATCH   rewrite tests/cli/cli_snapshots/*.txt
#
# Each snapshot holds the command, its output (stdout then stderr, the program's path written as
# its name) and its exit status. Every subcommand either binary lists must have a help snapshot,
# so that a new command comes with one.
set -euo pipefail
export LC_ALL=C  # the system's error texts ("No such file or directory") in English
update=0
if [ "${1:-}" = "--update" ]; then update=1; shift; fi
loa="$(realpath "$1")"
loa_match="$(realpath "$2")"
here="$(cd "$(dirname "$0")" && pwd)"
snapshots="$here/cli_snapshots"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"  # mistakes name relative files that do not exist here

failures=0
checked=0
# snapshot NAME PROGRAM ARGS...: PROGRAM is loa or loa-match.
snapshot() {
  local name="$1" program="$2"
  shift 2
  local binary="$loa"
  [ "$program" = "loa-match" ] && binary="$loa_match"
  local status=0
  local output
  output="$("$binary" "$@" 2>&1 < /dev/null)" || status=$?
  # The path the binary was started by is the build's: write the program's name instead.
  output="${output//"$binary"/$program}"
  local actual
  actual="$(printf '$ %s %s\n%s\n[exit %d]\n' "$program" "$*" "$output" "$status")"
  checked=$((checked + 1))
  if [ "$update" = 1 ]; then
    printf '%s\n' "$actual" > "$snapshots/$name.txt"
  elif [ ! -f "$snapshots/$name.txt" ]; then
    echo "missing snapshot $name.txt for: $program $*"
    failures=$((failures + 1))
  elif ! diff -u "$snapshots/$name.txt" <(printf '%s\n' "$actual") > "$work/diff"; then
    echo "snapshot $name.txt differs (review the change, then: bash tests/cli/cli_snapshots.sh --update LOA LOA_MATCH):"
    cat "$work/diff"
    failures=$((failures + 1))
  fi
}

# The subcommands a --help lists.
subcommands() {
  "$1" --help | sed -n '/^Subcommands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }'
}

snapshot help.loa loa --help
for sub in $(subcommands "$loa"); do snapshot "help.loa.$sub" loa "$sub" --help; done
snapshot help.loa-match loa-match --help
for sub in $(subcommands "$loa_match"); do snapshot "help.loa-match.$sub" loa-match "$sub" --help; done
snapshot usage.loa-match loa-match

# The mistakes people make first, and what they are told.
snapshot mistake.subcommand-spelling loa analyse
snapshot mistake.search-key-spelling loa analyze --variant full,kilers=3
snapshot mistake.engine-key-spelling loa-match --engine name=a,nodse=2000 --engine name=b,nodes=2000
snapshot mistake.bad-key-value loa analyze --variant full,killers=9
snapshot mistake.preset-token loa analyze --variant fulll
snapshot mistake.time-unit loa analyze --movetime 1sec
snapshot mistake.sprt-bounds loa-match --engine name=a,nodes=100 --engine name=b,nodes=100 --sprt 0,10
snapshot mistake.fastchess-unknown loa-match -engine name=a depth=1 -engine name=b depth=1 -draw movenumber=40 movecount=8 score=10
snapshot mistake.bad-position loa analyze --position "8/8/8 b" --depth 1
snapshot mistake.illegal-move loa analyze --moves "b1-d9" --depth 1
snapshot mistake.missing-openings loa-match --engine name=a,nodes=100 --engine name=b,nodes=100 --openings no-such-file.txt
snapshot mistake.perft-depth loa perft --depth 0
snapshot mistake.rules-name loa analyze --rules olympic --depth 1
snapshot mistake.long-option-spelling loa-match --gmaes 2
snapshot mistake.long-option-spelling-loa loa analyze --dpeth 5
snapshot mistake.sprt-number loa-match --engine name=a,nodes=100 --engine name=b,nodes=100 --sprt elo0=foo,elo1=10
snapshot mistake.games-number loa-match --games many

if [ "$update" = 1 ]; then
  # Snapshots of commands that no longer exist would be kept for ever otherwise.
  echo "wrote $checked snapshots in $snapshots"
  exit 0
fi
expected=$(find "$snapshots" -name '*.txt' | wc -l)
if [ "$expected" != "$checked" ]; then
  echo "$expected snapshot files but $checked commands: remove the files of commands that are gone (--update rewrites the rest)"
  failures=$((failures + 1))
fi
echo "$checked snapshots checked, $failures differ"
[ "$failures" = 0 ]
