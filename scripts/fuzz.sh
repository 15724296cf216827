#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz/ (clang, ASan + UBSan) and runs each for SECONDS
# (default 30): bash scripts/fuzz.sh [SECONDS] [TARGET...]. Exits non-zero on any crash, leak,
# hang (an input taking over 10 s), UB report or out-of-memory. New inputs found go to
# build/fuzz/corpus/<target>/ (seeds: tests/fuzz/corpus/<target>/); a failing input is saved as
# build/fuzz/artifacts/<target>-crash-... and reproduced with: build/fuzz/tests/fuzz/fuzz_<target> FILE
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
seconds="${1:-30}"
shift || true
bash "$root/scripts/setup.sh" fuzz
build="$root/build/fuzz"
source "$root/scripts/ccache-env.sh"
generator_for "$build"
# -O1 with line tables only (what a crash report shows): far less compile time than -O2 -g,
# and a fuzz round of a few seconds is bounded by time, not by its executions a second.
CC=clang CXX=clang++ cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" -DLOA_FUZZ=ON -DBUILD_TESTING=OFF \
  -DLOA_BUILD_BENCH=OFF "${launcher[@]}" > /dev/null
cmake --build "$build" -j "$(nproc)" --target fuzz_targets
targets=("$@")
if ((${#targets[@]} == 0)); then
  for dir in "$root"/tests/fuzz/corpus/*/; do targets+=("$(basename "$dir")"); done
fi
mkdir -p "$build/artifacts"
# fuzz_one TARGET: one target for $seconds, on one core (libFuzzer's default: one job).
fuzz_one() {
  local t="$1" log="$build/fuzz_$1.log"
  mkdir -p "$build/corpus/$t"
  if ASAN_OPTIONS=detect_leaks=1 "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
       -artifact_prefix="$build/artifacts/$t-" "$build/corpus/$t" "$root/tests/fuzz/corpus/$t" > "$log" 2>&1; then
    echo "fuzz_$t: ok, $(grep -o 'Done [0-9]* runs' "$log" | grep -o '[0-9]*' || echo "?") runs in ${seconds} s"
  else
    echo "fuzz_$t: FAILED (log: $log)"
    grep -E "ERROR|SUMMARY|Test unit written" "$log" | head -5
    return 1
  fi
}
export -f fuzz_one
export build root seconds
# As many targets at once as there are cores: each runs its full time, the stage takes a
# fraction of it. xargs exits non-zero when any target failed.
printf '%s\n' "${targets[@]}" | xargs -P "$(nproc)" -I {} bash -c 'fuzz_one "$1"' _ {}
