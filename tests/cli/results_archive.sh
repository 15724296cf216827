#!/usr/bin/env bash
# docs/results is a codebase's, not an archive (issue 84): at most 10 MB in the tree, every run's
# summary naming a commit whose tree holds the whole file with its games, with its SHA-256
# (scripts/results-archive.py). Skipped (77) in a shallow clone, which lacks that history.
# usage: results_archive.sh SOURCE_DIR
set -euo pipefail
root="$1"
bytes=$(du -sb "$root/docs/results" | cut -f1)
echo "docs/results: $bytes bytes in the tree"
(( bytes <= 10 * 1000 * 1000 )) || { echo "FAIL: docs/results holds more than 10 MB: archive the games (scripts/results-archive.py pack)"; exit 1; }
if [[ "$(git -C "$root" rev-parse --is-shallow-repository 2> /dev/null)" != false ]]; then
  echo "SKIP: not a whole git clone: the archives in its history cannot be checked"; exit 77
fi
python3 "$root/scripts/results-archive.py" check
