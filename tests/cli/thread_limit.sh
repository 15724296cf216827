#!/usr/bin/env bash
# A thread the system cannot start ends a run with a clear error and exit 2, not with
# "terminate called without an active exception" and signal 6 (issue 83): the match runner and
# datagen with -j 1024 under a 3 GB address-space limit (1024 thread stacks need 8 GB).
#   thread_limit.sh LOA_MATCH
set -uo pipefail
loa_match="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
check() {  # check NAME COMMAND...: exit 2 with a reason, under the limit
  local name="$1"
  shift
  (ulimit -v 3000000; "$@") > "$dir/$name.log" 2>&1
  local status=$?
  [ "$status" -eq 2 ] || { cat "$dir/$name.log"; fail "$name: exit $status, not 2"; }
  grep -Eq "cannot start thread [0-9]+ of 1024|out of memory" "$dir/$name.log" || { cat "$dir/$name.log"; fail "$name: no reason given"; }
  ! grep -q "terminate called" "$dir/$name.log" || fail "$name: std::terminate"
  echo "$name: $(tail -n 1 "$dir/$name.log")"
}
check match "$loa_match" --engine name=a,depth=1,tt=1 --engine name=b,depth=1,tt=1 --games 4096 -j 1024 -q \
  --state "$dir/match.state"
check datagen "$loa_match" datagen --engine name=d,preset=full,nodes=200,tt=1 --games 4096 -j 1024 --out "$dir/data.txt"
echo "thread limits: a clear error, exit 2"
