#!/usr/bin/env bash
# Installs the Debian packages the project builds with, only those that are missing.
# `setup.sh fuzz` adds clang and libFuzzer for scripts/fuzz.sh; `setup.sh browser` adds
# Chromium, ChromeDriver and Selenium for the web board's browser test.
set -euo pipefail

packages=(g++ cmake make libboost-dev libboost-math-dev libfmt-dev libcli11-dev nlohmann-json3-dev
          libgtest-dev libgmock-dev libbenchmark-dev gnuplot-nox libeigen3-dev pkg-config libcpp-httplib-dev)
[ "${1:-}" = fuzz ] && packages+=(clang libfuzzer-14-dev)
[ "${1:-}" = browser ] && packages+=(chromium chromium-driver python3-selenium)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
