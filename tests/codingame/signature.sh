#!/usr/bin/env bash
# The bot's file searches what the engine searches: bot_signature_main.cpp built by the engine's
# build (SIGNATURE) and made by the generator into one file compiled with the arena's flags
# print the same lines. Usage: signature.sh SIGNATURE SOURCE_DIR PYTHON
set -euo pipefail
native="$1" source_dir="$2" python="$3"
if [[ "$native" == none ]]; then
  echo "this build makes no bot file (g++ builds without sanitizers do)"
  exit 77
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$python" "$source_dir/scripts/codingame/generate.py" "$scratch/signature.cpp" --main tests/codingame/bot_signature_main.cpp \
  --limit 1000000 >/dev/null
bash "$source_dir/scripts/codingame/compile-arena.sh" "$scratch/signature.cpp" "$scratch/signature"
"$native" > "$scratch/engine.txt"
"$scratch/signature" > "$scratch/bot.txt"
cat "$scratch/bot.txt"
if ! diff "$scratch/engine.txt" "$scratch/bot.txt"; then
  echo "the bot's file searched otherwise than the engine's build (above: < engine, > bot)"
  exit 1
fi
echo "the bot's file and the engine's build: the same $(wc -l < "$scratch/bot.txt") lines"
