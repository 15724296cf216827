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
  # as at -O0. Debug keeps the asserts.
  sanitize) args=(-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-g -O1" -DLOA_SANITIZE=ON -DLOA_BUILD_BENCH=OFF) ;;
  tsan)     args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOA_TSAN=ON -DLOA_BUILD_BENCH=OFF) ;;
  -h|--help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "build.sh: unknown configuration '$kind' (release|sanitize|tsan)" >&2; exit 2 ;;
esac
source "$root/scripts/ccache-env.sh"
read -r -a extra <<< "${LOA_CMAKE_ARGS:-}"
# Without ccache, a launcher an earlier configure cached is cleared.
((${#launcher[@]})) || launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=)
cmake -S "$root" -B "$root/build/$kind" "${args[@]}" "${launcher[@]}" "${extra[@]}" >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$root/build/$kind" -j "$(nproc)" "${targets[@]}"
