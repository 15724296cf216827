#!/usr/bin/env bash
# The test command: installs what is missing, builds Release and Debug+ASan/UBSan, and runs the
# whole default suite under both (tests labelled `slow` are opt-in: ctest -L slow); then a
# short libFuzzer round over every text input (clang, ASan + UBSan), and a ThreadSanitizer build
# runs the threaded parts (protocol sessions, the match runner with -j 2).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh" browser cluster
for kind in release sanitize; do
  echo "== $kind: build"
  bash "$root/scripts/build.sh" "$kind"
  echo "== $kind: test"
  (cd "$root/build/$kind" && ctest --output-on-failure -j "$(nproc)" -LE slow)
done
echo "== fuzz: a short round of every target (scripts/fuzz.sh SECONDS for a longer one)"
bash "$root/scripts/fuzz.sh" 3
echo "== tsan: build"
bash "$root/scripts/build.sh" tsan
echo "== tsan: test (sessions, protocols, matches, the web server, the shared table)"
(cd "$root/build/tsan" && TSAN_OPTIONS="halt_on_error=1" ctest --output-on-failure -j "$(nproc)" -LE slow \
  -R 'LazySmp|TimeManager|Uci|Gtp|CodinGame|Match\.|MatchState|ExternalEngines|WebApi|TranspositionTable|cli\.match|cli\.play')
