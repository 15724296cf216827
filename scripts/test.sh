#!/usr/bin/env bash
# The test command: installs what is missing, builds Release and Debug+ASan/UBSan, and runs the
# whole default suite under both (tests labelled `slow` are opt-in: ctest -L slow).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
for kind in release sanitize; do
  echo "== $kind: build"
  bash "$root/scripts/build.sh" "$kind"
  echo "== $kind: test"
  (cd "$root/build/$kind" && ctest --output-on-failure -j "$(nproc)" -LE slow)
done
