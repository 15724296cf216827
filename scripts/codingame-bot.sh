#!/usr/bin/env bash
# The CodinGame bot's one source file, made from the engine's sources (docs/protocols.md):
#   bash scripts/codingame-bot.sh OUT.cpp [--compile BINARY] [generate.py's options]
# writes OUT.cpp (created, or replaced if this script made it), says its size against the
# arena's 100,000 characters (status 1 when over), and with --compile builds it as the arena
# does (scripts/codingame/compile-arena.sh).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [[ $# -lt 1 || "$1" == -h || "$1" == --help ]]; then
  sed -n '2,6p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  python3 "$here/codingame/generate.py" --help | sed -n '/^options:/,$p'
  [[ $# -ge 1 ]] && exit 0 || exit 2
fi
out="$1"
shift
binary=""
args=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --compile) binary="${2:?--compile needs a binary path}"; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
python3 "$here/codingame/generate.py" "$out" "${args[@]}"
if [[ -n "$binary" ]]; then
  bash "$here/codingame/compile-arena.sh" "$out" "$binary"
  echo "codingame-bot: compiled $binary with the arena's flags"
fi
