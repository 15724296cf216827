#!/usr/bin/env bash
# The bench node count is the engine's signature, pinned in tests/cli/bench_signature.txt: a build
# whose `loa bench --depth 5` counts other nodes searches differently, which only a commit
# meant to change play may do (it updates the file and says why). The count is the same with
# every NNUE kernel this CPU runs (LOA_NNUE_KERNEL; docs/nnue.md): they compute the same integers.
#   bench_signature.sh LOA SIGNATURE_FILE
set -euo pipefail
loa="$1"
expected=$(grep -v '^#' "$2" | tr -d '[:space:]' || true)
bench_nodes() { "$loa" bench --depth 5 | grep -o 'nodes [0-9]*' | cut -d' ' -f2 || true; }
first=$(bench_nodes)
second=$(bench_nodes)
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
ran=0
for kernel in scalar sse4.1 avx2 avx512 avx512vnni; do
  if ! output=$(LOA_NNUE_KERNEL=$kernel "$loa" bench --depth 5 2>&1); then
    # Not built (only scalar on another CPU family) or beyond this CPU: skipped. On x86-64 every
    # kernel is built, so an unknown one there is a kernel gone missing.
    if grep -q "needs instructions this CPU lacks" <<<"$output" ||
       { [ "$(uname -m)" != x86_64 ] && grep -q "unknown NNUE kernel" <<<"$output"; }; then
      echo "kernel $kernel: not run here ($output)"
      continue
    fi
    echo "kernel $kernel: $output" >&2
    exit 1
  fi
  nodes=$(grep -o 'nodes [0-9]*' <<<"$output" | cut -d' ' -f2 || true)
  echo "kernel $kernel: ${nodes:-none} nodes"
  if [ "$nodes" != "$expected" ]; then
    echo "bench signature: the NNUE kernel $kernel counts ${nodes:-no} nodes, the pinned count is $expected" >&2
    exit 1
  fi
  ran=$((ran + 1))
done
[ "$ran" -ge 1 ] || { echo "bench signature: no NNUE kernel ran (not even scalar)" >&2; exit 1; }
