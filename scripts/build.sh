#!/usr/bin/env bash
# Configures and builds one configuration into build/KIND:
#   build.sh release|sanitize|tsan [TARGET...]      (no target: everything)
# Compiler calls go through ccache when it is installed (scripts/setup.sh installs it): a build
# of a tree built before, in this clone or in a fresh one anywhere, is mostly cache hits.
# Extra cmake arguments: LOA_CMAKE_ARGS="-DNAME=VALUE ..." (split at spaces: no value with a space).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
kind="${1:-release}"; shift || true
case "$kind" in
  release)  args=(-DCMAKE_BUILD_TYPE=Release) ;;
  # -O1: AddressSanitizer's own advice; the checks are the same and the tests run twice as fast
  # as at -O0. Debug keeps the asserts. -g1 (line tables: what a sanitizer's report shows) where
  # -g compiled analyze_command.cpp in 26.4 s, -g1 in 18.2 s.
  sanitize) args=(-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-g1 -O1" -DLOA_SANITIZE=ON -DLOA_BUILD_BENCH=OFF) ;;
  # ThreadSanitizer's advice is -O1 or more, and line tables are what its reports show:
  # analyze_command.cpp took 13.9 s at -O2 -g, 7.8 s at -O1 -g1.
  tsan)     args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" -DLOA_TSAN=ON -DLOA_BUILD_BENCH=OFF) ;;
  -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "build.sh: unknown configuration '$kind' (release|sanitize|tsan)" >&2; exit 2 ;;
esac
source "$root/scripts/ccache-env.sh"
read -r -a extra <<< "${LOA_CMAKE_ARGS:-}"
# Without ccache, a launcher an earlier configure cached is cleared.
((${#launcher[@]})) || launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=)
generator_for "$root/build/$kind"
cmake -S "$root" -B "$root/build/$kind" "${generator[@]}" "${args[@]}" "${launcher[@]}" "${extra[@]}" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$root/build/$kind" -j "$(nproc)" "${targets[@]}"
