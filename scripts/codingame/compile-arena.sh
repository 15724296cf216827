#!/usr/bin/env bash
# Compiles the CodinGame bot's file as the arena does (g++ -std=gnu++17 -Werror=return-type -g
# -pthread, no -O) and fails on any diagnostic: the arena shows warnings to nobody, but a
# warning here is a C++20 construct or a shim the generator got wrong.
# Usage: compile-arena.sh BOT.cpp BINARY [COMPILER]
set -euo pipefail
if [[ $# -lt 2 || "$1" == -h || "$1" == --help ]]; then
  echo "usage: $0 BOT.cpp BINARY [COMPILER (default g++)]"
  [[ $# -ge 2 ]] && exit 0 || exit 2
fi
compiler="${3:-g++}"
diagnostics=$("$compiler" -std=gnu++17 -Werror=return-type -g -pthread "$1" -o "$2" 2>&1) || {
  printf '%s\n' "$diagnostics" | head -40 >&2
  exit 1
}
if [[ -n "$diagnostics" ]]; then
  printf '%s\n' "$diagnostics" | head -40 >&2
  echo "compile-arena: $1 compiled with diagnostics (above)" >&2
  rm -f "$2"
  exit 1
fi
