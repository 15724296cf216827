#!/usr/bin/env bash
# The bench node count is the engine's signature, pinned in tests/cli/bench_signature.txt: a build
# whose `loa bench --depth 5` counts other nodes searches differently, which only a commit
# meant to change play may do (it updates the file and says why).
#   bench_signature.sh LOA SIGNATURE_FILE
set -euo pipefail
loa="$1"
expected=$(grep -v '^#' "$2" | tr -d '[:space:]' || true)
first=$("$loa" bench --depth 5 | grep -o 'nodes [0-9]*' | cut -d' ' -f2 || true)
second=$("$loa" bench --depth 5 | grep -o 'nodes [0-9]*' | cut -d' ' -f2 || true)
echo "bench depth 5: ${first:-none} nodes, then ${second:-none}; pinned: $expected"
if [ -z "$first" ] || [ "$first" != "$second" ]; then
  echo "bench signature: two runs differ (the search is not deterministic)" >&2
  exit 1
fi
if [ "$first" != "$expected" ]; then
  echo "bench signature: $first nodes, pinned $expected: the search changed. If that is meant, write $first" \
       "into $2 and say why in the commit message (bench: $first)" >&2
  exit 1
fi
