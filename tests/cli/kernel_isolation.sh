#!/usr/bin/env bash
# The binaries run on their -march (x86-64-v2): instructions beyond it (VEX/EVEX-encoded, ymm,
# zmm or mask registers) may appear only in the NNUE kernels that the CPU check guards
# (loa/nnue/kernels/). A header's inline function compiled for AVX2 and kept by the linker for
# the whole program would show here (loa/nnue/kernels/instruction_sets.hpp says why).
#   kernel_isolation.sh BINARY...
set -euo pipefail
if [ "$(uname -m)" != x86_64 ]; then echo "kernel_isolation: not an x86-64 machine, nothing to check"; exit 0; fi
command -v objdump > /dev/null || { echo "kernel_isolation: objdump (binutils) is needed" >&2; exit 1; }
status=0
for binary in "$@"; do
  functions=$(objdump -d --no-show-raw-insn -C "$binary" | awk '
    /^[0-9a-f]+ <.*>:$/ { fn = $0; next }
    $2 ~ /^(v[a-z0-9]+|k[a-z0-9]+)$/ || /[yz]mm[0-9]|%k[0-7]/ { if (!(fn in seen)) { seen[fn] = 1; print fn } }')
  kernels=$(grep -c "avx2_kernels::\|avx512_kernels::" <<<"$functions" || true)
  outside=$(grep -v "avx2_kernels::\|avx512_kernels::" <<<"$functions" | grep . || true)
  echo "$binary: $kernels kernel functions use AVX instructions"
  if [ "$kernels" -eq 0 ]; then
    echo "kernel_isolation: no AVX kernel found in $binary (is the check still seeing instructions?)" >&2
    status=1
  fi
  if [ -n "$outside" ]; then
    echo "kernel_isolation: AVX instructions outside the kernels in $binary:" >&2
    echo "$outside" | head -20 >&2
    status=1
  fi
done
exit $status
