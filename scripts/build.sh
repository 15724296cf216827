#!/usr/bin/env bash
# Configures and builds one configuration: build.sh release|sanitize|tsan [extra cmake args]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
kind="${1:-release}"; shift || true
case "$kind" in
  release)  args=(-DCMAKE_BUILD_TYPE=Release) ;;
  sanitize) args=(-DCMAKE_BUILD_TYPE=Debug -DLOA_SANITIZE=ON -DLOA_BUILD_BENCH=OFF) ;;
  tsan)     args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DLOA_TSAN=ON -DLOA_BUILD_BENCH=OFF) ;;
  *) echo "build.sh: unknown configuration '$kind' (release|sanitize|tsan)" >&2; exit 2 ;;
esac
cmake -S "$root" -B "$root/build/$kind" "${args[@]}" "$@" >/dev/null
cmake --build "$root/build/$kind" -j "$(nproc)"
