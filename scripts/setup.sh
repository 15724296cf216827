#!/usr/bin/env bash
# Installs the Debian packages the project builds with, only those that are missing.
# Extras, any of them: `fuzz` adds clang and libFuzzer for scripts/fuzz.sh, `browser` Chromium,
# ChromeDriver and Selenium for the web board's browser test, `cluster` Slurm and munge for
# scripts/slurm-local.sh, `trainer` Debian's PyTorch, numpy and the threaded OpenBLAS for
# scripts/train-net.sh, `codingame` g++ 11, the CodinGame arena's compiler, for the bot's test.
set -euo pipefail

packages=(g++ cmake make ninja-build libboost-dev libboost-math-dev libfmt-dev libcli11-dev nlohmann-json3-dev
          libgtest-dev libgmock-dev libbenchmark-dev gnuplot-nox libeigen3-dev pkg-config libcpp-httplib-dev
          ccache)
for extra in "$@"; do
  case "$extra" in
    fuzz) packages+=(clang libfuzzer-14-dev) ;;
    browser) packages+=(chromium chromium-driver python3-selenium) ;;
    cluster) packages+=(slurmctld slurmd slurm-client munge bc python3) ;;
    trainer) packages+=(python3-torch python3-numpy libopenblas0-pthread) ;;
    codingame) packages+=(g++-11) ;;
    *) echo "setup.sh: unknown extra '$extra' (fuzz, browser, cluster, trainer, codingame)" >&2; exit 2 ;;
  esac
done
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
