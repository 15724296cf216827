#!/usr/bin/env bash
# The main job: installs what is missing, builds Release, and runs the default job.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" release
loa="$root/build/release/loa/loa"
"$loa" show
"$loa" perft --depth 5
