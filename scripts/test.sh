#!/usr/bin/env bash
# The test command (what CI runs): installs what is missing, then
#   release   builds everything (Release) and runs the whole default suite, browser and
#             Slurm tests included (labels `slow` are opt-in: ctest -L slow);
#   sanitize  builds the tests with AddressSanitizer + UndefinedBehaviorSanitizer (Debug, -O1,
#             asserts on) and runs the suite but for the heaviest search computations, which
#             the release stage runs (tests/CMakeLists.txt: LOA_RELEASE_ONLY_TESTS);
#   fuzz      a short libFuzzer round over every text input (clang, ASan + UBSan);
#   tsan      builds the threaded tests with ThreadSanitizer and runs them (protocol sessions,
#             lazy SMP, MCTS on shared trees, the match runner with -j 2, the web server, the
#             shared table).
# Every compiler call goes through ccache: a second run, or a fresh clone of a tree built
# before, rebuilds little. Each stage's time is printed at the end.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs="$(nproc)"
export TSAN_OPTIONS="halt_on_error=1"  # (read by the ThreadSanitizer builds only)
timings=()
print_times() {  # also when a stage fails: what the stages before it took
  echo "== times"
  ((${#timings[@]})) && printf '%s\n' "${timings[@]}"
  echo "total            $(printf '%5d' "$SECONDS") s"
}
trap print_times EXIT
stage() {  # stage NAME COMMAND...: runs it, and notes its time
  local name="$1" start=$SECONDS
  shift
  echo "== $name"
  "$@"
  timings+=("$(printf '%-16s %5d s' "$name" $((SECONDS - start)))")
}
in_build() {  # in_build KIND ctest-arguments...
  local kind="$1"
  shift
  (cd "$root/build/$kind" && ctest --output-on-failure -j "$jobs" "$@")
}

stage setup bash "$root/scripts/setup.sh" browser cluster fuzz trainer codingame
stage "release build" bash "$root/scripts/build.sh" release
stage "release test" in_build release -LE slow
stage "sanitize build" bash "$root/scripts/build.sh" sanitize
stage "sanitize test" in_build sanitize -LE slow
stage fuzz bash "$root/scripts/fuzz.sh" 3
# Only what the threaded tests need: their test binaries hold only the files of these suites
# (tests/CMakeLists.txt: LOA_THREADED_TEST_FILES).
stage "tsan build" bash "$root/scripts/build.sh" tsan search_tests loa_tests match_tests web_tests loa loa-match loa-web
stage "tsan test" in_build tsan -LE slow \
  -R 'LazySmp|MctsThreads|MultiPv|TimeManager|Uci|Gtp|CodinGame|Match\.|MatchState|MatchResume|ExternalEngines|WebApi|WebRecords|WebOperator|HttpServer|TranspositionTable|cli\.match|cli\.play|cli\.treesize|cli\.margins'
